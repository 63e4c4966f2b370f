"""The charts each history page shows: figures from stats and replay, shaped by charts."""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from companion import charts
from companion.groups.models import Group
from companion.tables.models import Player

from . import same_game, stats


def player_charts(player: Player, games: list[dict], charted: int | None = None) -> list[dict]:
    """Win rate by game, then per game (the first `charted` of `games`) the latest scores beside
    each play's winning score."""
    found = []
    if len(games) > 1:
        bars = [{"label": row["name"], "value": round(100 * row["win_rate"])} for row in games]
        chart = charts.bar_chart(
            bars, title=_("Win rate by game"), unit="%", chart_id=f"player-{player.pk}-rates"
        )
        found.append(chart)
    twins = same_game.twins(player.group_id)
    for index, row in enumerate(games[:charted]):
        history = stats.score_history(player, twins.keys(row["game"]))
        if len(history) < 2:
            continue
        chart = charts.line_chart(
            [
                {"label": player.name, "values": [play["score"] for play in history]},
                {"label": _("Winning score"), "values": [play["winning"] for play in history]},
            ],
            x_labels=[date_format(timezone.localtime(play["finished"]), "j M") for play in history],
            title=_("{game}: latest scores").format(game=row["name"]),
            y_label=_("score"),
            chart_id=f"player-{player.pk}-game-{index}",
            x_title=_("play"),
        )
        found.append(chart)
    return found


def game_charts(group: Group, game: str | list[str], slug: str | None = None) -> list[dict]:
    """How the group's final scores spread, and how many played. `game`: a history key or a
    game's keys (stats.keys_of); `slug` names the charts (the key, by default)."""
    slug = slug or stats.keys_of(game)[0]
    distribution = stats.score_distribution(group, game)
    spread = stats.player_count_spread(group, game)
    found = []
    if distribution:
        found.append(
            charts.bar_chart(
                [{"label": band["label"], "value": band["count"]} for band in distribution],
                title=_("Final scores"),
                unit="",
                chart_id=f"game-{slugify(slug)}-scores",
                x_title=_("score"),
            )
        )
    if spread:
        found.append(
            charts.bar_chart(
                [{"label": str(row["players"]), "value": row["plays"]} for row in spread],
                title=_("Plays by number of players"),
                chart_id=f"game-{slugify(slug)}-players",
                x_title=_("players"),
            )
        )
    return found
