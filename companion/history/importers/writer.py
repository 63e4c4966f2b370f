"""A file's plays into a group: each person matched to one of the group's players or made a new
one (people_match.py), each play kept as a finished score pad of its game with the file's result,
in one transaction: all of the file's new plays or none.

Each play once (issue 42): a play the group already has is skipped: the same BG Stats uuid or BGG
play id, or the same BGG play from the other app (a BG Stats play's `bggId` is the BGG play's
`id`), which lends the play it finds what it lacked (who the BGG users are, BG Stats' time of
day). A play that looks like one the group has (its game, day, people and scores) without a
shared id is "probably here already": skipped unless the member keeps it.

Times as played: a file's times carry no zone; they are read in the zone the member chose (the
group's by default) and stored as instants."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.games import base, registry
from companion.games.any_game import outcomes
from companion.groups.access import group_zone
from companion.groups.models import Group
from companion.history import bgstats_export
from companion.history.history_file import FIRST_DAY, LAST_DAY, ImportRefused, in_calendar
from companion.history.models import SetAsidePlay, ThingOrigin
from companion.sheets import library
from companion.tables.models import Player, Seat, Table, new_table_id

from . import people_match
from .records import PlayProblem, PlayRecord, Reading, Warnings

PAD = "any-game"
BATCH = 500  # rows a bulk insert writes at once
TIMES_SHOWN = 3  # plays whose times the preview shows, so that a wrong zone is seen
PROBABLE_SHOWN = 50  # plays "probably here already" the answer lists by name


@dataclass
class Plan:
    """What an import does, said before it writes (the preview, a dry run) and done by write()."""

    group: Group
    zone: ZoneInfo
    reading: Reading
    new_plays: list[PlayRecord]
    set_aside: list[PlayRecord]
    skipped: int
    people: dict[str, dict]  # a person's key -> people_match's entry
    warnings: list[str]
    same_play: list[tuple[PlayRecord, str]] = field(default_factory=list)  # (play, the table it is)
    probable: list[tuple[PlayRecord, str]] = field(default_factory=list)  # skipped unless kept

    @property
    def names(self) -> list[dict]:
        return list(self.people.values())

    def answer(self, added: int | None = None) -> dict:
        """API.md's answer: what was (or would be) added and skipped, and how each person matched."""
        used = [entry for entry in self.people.values() if entry["used"]]
        return {
            "plays_added": len(self.new_plays) if added is None else added,
            "plays_skipped": self.skipped,
            "players_added": len({e["player"].casefold() for e in used if e["new"] and not e["guest"]}),
            "players_matched": len({e["player"].casefold() for e in used if not e["new"] and not e["guest"]}),
            "guests": len({e["player"].casefold() for e in used if e["guest"]}),
            "games": len({play.game_name.casefold() for play in self.new_plays}),
            "names": [
                {key: entry[key] for key in ("name", "player", "new", "guest", "plays", "username")}
                for entry in self.people.values()
                if entry["plays"]
            ],
            "plays_set_aside": len(self.set_aside),
            "plays_from_the_other_app": len(self.same_play),
            "probably_here": [
                {"play": play.origin_id, "where": play.where, "table": table}
                for play, table in self.probable[:PROBABLE_SHOWN]
            ],
            "plays_probably_here": len(self.probable),
            "zone": self.zone.key,
            "times": [
                {
                    "where": play.where,
                    "in_file": play.played_at.isoformat(sep=" ")
                    if play.timed
                    else play.played_at.date().isoformat(),
                    "at": times(play, self.zone)[0].isoformat() if play.timed else None,
                }
                for play in self.new_plays[:TIMES_SHOWN]
            ],
            "warnings": self.warnings,
        }


def zone_of(group: Group, name: str | None = None) -> ZoneInfo:
    """The zone a file's times are read in: the one named, else the group's (else the server's)."""
    if not name:
        return group_zone(group)
    wanted = name
    try:
        return ZoneInfo(wanted)
    except (ZoneInfoNotFoundError, ValueError):
        message = _("{zone} is not a time zone: name one such as Europe/Berlin.")
        raise ImportRefused(message.format(zone=str(wanted)[:64])) from None


