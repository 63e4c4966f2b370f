"""Statistics of finished tables, computed by the database.

Every figure is an aggregate over Seat rows (score and won are written when a table finishes), so
the cost grows with the number of groups shown, not with the number of plays. Abandoned tables are
never finished, so filtering on status leaves them out.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import (
    Avg,
    Count,
    F,
    FloatField,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
)
from django.db.models.functions import Cast, Floor
from django.utils.translation import gettext as _

from companion.games import base, registry
from companion.groups.models import Group
from companion.tables.models import Player, Seat, Table
from companion.tables.services import unstorable

from . import same_game

FINISHED = Table.Status.FINISHED


def finished_seats(group: Group | None = None):
    """Seats of finished plays: a group's, or (for one person's, who is in one group) all."""
    seats = Seat.objects.filter(table__status=FINISHED)
    return seats if group is None else seats.filter(table__group=group)


def rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def keys_of(game: str | list[str]) -> list[str]:
    """The Table.played values a game covers: a key, or a game with its twin pads (same_game.py)."""
    return [game] if isinstance(game, str) else list(game)


# --- The archive -------------------------------------------------------------------------------


def archive(group: Group, game: str | list[str] | None = None, player: Player | None = None):
    """The group's finished tables, newest first, each with its first and last live entry's time
    (its length) and its seats' players fetched in one more query. `game` is a history key
    (Table.played), or the keys of one game (keys_of)."""
    return with_seats_and_length(plays(group, game, player)).order_by("-finished", "-pk")


def plays(group: Group, game: str | list[str] | None = None, player: Player | None = None):
    """The archive's tables without their details, newest first: what a page counts and slices
    (counting the archive itself groups every play's entries: seconds at 100,000 plays)."""
    tables = Table.objects.filter(group=group, status=FINISHED)
    if game:
        tables = tables.filter(played__in=keys_of(game))
    if player is not None:
        tables = tables.filter(pk__in=Seat.objects.filter(player=player).values("table"))
    return tables.order_by("-finished", "-pk")


def detailed(tables) -> list[Table]:
    """A slice of `plays` (a page) with the archive's details, in the slice's order: the details
    are gathered for those plays only."""
    ids = (
        [table.pk for table in tables]
        if isinstance(tables, list)
        else list(tables.values_list("pk", flat=True))
    )
    found = {table.pk: table for table in with_seats_and_length(Table.objects.filter(pk__in=ids))}
    return [found[pk] for pk in ids if pk in found]


def abandoned(group: Group):
    tables = Table.objects.filter(group=group, abandoned__isnull=False)
    return with_seats_and_length(tables).order_by("-abandoned")


def with_seats_and_length(tables):
    live = Q(events__undone=False)
    return tables.annotate(
        first_entry=Min("events__created", filter=live),
        last_entry=Max("events__created", filter=live),
    ).prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))


def length_minutes(table: Table) -> int | None:
    """The length people entered, else first to last entry (needs the archive's annotations)."""
    if table.duration_minutes is not None:
        return table.duration_minutes
    first, last = getattr(table, "first_entry", None), getattr(table, "last_entry", None)
    if first is None or last is None:
        return None
    return round((last - first).total_seconds() / 60)


def competition_ranks(
    scores: list[int | None], won: list[bool] | None = None, highest_wins: bool = True
) -> list[int | None]:
    """1 for the best score; equal scores share a rank and the next rank skips ("1, 1, 3").

    With `won` (each seat's win, as the game's rules decided it), the winners share rank 1 and
    the others rank after them: a tie on points that the rules broke (Surf's Up's sand dollars,
    SU-7) ranks the winner first, so a rank never says 1 where the win says no (issue 15)."""
    if won is None:
        won = [False] * len(scores)
    winners = sum(won)
    losers = [score for score, win in zip(scores, won, strict=True) if score is not None and not win]
    return [
        1
        if win
        else None
        if score is None
        else 1 + winners + sum((other > score) if highest_wins else (other < score) for other in losers)
        for score, win in zip(scores, won, strict=True)
    ]


