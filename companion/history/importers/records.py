"""A play as a file tells it, read and checked, before it is matched to a group's players."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy

from companion.games import base
from companion.games import names as name_rules
from companion.history.history_file import ImportRefused

NAME_MAX = 40  # a player's name (tables.services.NAME_MAX, which engines do not import)
GAME_NAME_MAX = 80  # the pad's game name (AG-1)
PLACE_MAX = 80  # Table.place
ROLE_MAX = 40  # AG-10
SEATS_MAX = 20  # the pad's players (AG-1)
SOURCES = ("bgstats", "bgg")


@dataclass
class SeatResult:
    name: str
    score: int | None
    won: bool
    team: str = ""  # players with the same text are one team
    role: str = ""


@dataclass
class PlayRecord:
    source: str  # "bgstats" or "bgg"
    origin_id: str  # the file's own id of the play: importing it again finds it
    where: str  # how a message names it: "Play 3 (Catan, 2024-05-01)"
    game_name: str
    bgg_id: int
    played_at: dt.datetime  # naive: the time of day where it was played
    outcome: str  # "points", "win_loss" or "coop" (AG-7)
    highest_wins: bool
    seats: list[SeatResult]
    minutes: int | None = None
    place: str = ""
    comments: str = ""
    expansions: list[str] = field(default_factory=list)

    def teams(self) -> list[list[int]]:
        """The seats grouped by their team's text, in the order teams first appear (AG-8)."""
        grouped: dict[str, list[int]] = {}
        for seat, result in enumerate(self.seats):
            if result.team:
                grouped.setdefault(result.team.casefold(), []).append(seat)
        teams = list(grouped.values())
        every_seat = sum(len(team) for team in teams) == len(self.seats)
        return teams if len(teams) >= 2 and every_seat and self.outcome != "coop" else []

    def roles(self) -> dict[str, str]:
        return {str(seat): result.role for seat, result in enumerate(self.seats) if result.role}


@dataclass
class Reading:
    """A file read: its plays and what was left out or changed, as sentences."""

    plays: list[PlayRecord]
    warnings: list[str]


def typed_name(raw, where: str, what: str, longest: int) -> str:
    """A text from a file checked as a name a person typed in the app (games/names.py)."""
    if not isinstance(raw, str):
        raise ImportRefused(_("{where}: {what} must be a text.").format(where=where, what=what))
    name = name_rules.tidy(raw)
    if (char := name_rules.hidden(name)) is not None:
        message = _("{where}: {what} holds a character nobody sees or that turns the text around ({char}).")
        raise ImportRefused(message.format(where=where, what=what, char=char))
    if not name:
        raise ImportRefused(_("{where}: {what} is empty.").format(where=where, what=what))
    if len(name) > longest:
        message = _("{where}: {what} has more than {count} characters ({start}…).")
        raise ImportRefused(message.format(where=where, what=what, count=longest, start=name[:longest]))
    return name


def loose_text(raw, longest: int | None = None) -> str:
    """A text the import does not need (a place, comments): tidy, hidden characters dropped, cut
    to `longest`. Never refuses a file."""
    if not isinstance(raw, str):
        return ""
    kept = "".join(char for char in raw if name_rules.hidden(char) is None or char in "\n\t")
    text = kept.strip() if longest is None else name_rules.tidy(kept)
    return text[:longest] if longest else text


def score_of(raw) -> tuple[int | None, bool]:
    """A file's score as a whole number, or None when it is no number ("", "49-46ish"); and
    whether a decimal was rounded to get it (scores here are whole numbers)."""
    if isinstance(raw, bool) or raw is None:
        return None, False
    if isinstance(raw, int):  # past an integer column's range on either database: no number either
        return (raw, False) if abs(raw) <= base.WHOLE_MAX else (None, False)
    text = str(raw).strip().replace(",", ".") if isinstance(raw, (str, float)) else ""
    try:
        value = float(text)
    except ValueError:
        return None, False
    if value != value or value in (float("inf"), float("-inf")) or abs(value) > base.WHOLE_MAX:
        return None, False
    whole = int(value + 0.5) if value >= 0 else -int(-value + 0.5)
    return whole, whole != value


# What a reader leaves out or changes, counted by kind and said once each in the import's summary.
LEFT_OUT = {
    "ignored": ngettext_lazy(
        "{count} play marked to leave out of statistics in BG Stats was left out.",
        "{count} plays marked to leave out of statistics in BG Stats were left out.",
        "count",
    ),
    "incomplete": ngettext_lazy(
        "{count} play marked incomplete was left out.",
        "{count} plays marked incomplete were left out.",
        "count",
    ),
    "empty": ngettext_lazy(
        "{count} play without players was left out.", "{count} plays without players were left out.", "count"
    ),
    "crowded": ngettext_lazy(
        "{count} play of more than 20 players was left out.",
        "{count} plays of more than 20 players were left out.",
        "count",
    ),
    "rounded": ngettext_lazy(
        "{count} score with decimals was rounded to a whole number.",
        "{count} scores with decimals were rounded to whole numbers.",
        "count",
    ),
}


def left_out_sentences(counts: dict[str, int]) -> list[str]:
    return [
        str(LEFT_OUT[kind] % {"count": count}).format(count=count) for kind, count in counts.items() if count
    ]