def plan(
    group: Group,
    reading: Reading,
    chosen: dict[str, str] | None = None,
    zone: str | None = None,
    keep: list[str] | tuple = (),
) -> Plan:
    """Match the file's people (or follow `chosen`: a label in the file -> a player's name), find
    the plays the group already has, read the times in `zone`. Writes nothing."""
    tz = zone_of(group, zone)
    people = people_match.match(group, reading.people, chosen)
    have = known_plays(group)
    have_bgg = known_bgg_plays(group)
    warnings = Warnings()
    new_plays, set_aside, same_play, seen, seen_bgg = [], [], [], set(), set()
    for play in reading.plays:
        key = (play.source, play.origin_id)
        if key in have or key in seen or (play.bgg_play_id and play.bgg_play_id in seen_bgg):
            continue
        if play.bgg_play_id and play.bgg_play_id in have_bgg:
            same_play.append((play, have_bgg[play.bgg_play_id]))
            continue
        try:
            _check_one_each(play, people)
            times(play, tz)
        except PlayProblem as problem:
            warnings.add(problem.message)
            continue
        seen.add(key)
        if play.bgg_play_id:
            seen_bgg.add(play.bgg_play_id)
        (set_aside if play.set_aside else new_plays).append(play)
    probable = _probably_here(group, new_plays, people, tz, set(keep))
    if probable:
        probably = {id(play) for play, _table in probable}
        new_plays = [play for play in new_plays if id(play) not in probably]
    for play in new_plays:
        for seat in play.seats:
            people[seat.person]["used"] = True
    skipped = len(reading.plays) - len(new_plays) - len(set_aside)
    return Plan(
        group,
        tz,
        reading,
        new_plays,
        set_aside,
        skipped,
        people,
        [*reading.warnings, *warnings.sentences()],
        same_play,
        probable,
    )


def times(play: PlayRecord, zone) -> tuple[dt.datetime, dt.datetime]:
    """When the play started and finished, or PlayProblem when either leaves the calendar the
    history keeps (history_file.FIRST_DAY to LAST_DAY: a play on 9999-12-31, or of a length of
    centuries, was a 500, issue 41)."""
    try:
        started = timezone.make_aware(play.played_at, zone)
        finished = started + dt.timedelta(minutes=play.minutes or 0)
    except OverflowError:
        started = finished = None
    if started is None or not (in_calendar(started) and in_calendar(finished)):
        message = _(
            "{where}: its time, with its length, falls outside the days from {first} to {last}: left out."
        )
        raise PlayProblem(message.format(where=play.where, first=FIRST_DAY, last=LAST_DAY))
    return started, finished


def known_plays(group: Group) -> set[tuple[str, str]]:
    """Every play of the group as an import would name it: (source, its id there), and its play in
    this app's own BG Stats export (bgstats_export.play_uuid), so that reading back the group's
    own export adds nothing; plays set aside too."""
    known = set()
    for table_id, source, origin in Table.objects.filter(group=group).values_list(
        "id", "source", "origin_id"
    ):
        known.add(("bgstats", bgstats_export.play_uuid(Table(id=table_id, source=source, origin_id=origin))))
        if source:
            known.add((source, origin))
    known.update(SetAsidePlay.objects.filter(group=group).values_list("source", "origin_id"))
    return known


def known_bgg_plays(group: Group) -> dict[int, str]:
    """The group's plays by their BoardGameGeek id: BGG id -> the table (or "" when set aside)."""
    known = {
        bgg: ""
        for bgg in SetAsidePlay.objects.filter(group=group, bgg_play_id__isnull=False).values_list(
            "bgg_play_id", flat=True
        )
    }
    known.update(
        Table.objects.filter(group=group, bgg_play_id__isnull=False).values_list("bgg_play_id", "id")
    )
    return known


def _check_one_each(play: PlayRecord, people: dict) -> None:
    """Two people of one play matched to one player would seat that player twice."""
    players = [people[seat.person]["player"].casefold() for seat in play.seats]
    twice = next((player for player in players if players.count(player) > 1), None)
    if twice is not None:
        who = [
            people[seat.person]["name"]
            for seat in play.seats
            if people[seat.person]["player"].casefold() == twice
        ]
        message = _(
            "{where}: {first} and {second} would both be {player}, who sits at a table once: left out."
        )
        raise PlayProblem(message.format(where=play.where, first=who[0], second=who[1], player=twice))