def seat_ranks(table: Table, seats) -> list[int | None]:
    """The rank of each seat of a finished play, in the order given (the exports' "rank"); in a
    game where the lowest total wins (a pad's Hearts), the lower score ranks first; in a game
    without points, the winners share the first rank and the others the next."""
    facts = base.played_game(registry.get(table.game), table.options)
    if facts.no_points:  # won or lost (the pad's AG-7): the winners first, everyone else after them
        winners = sum(seat.won for seat in seats)
        return [1 if seat.won else 1 + winners for seat in seats]
    return competition_ranks([seat.score for seat in seats], [seat.won for seat in seats], facts.highest_wins)


# --- Players -----------------------------------------------------------------------------------


@dataclass
class PlayerTotals:
    plays: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)


def player_totals(player: Player) -> PlayerTotals:
    figures = (
        finished_seats()
        .filter(player=player)
        .aggregate(plays=Count("id"), wins=Count("id", filter=Q(won=True)))
    )
    return PlayerTotals(**figures)


LOWEST_WINS = Q(table__options__lowest_wins=True)  # a pad of a game where the lowest total wins


def player_games(player: Player, twins: same_game.Twins | None = None) -> list[dict]:
    """Per game (a twin pad counted with its engine's game): plays, wins, win rate, average, best
    (the lowest score in a lowest-wins game) and latest score, most played first."""
    twins = twins or same_game.twins(player.group_id)
    seats = finished_seats().filter(player=player).annotate(game=twins.expression("table__played"))
    rows = list(
        seats.values("game")
        .annotate(
            title=Max("table__title"),  # a pad's game name (one spelling of it)
            plays=Count("id"),
            wins=Count("id", filter=Q(won=True)),
            average=Avg("score"),
            highest=Max("score"),
            lowest=Min("score"),
            lowest_wins=Count("id", filter=LOWEST_WINS),
            last_finished=Max("table__finished"),
        )
        .order_by("-plays", "game")
    )
    # The latest score of each game in one more query, by its game's last finishing time (a
    # correlated subquery per seat would cost the square of the plays).
    latest = Q(pk__in=[])
    for row in rows:
        latest |= Q(table__played__in=twins.keys(row["game"]), table__finished=row["last_finished"])
    scores = dict(seats.filter(latest).order_by("table_id").values_list("game", "score"))
    return [_game_row(row, scores, twins) for row in rows]


def _game_row(row: dict, latest: dict, twins: same_game.Twins) -> dict:
    game = row.pop("game")
    del row["last_finished"]
    lowest_wins = row.pop("lowest_wins") > row["plays"] / 2  # as most of its plays were scored
    highest, lowest = row.pop("highest"), row.pop("lowest")
    title = row.pop("title")
    return {
        **row,
        "game": game,
        "name": game_name(game) if game in registry.GAMES else shown_title(title or game, game, twins),
        "best": lowest if lowest_wins else highest,
        "win_rate": rate(row["wins"], row["plays"]),
        "latest": latest.get(game),
    }


def shown_title(title: str, key: str, twins: same_game.Twins) -> str:
    """A pad game's name as the lists show it: a namesake of an engine's game is "(imported)"."""
    return _("{name} (imported)").format(name=title) if key in twins.namesakes else title


def opponents(player: Player) -> list[dict]:
    """Everyone who shared a finished table with `player`: how often, and the head-to-head record.
    A win against someone is a shared play `player` won and they did not; a shared win (a tie
    for first) counts for neither."""
    # Uncorrelated subqueries (the tables `player` sat at, won, lost): the database runs each once,
    # where a per-row EXISTS or a joined seat made SQLite scan every seat.
    mine = Seat.objects.filter(player=player)
    won, lost = mine.filter(won=True).values("table"), mine.filter(won=False).values("table")
    rows = (
        finished_seats()
        .filter(table__in=mine.values("table"), player__guest=False)
        .exclude(player=player)
        .values("player_id", "player__name")
        .annotate(
            plays=Count("id"),
            wins=Count("id", filter=Q(won=False, table__in=won)),
            losses=Count("id", filter=Q(won=True, table__in=lost)),
        )
        .order_by("-plays", "player__name")
    )
    return [_player_row(row) for row in rows]


