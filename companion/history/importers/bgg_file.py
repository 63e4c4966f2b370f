"""BoardGameGeek's plays XML (`<plays><play ...>`), read as shared/HISTORY_FORMATS.md describes it,
with defusedxml: no entity expansion, no external entities, no DTD, so a file cannot make the
server read a file of its own or grow a few bytes into gigabytes.

A play has a date but no time of day: it is kept at noon, so that the day stays the same in any
time zone. `quantity` > 1 is that many plays; an incomplete play is left out; a play whose wins do
not count (`nowinstats`) is kept with no winner."""

from __future__ import annotations

import datetime as dt

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException
from django.utils.translation import gettext as _

from companion.history.history_file import ImportRefused

from .records import (
    GAME_NAME_MAX,
    NAME_MAX,
    PLACE_MAX,
    ROLE_MAX,
    SEATS_MAX,
    PlayRecord,
    Reading,
    SeatResult,
    left_out_sentences,
    loose_text,
    score_of,
    typed_name,
)

QUANTITY_MAX = 100  # a play logged as played more often than this is a typing mistake
NOON = dt.time(12, 0)
ANONYMOUS = "Anonymous player"


def read(raw: bytes) -> Reading:
    try:
        root = ElementTree.fromstring(raw, forbid_dtd=True)
    except DefusedXmlException as error:
        raise ImportRefused(
            _("The file declares entities or a DTD, which a plays file never needs.")
        ) from error
    except ElementTree.ParseError as error:
        raise ImportRefused(_("The file is not valid XML: {error}.").format(error=error)) from error
    if root.tag != "plays":
        raise ImportRefused(_("This is not a BoardGameGeek plays file: it does not start with <plays>."))
    plays, left_out = [], {"incomplete": 0, "empty": 0, "crowded": 0, "rounded": 0}
    for number, element in enumerate(root.iter("play"), 1):
        plays += _plays(element, number, left_out)
    return Reading(plays, left_out_sentences(left_out))


def _plays(element, number: int, left_out: dict) -> list[PlayRecord]:
    play_id = (element.get("id") or "").strip()
    short = _("Play {number}").format(number=number)
    if not play_id.isdigit():
        message = _("{where}: its id {id} is not BoardGameGeek's number of a play.")
        raise ImportRefused(message.format(where=short, id=repr(play_id)[:40]))
    item = element.find("item")
    if item is None:
        raise ImportRefused(_("{where}: it names no game (<item>).").format(where=short))
    game = typed_name(item.get("name"), short, _("the game's name"), GAME_NAME_MAX)
    day = _day(element.get("date"), short)
    where = _("Play {number} ({game}, {date})").format(number=number, game=game, date=day.isoformat())
    if element.get("incomplete") == "1":
        left_out["incomplete"] += 1
        return []
    people = element.find("players")
    rows = [] if people is None else list(people.iter("player"))
    if not rows:
        left_out["empty"] += 1
        return []
    if len(rows) > SEATS_MAX:
        left_out["crowded"] += 1
        return []
    seats = _seats(rows, where, counting=element.get("nowinstats") != "1", left_out=left_out)
    scored = any(seat.score is not None for seat in seats)
    quantity = min(max(_whole(element.get("quantity")), 1), QUANTITY_MAX)
    comments = element.find("comments")
    return [
        PlayRecord(
            source="bgg",
            origin_id=play_id if copy == 1 else f"{play_id}#{copy}",
            where=where,
            game_name=game,
            bgg_id=_whole(item.get("objectid")),
            played_at=dt.datetime.combine(day, NOON),
            outcome="points" if scored else "win_loss",
            highest_wins=True,
            seats=seats,
            minutes=_whole(element.get("length")) or None,
            place=loose_text(element.get("location"), PLACE_MAX),
            comments=loose_text(comments.text if comments is not None else ""),
        )
        for copy in range(1, quantity + 1)
    ]


def _seats(rows: list, where: str, counting: bool, left_out: dict) -> list[SeatResult]:
    seats, anonymous = [], 0
    for row in sorted(rows, key=lambda row: _whole(row.get("startposition")) or 10**6):
        raw_name = (row.get("name") or "").strip() or (row.get("username") or "").strip()
        if not raw_name or raw_name.casefold() == ANONYMOUS.casefold():
            anonymous += 1
            name = ANONYMOUS if anonymous == 1 else f"{ANONYMOUS} {anonymous}"
        else:
            name = typed_name(raw_name, where, _("a player's name"), NAME_MAX)
        points, rounded = score_of(row.get("score"))
        left_out["rounded"] += rounded
        role = loose_text(row.get("color"), ROLE_MAX)
        seats.append(SeatResult(name=name, score=points, won=counting and row.get("win") == "1", role=role))
    folded = [seat.name.casefold() for seat in seats]
    twice = next((seat.name for seat in seats if folded.count(seat.name.casefold()) > 1), None)
    if twice is not None:
        raise ImportRefused(_("{where}: {name} sits at the table twice.").format(where=where, name=twice))
    return seats


def _day(raw, where: str) -> dt.date:
    try:
        return dt.date.fromisoformat((raw or "").strip())
    except ValueError:
        message = _("{where}: its date {date} is not a date like 2024-05-01.")
        raise ImportRefused(message.format(where=where, date=repr(raw)[:40])) from None


def _whole(raw) -> int:
    text = (raw or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else 0