def _probably_here(
    group, plays: list[PlayRecord], people: dict, zone, keep: set
) -> list[tuple[PlayRecord, str]]:
    """The plays that look like one the group has, without an id to say so: the same game (by
    name or BGG id), on the same day, with the same people and scores."""
    candidates = [
        play
        for play in plays
        if play.origin_id not in keep and all(not people[s.person]["new"] for s in play.seats)
    ]
    if not candidates:
        return []
    days = [timezone.make_aware(play.played_at, zone) for play in candidates]
    start, end = min(days) - dt.timedelta(days=2), max(days) + dt.timedelta(days=2)
    tables = (
        Table.objects.filter(group=group, status=Table.Status.FINISHED, created__range=(start, end))
        .only("id", "title", "game", "options", "created")
        .prefetch_related("seats__player")
    )
    known = {}
    for table in tables:
        day = timezone.localtime(table.created, zone).date()
        seats = frozenset((seat.player.name.casefold(), seat.score) for seat in table.seats.all())
        for game in _game_keys(table.game_name, (table.options or {}).get("bgg_id")):
            known.setdefault((game, day, seats), table.id)
    found = []
    for play in candidates:
        seats = frozenset((people[seat.person]["player"].casefold(), seat.score) for seat in play.seats)
        for game in _game_keys(play.game_name, play.bgg_id):
            table = known.get((game, play.played_at.date(), seats))
            if table:
                found.append((play, table))
                break
    return found


def _game_keys(name: str, bgg_id) -> list:
    return [name.casefold(), *([("bgg", bgg_id)] if bgg_id else [])]


def write(plan: Plan, progress: Callable[[int, int], None] | None = None) -> dict:
    """The plan's plays, new players and what the file says of them, in one transaction; the
    API's answer."""
    engine = registry.get(PAD)
    try:
        with transaction.atomic():
            people = _players(plan)
            people_match.remember(plan.group, plan.reading.people, people)
            _things(plan)
            for start in range(0, len(plan.new_plays), BATCH):
                _write_batch(plan.group, plan.new_plays[start : start + BATCH], people, engine, plan.zone)
                if progress is not None:
                    progress(min(start + BATCH, len(plan.new_plays)), len(plan.new_plays))
            _set_aside(plan)
            _lend(plan)
    except IntegrityError:
        # The same file imported from two phones at once: one of them wrote it.
        raise ImportRefused(
            _("These plays were being imported at the same moment: nothing more was added.")
        ) from None
    return plan.answer()


def _players(plan: Plan) -> dict[str, Player]:
    """The group's player of each person in the new plays (by their key), new ones made."""
    used = {key: entry for key, entry in plan.people.items() if entry["used"]}
    existing = {player.name.casefold(): player for player in Player.objects.filter(group=plan.group)}
    new, made = [], set()
    for entry in used.values():
        folded = entry["player"].casefold()
        if folded not in existing and folded not in made:
            made.add(folded)
            new.append(Player(group=plan.group, name=entry["player"], guest=entry["guest"]))
    Player.objects.bulk_create(new, batch_size=BATCH)
    existing = {player.name.casefold(): player for player in Player.objects.filter(group=plan.group)}
    return {key: existing[entry["player"].casefold()] for key, entry in used.items()}


def _things(plan: Plan) -> None:
    """The BG Stats games and places the new plays name, and whose BG Stats the file is."""
    wanted = {"game": set(), "location": set()}
    for play in [*plan.new_plays, *plan.set_aside]:
        kept = (play.origin or {}).get("bgstats")
        if kept:
            wanted["game"].update(
                [kept.get("gameRefId")] + [item["gameRefId"] for item in kept["expansionPlays"]]
            )
            wanted["location"].add(kept.get("locationRefId"))
    rows = [
        ThingOrigin(group=plan.group, kind=kind, uuid=uuid, data=plan.reading.things[kind][uuid])
        for kind, uuids in wanted.items()
        for uuid in uuids
        if uuid in plan.reading.things.get(kind, {})
    ]
    rows += [
        ThingOrigin(group=plan.group, kind="anonymous", uuid=uuid, data=data)
        for uuid, data in plan.reading.things.get("anonymous", {}).items()
    ]
    if plan.reading.things.get("user", {}).get("me"):
        rows.append(ThingOrigin(group=plan.group, kind="user", uuid="me", data=plan.reading.things["user"]))
    ThingOrigin.objects.bulk_create(rows, ignore_conflicts=True, batch_size=BATCH)


