"""BoardGameGeek's plays XML (`<plays><play ...>`), read as shared/HISTORY_FORMATS.md describes it,
with defusedxml: no entity expansion, no external entities, no DTD, so a file cannot make the
server read a file of its own or grow a few bytes into gigabytes.

Leniently (issue 42): a play with a field the history cannot keep is kept without it, or left out
when it cannot be a play without it, each with a warning naming it. People are who BGG says they
are (their user id, their username), not their names; "Anonymous player" is a guest.

A play has a date but no time of day: it is kept as such (PlayRecord.timed false) at noon, so that
its day stays the same in any time zone. `quantity` > 1 is that many plays; an incomplete play is
left out; a play whose wins do not count (`nowinstats`) is kept with no winner."""

from __future__ import annotations

import datetime as dt

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException
from django.utils.translation import gettext as _

from companion.history.history_file import ImportRefused

from . import origin, sniff
from .records import (
    GAME_NAME_MAX,
    NAME_MAX,
    PLACE_MAX,
    ROLE_MAX,
    SEATS_MAX,
    Person,
    PlayProblem,
    PlayRecord,
    Reading,
    SeatResult,
    Warnings,
    guest,
    label_people,
    left_out_sentences,
    loose_text,
    read_name,
    score_of,
)

QUANTITY_MAX = 100  # a play logged as played more often than this is a typing mistake
NOON = dt.time(12, 0)
ANONYMOUS = "Anonymous player"
WHOLE_DIGITS = 9


def read(raw: bytes) -> Reading:
    start = raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start in (b"{", b"["):
        raise ImportRefused(sniff.json_not_xml())
    if sniff.is_web_page(raw[:400].decode("utf-8", "replace")):
        raise ImportRefused(sniff.web_page())
    try:
        root = ElementTree.fromstring(raw, forbid_dtd=True)
    except DefusedXmlException as error:
        raise ImportRefused(
            _("The file declares entities or a DTD, which a plays file never needs.")
        ) from error
    except ElementTree.ParseError as error:
        raise ImportRefused(_("The file is not valid XML: {error}.").format(error=error)) from error
    if root.tag == "html":
        raise ImportRefused(sniff.web_page())
    if root.tag != "plays":
        raise ImportRefused(_("This is not a BoardGameGeek plays file: it does not start with <plays>."))
    plays, warnings, people = [], Warnings(), {}
    left_out = {"incomplete": 0, "empty": 0, "crowded": 0, "rounded": 0}
    for number, element in enumerate(root.iter("play"), 1):
        try:
            plays += _plays(element, number, people, left_out, warnings)
        except PlayProblem as problem:
            warnings.add(problem.message)
    for record in plays:
        for key in {seat.person for seat in record.seats}:
            people[key].plays += 1
    label_people(people)
    return Reading(plays, [*left_out_sentences(left_out), *warnings.sentences()], people)


def _plays(element, number: int, people: dict, left_out: dict, warnings: Warnings) -> list[PlayRecord]:
    play_id = (element.get("id") or "").strip()
    short = _("Play {number}").format(number=number)
    if not (play_id.isascii() and play_id.isdigit() and len(play_id) <= 12):
        message = _("{where}: its id {id} is not BoardGameGeek's number of a play: left out.")
        raise PlayProblem(message.format(where=short, id=repr(play_id)[:40]))
    item = element.find("item")
    if item is None:
        raise PlayProblem(_("{where}: it names no game (<item>): left out.").format(where=short))
    game = read_name(item.get("name"), short, _("the game's name"), GAME_NAME_MAX, warnings)
    day = _day(element.get("date"), short)
    where = _("Play {number} ({game}, {date})").format(number=number, game=game, date=day.isoformat())
    sniff.check_day(day, where)
    if element.get("incomplete") == "1":
        left_out["incomplete"] += 1
        return []
    rows = [] if (listed := element.find("players")) is None else list(listed.iter("player"))
    if not rows:
        left_out["empty"] += 1
        return []
    if len(rows) > SEATS_MAX:
        left_out["crowded"] += 1
        return []
    seats, kept = _seats(rows, where, people, element.get("nowinstats") != "1", left_out, warnings)
    scored = any(seat.score is not None for seat in seats)
    comments = element.find("comments")
    facts = dict(
        source="bgg",
        where=where,
        game_name=game,
        bgg_id=_whole(item.get("objectid")),
        played_at=dt.datetime.combine(day, NOON),
        outcome="points" if scored else "win_loss",
        highest_wins=True,
        seats=seats,
        minutes=_minutes(element.get("length"), where, warnings),
        place=loose_text(element.get("location"), PLACE_MAX),
        comments=loose_text(comments.text if comments is not None else ""),
        bgg_play_id=int(play_id),
        timed=False,
        origin=origin.bgg_play(
            dict(element.attrib), dict(item.attrib), kept, comments.text if comments is not None else None
        ),
    )
    quantity = _quantity(element.get("quantity"), where, warnings)
    # The copies of a play logged more than once share its BGG id: only the first carries it.
    return [
        PlayRecord(
            origin_id=play_id if copy == 1 else f"{play_id}#{copy}",
            **{**facts, "bgg_play_id": facts["bgg_play_id"] if copy == 1 else None},
        )
        for copy in range(1, quantity + 1)
    ]


