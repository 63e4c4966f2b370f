"""BG Stats' export or backup (`BGStatsExport.json`), or one shared play (`.bgsplay`), read as
shared/HISTORY_FORMATS.md describes them: leniently. A file is refused only when it is no BG Stats
file at all; a play with a field the history cannot keep is kept without it, or left out when it
cannot be a play without it, each with a warning naming the play (issue 42).

People are who the file says they are (their uuid), not their names: two Alexes stay two. A play
keeps what the history has no column for (origin.py), for the export to give back.

Dates are the time of day where the play was played (BG Stats keeps them so)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from django.utils.translation import gettext as _

from companion.games import base
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

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
UUID_MAX = 64


def parse(raw: bytes) -> dict:
    text = sniff.text_of(raw)
    if text.lstrip()[:1] == "<":
        raise ImportRefused(sniff.xml_not_json(text))
    try:
        data = json.loads(text)
    except RecursionError as error:
        raise ImportRefused(_("The file is nested too deeply to be a BG Stats file.")) from error
    except ValueError as error:
        raise ImportRefused(_("The file is not valid JSON: {error}.").format(error=error)) from error
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        raise ImportRefused(_("This is not a BG Stats export: it has no list of plays."))
    return data


def read(raw: bytes) -> Reading:
    data = parse(raw)
    games, players = _by_id(data.get("games")), _by_id(data.get("players"))
    locations = _by_id(data.get("locations"))
    plays, warnings, people = [], Warnings(), {}
    left_out = {"empty": 0, "crowded": 0, "rounded": 0, "set_aside": 0}
    for number, play in enumerate(data["plays"], 1):
        try:
            record = _play(play, number, games, players, locations, people, left_out, warnings)
        except PlayProblem as problem:
            warnings.add(problem.message)
            continue
        if record is not None:
            plays.append(record)
    for record in plays:
        for seat in {seat.person for seat in record.seats} if not record.set_aside else ():
            people[seat].plays += 1
    label_people(people)
    things = {
        "game": {_key(game): origin.without_id(game) for game in games.values()},
        "location": {_key(place): origin.without_id(place) for place in locations.values()},
        "user": _user(data.get("userInfo"), players),
        "anonymous": {
            _key(player): origin.without_id(player)
            for player in players.values()
            if player.get("isAnonymous") is True
        },
    }
    return Reading(plays, [*left_out_sentences(left_out), *warnings.sentences()], people, things)


def _by_id(items) -> dict:
    if not isinstance(items, list):
        return {}
    return {
        item["id"]: item
        for item in items
        if isinstance(item, dict)
        and (
            isinstance(item.get("id"), int)
            or (isinstance(item.get("id"), str) and len(item["id"]) <= UUID_MAX)
        )
        and not isinstance(item["id"], bool)
    }


def _key(item: dict) -> str:
    """How the history remembers a game, place or person of the file: its uuid, which stays the
    same from one export to the next; the file's id when it has none (a hand-made file)."""
    uuid = item.get("uuid")
    if isinstance(uuid, str) and 0 < len(uuid) <= UUID_MAX and uuid.isprintable():
        return uuid
    return f"id:{item.get('id')}"


def _play(play, number, games, players, locations, people, left_out, warnings) -> PlayRecord | None:
    short = _("Play {number}").format(number=number)
    if not isinstance(play, dict):
        raise PlayProblem(_("{where}: it is not a play: left out.").format(where=short))
    game = origin.lookup(games, play.get("gameRefId"))
    if game is None:
        message = _("{where}: its game (id {id}) is not among the file's games: left out.")
        raise PlayProblem(message.format(where=short, id=json.dumps(play.get("gameRefId"))[:40]))
    name = read_name(game.get("name"), short, _("the game's name"), GAME_NAME_MAX, warnings)
    played_at = _date(play.get("playDate"), short)
    where = _("Play {number} ({game}, {date})").format(
        number=number, game=name, date=played_at.date().isoformat()
    )
    sniff.check_day(played_at.date(), where)
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not scores:
        left_out["empty"] += 1
        return None
    if len(scores) > SEATS_MAX:
        left_out["crowded"] += 1
        return None
    seats, kept_scores = _seats(scores, where, players, people, left_out, warnings)
    set_aside = play.get("ignored") is True
    left_out["set_aside"] += set_aside
    kept = origin.bgstats_play(play, kept_scores, games, locations, _key)
    return PlayRecord(
        source="bgstats",
        origin_id=_origin_id(play),
        where=where,
        game_name=name,
        bgg_id=_whole(game.get("bggId")),
        played_at=played_at,
        outcome="coop"
        if game.get("cooperative") is True
        else "win_loss"
        if game.get("noPoints") is True
        else "points",
        highest_wins=game.get("highestWins") is not False,
        seats=seats,
        minutes=_minutes(play.get("durationMin"), where, warnings),
        place=loose_text((origin.lookup(locations, play.get("locationRefId")) or {}).get("name"), PLACE_MAX),
        comments=loose_text(play.get("comments")),
        expansions=_expansions(play.get("expansionPlays"), games),
        bgg_play_id=_whole(play.get("bggId")) or None,
        origin={"bgstats": kept},
        set_aside=set_aside,
    )