def score_history(player: Player, game: str | list[str], last: int = 30) -> list[dict]:
    """The player's latest `last` scores in `game`, oldest first, with each play's winning score."""
    winning = (
        Seat.objects.filter(table=OuterRef("table"), won=True)
        .values("table")
        .annotate(top=Max("score"))
        .values("top")
    )
    rows = (
        finished_seats()
        .filter(player=player, table__played__in=keys_of(game))
        .annotate(winning=Subquery(winning), finished=F("table__finished"))
        .order_by("-table__finished", "-table_id")
        .values("table_id", "finished", "score", "won", "winning")[:last]
    )
    return list(reversed(rows))


def players_overview(group: Group):
    """Every person of the group with their finished plays and wins, most active first."""
    finished = Q(seats__table__status=FINISHED)
    return (
        Player.objects.filter(group=group, guest=False)  # a guest is no ranked player (issue 42)
        .annotate(
            plays=Count("seats", filter=finished),
            wins=Count("seats", filter=finished & Q(seats__won=True)),
            seated=Count("seats"),
            abandoned=Count("seats", filter=Q(seats__table__abandoned__isnull=False)),
        )
        # Someone whose every table was abandoned has no play to show (issue 30, 8); someone at a
        # table still going is listed, with 0 plays until it ends.
        .exclude(seated__gt=0, seated=F("abandoned"))
        .order_by("-plays", "name")
    )


# --- Games -------------------------------------------------------------------------------------


def game_name(key: str) -> str:
    """The name of a game with its own engine; a pad's games are named by their tables' title."""
    return registry.get(key).name if key in registry.GAMES else key


def games_overview(group: Group, twins: same_game.Twins | None = None) -> list[dict]:
    """The group's plays per game: every game with an engine (0 when never finished; its twin
    pads' plays counted with it, same_game.py), then each game kept on a pad (base.is_pad) under
    its own name, most played first. `slug` is the history key."""
    twins = twins or same_game.twins(group)
    rows = (
        Table.objects.filter(group=group, status=FINISHED)
        .values("played")
        .annotate(plays=Count("id"), title=Max("title"))
        .order_by("-plays", "played")
    )
    counts = {row["played"]: row for row in rows}
    engines = [
        {
            "slug": engine.slug,
            "name": engine.name,
            "plays": sum(counts.pop(key, {}).get("plays", 0) for key in twins.keys(engine.slug)),
        }
        for engine in registry.all_engines()
        if not base.is_pad(engine)
    ]
    pads = [
        {"slug": key, "name": shown_title(row["title"] or key, key, twins), "plays": row["plays"]}
        for key, row in counts.items()
    ]
    return engines + pads


@dataclass
class Played:
    """A game as the history shows it: its key (Table.played), its name, which way scores win."""

    key: str
    name: str
    slug: str  # the engine's: where a new table of it starts
    highest_wins: bool = True
    cooperative: bool = False  # the pad's co-op games (AG-7): no rating moves
    keys: tuple[str, ...] = ()  # the Table.played values it covers: its key and its twin pads

    def __post_init__(self):
        if not self.keys:
            self.keys = (self.key,)


def played(group: Group, key: str, twins: same_game.Twins | None = None) -> Played | None:
    """The game of history key `key`: a game with its engine (with its twin pads), or a game kept
    on a pad as its latest finished play named it and scored it. None for a key nobody played or
    no engine has."""
    if key in registry.GAMES and not base.is_pad(registry.get(key)):
        twins = twins or same_game.twins(group)
        return Played(key, registry.get(key).name, key, keys=tuple(twins.keys(key)))
    if unstorable(key):  # no play was stored under it, and PostgreSQL refuses to compare NUL
        return None
    latest = Table.objects.filter(group=group, status=FINISHED, played=key).order_by("-finished").first()
    if latest is None or latest.game not in registry.GAMES:
        return None
    facts = base.played_game(registry.get(latest.game), latest.options)
    twins = twins or same_game.twins(group)
    name = shown_title(latest.game_name, key, twins)
    return Played(key, name, latest.game, facts.highest_wins, facts.cooperative)


