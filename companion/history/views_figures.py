"""The history's people and games pages: a player, a game, and the lists behind their links.

Bounded at any size of history (issue 42: 100,000 plays): each page shows the first few rows of a
list and links to the whole list, paged; figures are database aggregates kept in the cache under
the history's stamp (kept.py), so a page read again costs the stamp's query and the page's own
few rows."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from companion.games import registry
from companion.groups.access import group_page
from companion.groups.models import Group
from companion.tables.models import Player

from . import figures, glance, kept, ratings, same_game, stats
from .forms import MergeForm, RenameForm
from .play_rows import play_row

SHOWN = 8  # a player's games and opponents, a game's ratings, shown before "All ..."
CHARTED = 3  # a player's most played games drawn as a line of scores
RECENT = 10
LIST_PAGE = 50  # rows of a list page (players, games, a player's games or opponents, ratings)


def paged(request, rows) -> object:
    return Paginator(rows, LIST_PAGE).get_page(request.GET.get("page"))


@group_page
def players(request, group: Group):
    people = kept.figures(group, "players", lambda: list(stats.players_overview(group)))
    return render(request, "history/players.html", {"group": group, "page": paged(request, people)})


def player_games(group: Group, person: Player, stamp: str, twins: same_game.Twins) -> list[dict]:
    return kept.figures(group, f"player-games:{person.pk}", lambda: stats.player_games(person, twins), stamp)


def player_opponents(group: Group, person: Player, stamp: str) -> list[dict]:
    return kept.figures(group, f"opponents:{person.pk}", lambda: stats.opponents(person), stamp)


@group_page
def player(request, group: Group, player_id: int):
    person = get_object_or_404(Player, pk=player_id, group=group)
    return player_page(request, group, person)


def player_page(request, group: Group, person: Player, rename_form=None, merge_form=None, status=200):
    stamp, twins = ratings.history_stamp(group), same_game.twins(group)
    games = player_games(group, person, stamp, twins)
    shown = games[:SHOWN]
    rated = ratings.player_ratings(group, person, [row["game"] for row in shown], stamp)
    shown = [{**row, "rating": rated.get(row["game"])} for row in shown]
    opponents = player_opponents(group, person, stamp)
    charts = kept.figures(
        group, f"player-charts:{person.pk}", lambda: figures.player_charts(person, shown, CHARTED), stamp
    )
    recent = stats.detailed(stats.plays(group, player=person)[:RECENT])
    return render(
        request,
        "history/player.html",
        {
            "group": group,
            "person": person,
            "totals": stats.PlayerTotals(
                plays=sum(row["plays"] for row in games), wins=sum(row["wins"] for row in games)
            ),
            "games": shown,
            "games_count": len(games),
            "rated_any": bool(rated),
            "new_plays": ratings.NEW_PLAYS,
            "opponents": opponents[:SHOWN],
            "opponents_count": len(opponents),
            "recent": [play_row(table) for table in recent],
            "charts": charts,
            "glance": glance.figures(group, person, stamp=stamp),
            "rename_form": rename_form or RenameForm(initial={"name": person.name}),
            "merge_form": merge_form or MergeForm(person),
        },
        status=status,
    )


@group_page
def player_games_page(request, group: Group, player_id: int):
    """Every game a player played, paged, with their rating in each game of the page."""
    person = get_object_or_404(Player, pk=player_id, group=group)
    stamp = ratings.history_stamp(group)
    page = paged(request, player_games(group, person, stamp, same_game.twins(group)))
    rated = ratings.player_ratings(group, person, [row["game"] for row in page], stamp)
    rows = [{**row, "rating": rated.get(row["game"])} for row in page]
    return render(
        request, "history/player_games.html", {"group": group, "person": person, "page": page, "rows": rows}
    )


@group_page
def player_opponents_page(request, group: Group, player_id: int):
    person = get_object_or_404(Player, pk=player_id, group=group)
    page = paged(request, player_opponents(group, person, ratings.history_stamp(group)))
    return render(request, "history/player_opponents.html", {"group": group, "person": person, "page": page})


@group_page
def games(request, group: Group):
    """Every game the group has (the engines' and the pads'), most played first, paged."""
    overview = kept.figures(group, "games", lambda: stats.games_overview(group))
    ranked = sorted(overview, key=lambda game: (-game["plays"], game["name"].casefold()))
    return render(request, "history/games.html", {"group": group, "page": paged(request, ranked)})


@group_page
def game(request, group: Group, slug: str):
    """A game's statistics in the group. `slug` is its history key: an engine's slug, or a pad's
    game ("any-game:carcassonne"), which exists once one of the group's plays is finished. A pad
    that is an engine's game (same_game.py) is that game's page."""
    twins = same_game.twins(group)
    if slug in twins.of_engine:
        return redirect("history:game", group.pk, twins.of_engine[slug])
    game = stats.played(group, slug, twins)
    if game is None:
        raise Http404("No such game")
    keys = list(game.keys)
    stamp = ratings.history_stamp(group)

    def figures_of(name: str, compute):
        return kept.figures(group, f"game-{name}:{slug}", compute, stamp)

    board = ratings.game_ratings(group, slug, stamp)
    recent = stats.detailed(stats.plays(group, game=keys)[:RECENT])
    return render(
        request,
        "history/game.html",
        {
            "group": group,
            "game": game,
            "summary": figures_of("summary", lambda: stats.game_summary(group, keys, game.highest_wins)),
            "top_players": figures_of("top", lambda: stats.top_players(group, keys, game.highest_wins)),
            "ratings": board[:SHOWN],
            "ratings_count": len(board),
            "new_plays": ratings.NEW_PLAYS,
            "recent": [play_row(table) for table in recent],
            "charts": figures_of("charts", lambda: figures.game_charts(group, keys, slug)),
            "engine_game": slug in registry.GAMES,
        },
    )


@group_page
def game_ratings(request, group: Group, slug: str):
    """A game's whole leaderboard, paged."""
    game = stats.played(group, slug)
    if game is None:
        raise Http404("No such game")
    page = paged(request, ratings.game_ratings(group, slug))
    return render(
        request,
        "history/game_ratings.html",
        {"group": group, "game": game, "page": page, "new_plays": ratings.NEW_PLAYS},
    )