def _seats(scores: list, where: str, players: dict, people: dict, left_out: dict, warnings: Warnings):
    """The play's seats in seat order, and its player scores, each told which seat it is."""
    ordered = sorted(
        (score for score in scores if isinstance(score, dict)),
        key=lambda score: (
            _whole(score.get("seatOrder")) or 10**6
        ),  # sorted() keeps the file's order otherwise
    )
    seats, kept, guests = [], [], 0
    for position, score in enumerate(ordered):
        player = origin.lookup(players, score.get("playerRefId"))
        if player is None:
            message = _("{where}: a player (id {id}) is not among the file's players: left out.")
            raise PlayProblem(message.format(where=where, id=json.dumps(score.get("playerRefId"))[:40]))
        if player.get("isAnonymous") is True:
            guests += 1
            person = guest(people, guests)
        else:
            person = _person(player, people, where, warnings)
        points, rounded = score_of(score.get("score"))
        left_out["rounded"] += rounded
        seats.append(
            SeatResult(
                name=person.name,
                score=points,
                won=score.get("winner") is True,
                team=loose_text(score.get("team"), ROLE_MAX),
                role=loose_text(score.get("role"), ROLE_MAX),
                person=person.key,
            )
        )
        kept.append({**score, "playerRefId": person.key, origin.SEAT: position})
    keys = [seat.person for seat in seats]
    twice = next((seat for seat in seats if keys.count(seat.person) > 1), None)
    if twice is not None:
        message = _("{where}: {name} sits at the table twice: left out.")
        raise PlayProblem(message.format(where=where, name=twice.name))
    return seats, kept


def _person(player: dict, people: dict, where: str, warnings: Warnings) -> Person:
    key = _key(player)
    if key not in people:
        name = read_name(player.get("name"), where, _("a player's name"), NAME_MAX, warnings)
        username = loose_text(player.get("bggUsername"), NAME_MAX)
        identities = [] if key.startswith("id:") else [f"bgstats:{key}"]
        identities += [f"bgg-name:{username.casefold()}"] if username else []
        people[key] = Person(
            key=key, name=name, identities=identities, username=username, data=origin.without_id(player)
        )
    return people[key]


def _user(info, players: dict) -> dict:
    """Whose BG Stats it is (`userInfo`): their player by uuid, and their BGG username."""
    if not isinstance(info, dict):
        return {}
    me = origin.lookup(players, info.get("meRefId"))
    return {"me": _key(me) if me else "", "bggUsername": loose_text(info.get("bggUsername"), NAME_MAX)}


def _date(raw, where: str) -> dt.datetime:
    try:
        moment = dt.datetime.strptime(str(raw), DATE_FORMAT)
    except ValueError:
        message = _("{where}: its date {date} is not a date and time like 2024-05-01 20:15:00: left out.")
        raise PlayProblem(message.format(where=where, date=json.dumps(raw)[:40])) from None
    return moment


def _minutes(raw, where: str, warnings: Warnings) -> int | None:
    if isinstance(raw, int) and not isinstance(raw, bool) and raw < 0:
        message = _("{where}: its length {minutes} minutes is below zero; it is kept without a length.")
        warnings.add(message.format(where=where, minutes=raw))
        return None
    return _whole(raw) or None


def _origin_id(play: dict) -> str:
    """BG Stats' uuid, the same from one export to the next; a play without one (hand-made
    files) gets one from what it holds, so that importing it again still finds it."""
    uuid = play.get("uuid")
    if isinstance(uuid, str) and 0 < len(uuid) <= UUID_MAX and uuid.isprintable():
        return uuid
    facts = json.dumps(
        [play.get(key) for key in ("playDate", "gameRefId", "playerScores", "durationMin")], sort_keys=True
    )
    return "sha1:" + hashlib.sha1(facts.encode()).hexdigest()


def _whole(raw) -> int:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= base.WHOLE_MAX else 0


def _expansions(raw, games: dict) -> list[str]:
    names = []
    for item in raw if isinstance(raw, list) else []:
        game = origin.lookup(games, item.get("gameRefId")) if isinstance(item, dict) else None
        name = loose_text((game or {}).get("name"), GAME_NAME_MAX)
        if name and name.casefold() not in {known.casefold() for known in names}:
            names.append(name)
    return names[:20]