def game_summary(group: Group, game: str | list[str], highest_wins: bool = True) -> dict:
    seats = finished_seats(group).filter(table__played__in=keys_of(game))
    # The winning score of each play once, even when several seats share the win.
    winning = Seat.objects.filter(table=OuterRef("pk"), won=True).values("table").annotate(top=Max("score"))
    per_play = Table.objects.filter(group=group, status=FINISHED, played__in=keys_of(game)).annotate(
        winning=Subquery(winning.values("top"))
    )
    figures = seats.aggregate(
        plays=Count("table", distinct=True),
        average=Avg("score"),
        lowest=Min("score"),
        highest=Max("score"),
    )
    figures["average_winning"] = per_play.aggregate(average=Avg("winning"))["average"]
    first_seat = seats.filter(position=0).aggregate(plays=Count("id"), wins=Count("id", filter=Q(won=True)))
    best_first = "-score" if highest_wins else "score"
    best = (
        seats.filter(score__isnull=False, player__guest=False)
        .order_by(best_first, "table__finished", "table_id")
        .select_related("player", "table")
        .first()
    )
    return {
        **figures,
        "first_seat_wins": first_seat["wins"],
        "first_seat_rate": rate(first_seat["wins"], first_seat["plays"]),
        "best": best,
    }


def score_distribution(group: Group, game: str | list[str], buckets: int = 8) -> list[dict]:
    """How many final scores fall in each band of equal width ("20–29"), bands chosen from the
    lowest and highest score so there are about `buckets` of them."""
    seats = finished_seats(group).filter(table__played__in=keys_of(game), score__isnull=False)
    span = seats.aggregate(low=Min("score"), high=Max("score"))
    if span["low"] is None:
        return []
    width = band_width(span["low"], span["high"], buckets)
    counts = dict(
        seats.annotate(band=Floor(Cast("score", FloatField()) / width))
        .values("band")
        .annotate(n=Count("id"))
        .values_list("band", "n")
    )
    first, last = int(span["low"] // width), int(span["high"] // width)
    rows = []
    for band in range(first, last + 1):
        low = band * width
        label = band_label(low, low + width - 1)
        rows.append({"label": label, "low": low, "count": counts.get(band, 0)})
    return rows


def band_label(low: int, high: int) -> str:
    """ "20–29"; a band below zero reads "−10 to −1" (a dash between minus signs would not)."""
    if low == high:
        return str(low)
    if low < 0:
        return f"{low} to {high}".replace("-", "−")
    return f"{low}–{high}"


def band_width(low: int, high: int, buckets: int) -> int:
    """The smallest round band width (1, 2, 5, 10, 20 ...) giving at most `buckets` bands."""
    width, scale = 1, 1
    while True:
        for factor in (1, 2, 5):
            width = factor * scale
            if high // width - low // width + 1 <= buckets:
                return width
        scale *= 10


def player_count_spread(group: Group, game: str | list[str]) -> list[dict]:
    seat_count = Seat.objects.filter(table=OuterRef("pk")).values("table").annotate(n=Count("id")).values("n")
    rows = (
        Table.objects.filter(group=group, status=FINISHED, played__in=keys_of(game))
        .annotate(players=Subquery(seat_count))
        .values("players")
        .annotate(plays=Count("id"))
        .order_by("players")
    )
    return list(rows)


def top_players(
    group: Group, game: str | list[str], highest_wins: bool = True, limit: int = 10
) -> list[dict]:
    rows = (
        finished_seats(group)
        .filter(table__played__in=keys_of(game), player__guest=False)
        .values("player_id", "player__name")
        .annotate(
            plays=Count("id"),
            wins=Count("id", filter=Q(won=True)),
            best=Max("score") if highest_wins else Min("score"),
            average=Avg("score"),
        )
        .order_by("-wins", "-plays", "player__name")[:limit]
    )
    return [{**_player_row(row), "win_rate": rate(row["wins"], row["plays"])} for row in rows]


def _player_row(row: dict) -> dict:
    row["id"], row["name"] = row.pop("player_id"), row.pop("player__name")
    return row
