"""BG Stats' export or backup (`BGStatsExport.json`), or one shared play (`.bgsplay`), read as
shared/HISTORY_FORMATS.md describes them: leniently, refusing a file only for what the import needs
(a play's game and players, its date, the names) and saying what it left out.

Dates are the time of day where the play was played (BG Stats keeps them so)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from django.utils.translation import gettext as _

from companion.games import base
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

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
ANONYMOUS = "Anonymous"


def parse(raw: bytes) -> dict:
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ImportRefused(_("The file is not UTF-8 text.")) from error
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
    plays, warnings, left_out = [], [], {"ignored": 0, "empty": 0, "crowded": 0, "rounded": 0}
    for number, play in enumerate(data["plays"], 1):
        record = _play(play, number, games, players, locations, left_out)
        if record is not None:
            plays.append(record)
    warnings += left_out_sentences(left_out)
    return Reading(plays, warnings)


def _by_id(items) -> dict:
    if not isinstance(items, list):
        return {}
    return {item["id"]: item for item in items if isinstance(item, dict) and "id" in item}


def _play(
    play, number: int, games: dict, players: dict, locations: dict, left_out: dict
) -> PlayRecord | None:
    if not isinstance(play, dict):
        raise ImportRefused(_("Play {number}: it is not an object.").format(number=number))
    game = games.get(play.get("gameRefId"))
    if game is None:
        message = _("Play {number}: its game (id {id}) is not among the file's games.")
        raise ImportRefused(message.format(number=number, id=play.get("gameRefId")))
    short = _("Play {number}").format(number=number)
    name = typed_name(game.get("name"), short, _("the game's name"), GAME_NAME_MAX)
    played_at = _date(play.get("playDate"), short)
    where = _("Play {number} ({game}, {date})").format(
        number=number, game=name, date=played_at.date().isoformat()
    )
    if play.get("ignored") is True:  # left out of statistics in BG Stats: left out here
        left_out["ignored"] += 1
        return None
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not scores:
        left_out["empty"] += 1
        return None
    if len(scores) > SEATS_MAX:
        left_out["crowded"] += 1
        return None
    seats = _seats(scores, where, players, left_out)
    return PlayRecord(
        source="bgstats",
        origin_id=_origin(play),
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
        minutes=_whole(play.get("durationMin")) or None,
        place=loose_text((locations.get(play.get("locationRefId")) or {}).get("name"), PLACE_MAX),
        comments=loose_text(play.get("comments")),
        expansions=_expansions(play.get("expansionPlays"), games),
    )


def _seats(scores: list, where: str, players: dict, left_out: dict) -> list[SeatResult]:
    ordered = sorted(
        (score for score in scores if isinstance(score, dict)),
        key=lambda score: (
            _whole(score.get("seatOrder")) or 10**6
        ),  # sorted() keeps the file's order otherwise
    )
    seats, anonymous = [], 0
    for score in ordered:
        player = players.get(score.get("playerRefId"))
        if player is None:
            message = _("{where}: a player (id {id}) is not among the file's players.")
            raise ImportRefused(message.format(where=where, id=score.get("playerRefId")))
        if player.get("isAnonymous") is True:
            anonymous += 1
            name = ANONYMOUS if anonymous == 1 else f"{ANONYMOUS} {anonymous}"
        else:
            name = typed_name(player.get("name"), where, _("a player's name"), NAME_MAX)
        points, rounded = score_of(score.get("score"))
        left_out["rounded"] += rounded
        seats.append(
            SeatResult(
                name=name,
                score=points,
                won=score.get("winner") is True,
                team=loose_text(score.get("team"), ROLE_MAX),
                role=loose_text(score.get("role"), ROLE_MAX),
            )
        )
    folded = [seat.name.casefold() for seat in seats]
    twice = next((seat.name for seat in seats if folded.count(seat.name.casefold()) > 1), None)
    if twice is not None:
        message = _("{where}: {name} sits at the table twice.")
        raise ImportRefused(message.format(where=where, name=twice))
    return seats


def _date(raw, where: str) -> dt.datetime:
    try:
        return dt.datetime.strptime(str(raw), DATE_FORMAT)
    except ValueError:
        message = _("{where}: its date {date} is not a date and time like 2024-05-01 20:15:00.")
        raise ImportRefused(message.format(where=where, date=json.dumps(raw)[:40])) from None


def _origin(play: dict) -> str:
    """BG Stats' uuid, the same from one export to the next; a play without one (hand-made
    files) gets one from what it holds, so that importing it again still finds it."""
    uuid = play.get("uuid")
    if isinstance(uuid, str) and 0 < len(uuid) <= 64 and uuid.isprintable():
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
        game = games.get(item.get("gameRefId")) if isinstance(item, dict) else None
        name = loose_text((game or {}).get("name"), GAME_NAME_MAX)
        if name and name.casefold() not in {known.casefold() for known in names}:
            names.append(name)
    return names[:20]
