"""A play as a file tells it, read and checked, before it is matched to a group's players."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy

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
class Person:
    """Someone a file names, once however many plays they sat at (issue 42: people by who they are,
    not by their name)."""

    key: str  # the file's own key for them: their first identity key, else "name:<name>"
    name: str
    identities: list[str] = field(default_factory=list)  # kept per group: found again by a later import
    username: str = ""  # a BoardGameGeek username: tells two people of one name apart
    guest: bool = False  # BG Stats' anonymous player, BGG's "Anonymous player"
    data: dict | None = None  # BG Stats' player object, given back by the export
    plays: int = 0  # how many of the file's plays they sat at
    label: str = ""  # how the preview and the API's `names` call them: unique in the file


@dataclass
class SeatResult:
    name: str
    score: int | None
    won: bool
    team: str = ""  # players with the same text are one team
    role: str = ""
    person: str = ""  # Person.key; the name's own key when empty


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
    bgg_play_id: int | None = None  # BGG's id of the play: the same play from either app
    timed: bool = True  # False when the file gives a day without a time of day (BGG)
    origin: dict | None = None  # what the file said beyond the columns (origin.py), for the export
    set_aside: bool = False  # BG Stats' `ignored`: kept, out of every figure

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
    """A file read: its plays, its people, and what was left out or changed, as sentences."""

    plays: list[PlayRecord]
    warnings: list[str]
    people: dict[str, Person] = field(default_factory=dict)
    # BG Stats' games and locations by uuid ({"game": {uuid: object}, "location": ...}), and its
    # userInfo: the export gives them back.
    things: dict[str, dict] = field(default_factory=dict)


class PlayProblem(Exception):
    """One play that cannot be kept as it is: left out, with a warning naming it and why (issue
    42: a file is refused only when it is not a history file at all)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Warnings:
    """What a reader says about single plays, each named, up to SAID_MAX; then a count."""

    SAID_MAX = 30

    def __init__(self):
        self.said: list[str] = []
        self.more = 0

    def add(self, sentence: str) -> None:
        if len(self.said) < self.SAID_MAX:
            self.said.append(sentence)
        else:
            self.more += 1

    def sentences(self) -> list[str]:
        if not self.more:
            return self.said
        more = ngettext("… and {count} more like these.", "… and {count} more like these.", self.more)
        return [*self.said, more.format(count=self.more)]


def guest(people: dict[str, Person], number: int) -> Person:
    """The `number`th guest of a play (BG Stats' anonymous player, BGG's "Anonymous player"): each
    guest seat of a play is a guest of its own, "Guest", "Guest 2"... across the file."""
    key = f"guest:{number}"
    word = _("Guest")
    return people.setdefault(
        key, Person(key=key, name=word if number == 1 else f"{word} {number}", guest=True)
    )


def label_people(people: dict[str, Person]) -> None:
    """Give each person a label unique in the file: their name, and when two people share it,
    the name with their BGG username ("Alex (alex_k)") or a number ("Alex 2")."""
    by_name: dict[str, list[Person]] = {}
    for person in people.values():
        by_name.setdefault(person.name.casefold(), []).append(person)
    taken = {name for name, alike in by_name.items() if len(alike) == 1}
    for alike in by_name.values():
        if len(alike) == 1:
            alike[0].label = alike[0].name
            continue
        # The one who played most keeps the plain name (guests share theirs: "Anonymous 2" is apart).
        ordered = sorted(alike, key=lambda person: -person.plays)
        ordered[0].label = ordered[0].name
        taken.add(ordered[0].name.casefold())
        for number, person in enumerate(ordered[1:], 2):
            wanted = f"{person.name} ({person.username})" if person.username else f"{person.name} {number}"
            person.label = free_name(wanted, taken)
            taken.add(person.label.casefold())


def free_name(wanted: str, taken: set[str]) -> str:
    """`wanted`, or with a number after it, cut to a name's length, that nobody in `taken` has."""
    name, number = wanted[:NAME_MAX], 2
    while name.casefold() in taken:
        suffix = f" {number}"
        name, number = wanted[: NAME_MAX - len(suffix)] + suffix, number + 1
    return name


def read_name(raw, where: str, what: str, longest: int, warnings: Warnings) -> str:
    """A name from a file as a person types it in the app: tidy, without characters nobody sees,
    cut to `longest` (each change a warning naming the play); PlayProblem when nothing is left."""
    if not isinstance(raw, str):
        raise PlayProblem(_("{where}: {what} is not a text: left out.").format(where=where, what=what))
    name = name_rules.tidy(raw)
    if name_rules.hidden(name) is not None:
        name = name_rules.tidy("".join(char for char in name if name_rules.hidden(char) is None))
        message = _("{where}: {what} held characters nobody sees; they were dropped.")
        warnings.add(message.format(where=where, what=what))
    if not name:
        raise PlayProblem(_("{where}: {what} is empty: left out.").format(where=where, what=what))
    if len(name) > longest:
        message = _("{where}: {what} has more than {count} characters; it was cut to “{name}”.")
        name = name[:longest].rstrip()
        warnings.add(message.format(where=where, what=what, count=longest, name=name))
    return name


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
        "{count} score with decimals counts as a whole number in figures (exported as written).",
        "{count} scores with decimals count as whole numbers in figures (exported as written).",
        "count",
    ),
    "set_aside": ngettext_lazy(
        "{count} play BG Stats leaves out of statistics is kept, out of every figure here too.",
        "{count} plays BG Stats leaves out of statistics are kept, out of every figure here too.",
        "count",
    ),
}


def left_out_sentences(counts: dict[str, int]) -> list[str]:
    return [
        str(LEFT_OUT[kind] % {"count": count}).format(count=count) for kind, count in counts.items() if count
    ]