def _seats(rows: list, where: str, people: dict, counting: bool, left_out: dict, warnings: Warnings):
    seats, kept, guests = [], [], 0
    ordered = sorted(rows, key=lambda row: _whole(row.get("startposition")) or 10**6)
    for position, row in enumerate(ordered):
        person = _person(row, people, where, warnings)
        if person is None:
            guests += 1
            person = guest(people, guests)
        points, rounded = score_of(row.get("score"))
        left_out["rounded"] += rounded
        role = loose_text(row.get("color"), ROLE_MAX)
        seats.append(
            SeatResult(
                name=person.name,
                score=points,
                won=counting and row.get("win") == "1",
                role=role,
                person=person.key,
            )
        )
        kept.append({**row.attrib, origin.SEAT: position, origin.PERSON: person.key})
    keys = [seat.person for seat in seats]
    twice = next((seat for seat in seats if keys.count(seat.person) > 1), None)
    if twice is not None:
        message = _("{where}: {name} sits at the table twice: left out.")
        raise PlayProblem(message.format(where=where, name=twice.name))
    return seats, kept


def _person(row, people: dict, where: str, warnings: Warnings) -> Person | None:
    """Who a <player> is: by their BGG user id, else their username, else their name; None for a
    guest (no name, or BGG's "Anonymous player")."""
    username = loose_text(row.get("username"), NAME_MAX)
    userid = _whole(row.get("userid"))
    raw_name = (row.get("name") or "").strip() or username
    if not raw_name or raw_name.casefold() == ANONYMOUS.casefold():
        return None
    name = read_name(raw_name, where, _("a player's name"), NAME_MAX, warnings)
    identities = [f"bgg-user:{userid}"] if userid else []
    identities += [f"bgg-name:{username.casefold()}"] if username else []
    key = identities[0] if identities else f"name:{name.casefold()}"
    if key not in people:
        data = {"bggUsername": username, "bggUserId": userid} if identities else None
        people[key] = Person(key=key, name=name, identities=identities, username=username, data=data)
    return people[key]


def _day(raw, where: str) -> dt.date:
    try:
        day = dt.date.fromisoformat((raw or "").strip())
    except ValueError:
        message = _("{where}: its date {date} is not a date like 2024-05-01: left out.")
        raise PlayProblem(message.format(where=where, date=repr(raw)[:40])) from None
    return day


def _quantity(raw, where: str, warnings: Warnings) -> int:
    text = (raw or "").strip()
    if not text or text in ("0", "1"):
        return 1
    if text.isascii() and text.isdigit() and int(text) <= QUANTITY_MAX:
        return int(text)
    message = _("{where}: it says it was played {quantity} times, which cannot be right; it is kept once.")
    warnings.add(message.format(where=where, quantity=text[:20]))
    return 1


def _minutes(raw, where: str, warnings: Warnings) -> int | None:
    text = (raw or "").strip()
    if text.startswith("-") and text[1:].isdigit():
        message = _("{where}: its length {minutes} minutes is below zero; it is kept without a length.")
        warnings.add(message.format(where=where, minutes=text[:20]))
        return None
    return _whole(text) or None


def _whole(raw) -> int:
    text = (raw or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= WHOLE_DIGITS else 0