def _set_aside(plan: Plan) -> None:
    """Plays BG Stats leaves out of statistics: kept apart, with who sat there, for the export."""
    people = plan.reading.people
    SetAsidePlay.objects.bulk_create(
        [
            SetAsidePlay(
                group=plan.group,
                source=play.source,
                origin_id=play.origin_id,
                bgg_play_id=play.bgg_play_id,
                data={
                    **(play.origin or {}),
                    "people": {
                        seat.person: {"name": people[seat.person].name, "data": people[seat.person].data}
                        for seat in play.seats
                    },
                },
            )
            for play in plan.set_aside
        ],
        batch_size=BATCH,
    )


def _lend(plan: Plan) -> None:
    """A play found by its BGG id, brought again from the other app, takes what it lacked: the
    BGG users of its people (kept by remember() when they sat at new plays too), and BG Stats'
    time of day for a play from BGG, which has none."""
    people = plan.reading.people
    sitting = {}
    for play, table_id in plan.same_play:
        if not table_id:
            continue
        for seat in play.seats:
            entry = plan.people[seat.person]
            if not entry["new"]:
                sitting.setdefault(seat.person, entry["player"])
        if play.source == "bgstats" and play.timed:
            table = Table.objects.filter(pk=table_id, timed=False).first()
            if table is not None:
                started, finished = times(play, plan.zone)
                table.created, table.finished, table.timed = started, finished, True
                table.origin = {**(table.origin or {}), **(play.origin or {})}
                table.save(update_fields=["created", "finished", "timed", "origin"])
    if sitting:
        players = {p.name.casefold(): p for p in Player.objects.filter(group=plan.group)}
        found = {key: players[name.casefold()] for key, name in sitting.items() if name.casefold() in players}
        people_match.remember(plan.group, {key: people[key] for key in found}, found)


def _write_batch(group: Group, plays: list[PlayRecord], people: dict, engine, zone) -> None:
    tables, seats = [], []
    for play in plays:
        options = base.validate_options(engine, _options(play))
        try:
            state = engine.setup(len(play.seats), options)
        except base.ActionError as error:
            raise ImportRefused(f"{play.where}: {error.message}") from None
        winners = [seat for seat, result in enumerate(play.seats) if result.won]
        totals = [result.score or 0 for result in play.seats]
        facts = base.played_game(engine, options)
        started, finished = times(play, zone)
        table = Table(
            id=new_table_id(),
            group=group,
            game=PAD,
            title=facts.title,
            played=base.history_key(PAD, library.history_title(facts.bgg_id, facts.title)),
            options=options,
            status=Table.Status.FINISHED,
            snapshot=outcomes.recorded(state, totals, winners),
            names=[people[result.person].name for result in play.seats],
            created=started,
            finished=finished,
            place=play.place,
            comments=play.comments,
            duration_minutes=play.minutes,
            source=play.source,
            origin_id=play.origin_id,
            bgg_play_id=play.bgg_play_id,
            timed=play.timed,
            origin=play.origin,
        )
        tables.append(table)
        seats += [
            Seat(
                table=table,
                player=people[result.person],
                position=position,
                score=result.score,
                won=result.won,
            )
            for position, result in enumerate(play.seats)
        ]
    Table.objects.bulk_create(tables, batch_size=BATCH)
    Seat.objects.bulk_create(seats, batch_size=BATCH)


def _options(play: PlayRecord) -> dict:
    return {
        "game_name": play.game_name,
        "bgg_id": play.bgg_id,
        "outcome": play.outcome,
        "lowest_wins": play.outcome == "points" and not play.highest_wins,
        "teams": play.teams(),
        "roles": play.roles(),
        "expansions": play.expansions,
    }


def import_file(
    group: Group,
    reading: Reading,
    chosen: dict | None = None,
    dry_run: bool = False,
    zone: str | None = None,
    keep: list[str] | tuple = (),
) -> dict:
    """Plan, and unless `dry_run`, write: the API's answer either way."""
    planned = plan(group, reading, chosen, zone, keep)
    return planned.answer() if dry_run else write(planned)
