"""A file's plays into a group: each name matched to one of the group's players or made a new
one (unless the member says otherwise), each play kept as a finished score pad of its game with the
file's result, in one transaction: all of the file's new plays or none. A play the group already
has (the same BG Stats uuid or BGG play id) is skipped, so importing a file twice adds nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.games import base, registry
from companion.games.any_game import outcomes
from companion.groups.models import Group
from companion.history import bgstats_export
from companion.history.history_file import FIRST_DAY, LAST_DAY, ImportRefused, in_calendar
from companion.tables.models import Player, Seat, Table, new_table_id

from .records import NAME_MAX, PlayRecord, Reading, typed_name

PAD = "any-game"
BATCH = 500  # rows a bulk insert writes at once


@dataclass
class Plan:
    """What an import does, said before it writes (the preview, a dry run) and done by write()."""

    group: Group
    new_plays: list[PlayRecord]
    skipped: int
    names: list[dict]  # [{"name": in the file, "player": the group's name, "new": bool}], file order
    warnings: list[str]

    def answer(self, added: int | None = None) -> dict:
        """API.md's answer: what was (or would be) added and skipped, and how each name matched."""
        return {
            "plays_added": len(self.new_plays) if added is None else added,
            "plays_skipped": self.skipped,
            "players_added": sum(1 for name in self.names if name["new"] and name["used"]),
            "players_matched": sum(1 for name in self.names if not name["new"] and name["used"]),
            "games": len({play.game_name.casefold() for play in self.new_plays}),
            "names": [{key: name[key] for key in ("name", "player", "new")} for name in self.names],
            "warnings": self.warnings,
        }


def plan(group: Group, reading: Reading, chosen: dict[str, str] | None = None) -> Plan:
    """Match the file's names (or follow `chosen`: a name in the file -> a player's name) and find
    the plays the group already has. Writes nothing."""
    chosen = {key.casefold(): value for key, value in (chosen or {}).items() if isinstance(key, str)}
    known = {player.name.casefold(): player.name for player in Player.objects.filter(group=group)}
    names: dict[str, dict] = {}
    for play in reading.plays:
        for seat in play.seats:
            names.setdefault(seat.name.casefold(), {"name": seat.name, "used": False})
    for key, entry in names.items():
        wanted = chosen.get(key)
        where = _("The player chosen for {name}").format(name=entry["name"])
        target = typed_name(wanted, where, _("the name"), NAME_MAX) if wanted else entry["name"]
        entry["player"] = known.get(target.casefold(), target)
        entry["new"] = target.casefold() not in known
    have = known_plays(group)
    new_plays, seen = [], set()
    for play in reading.plays:
        key = (play.source, play.origin_id)
        if key in have or key in seen:
            continue
        seen.add(key)
        _check_one_each(play, names)
        times(play, timezone.get_default_timezone())  # a dry run refuses what the import would
        new_plays.append(play)
        for seat in play.seats:
            names[seat.name.casefold()]["used"] = True
    skipped = len(reading.plays) - len(new_plays)
    return Plan(group, new_plays, skipped, list(names.values()), reading.warnings)


def times(play: PlayRecord, zone) -> tuple[dt.datetime, dt.datetime]:
    """When the play started and finished, or ImportRefused when either leaves the calendar the
    history keeps (history_file.FIRST_DAY to LAST_DAY: a play on 9999-12-31, or of a length of
    centuries, was a 500, issue 41)."""
    try:
        started = timezone.make_aware(play.played_at, zone)
        finished = started + dt.timedelta(minutes=play.minutes or 0)
    except OverflowError:
        started = finished = None
    if started is None or not (in_calendar(started) and in_calendar(finished)):
        message = _("{where}: its time, with its length, falls outside the days from {first} to {last}.")
        raise ImportRefused(message.format(where=play.where, first=FIRST_DAY, last=LAST_DAY))
    return started, finished


def known_plays(group: Group) -> set[tuple[str, str]]:
    """Every play of the group as an import would name it: (source, its id there), and its play in
    this app's own BG Stats export (bgstats_export.play_uuid), so that reading back the group's
    own export adds nothing."""
    known = set()
    for table_id, source, origin in Table.objects.filter(group=group).values_list(
        "id", "source", "origin_id"
    ):
        known.add(("bgstats", bgstats_export.play_uuid(Table(id=table_id, source=source, origin_id=origin))))
        if source:
            known.add((source, origin))
    return known


def _check_one_each(play: PlayRecord, names: dict) -> None:
    """Two names of one play matched to one player would seat that player twice."""
    players = [names[seat.name.casefold()]["player"].casefold() for seat in play.seats]
    twice = next((player for player in players if players.count(player) > 1), None)
    if twice is not None:
        who = [seat.name for seat in play.seats if names[seat.name.casefold()]["player"].casefold() == twice]
        message = _("{where}: {first} and {second} would both be {player}, who sits at a table once.")
        raise ImportRefused(message.format(where=play.where, first=who[0], second=who[1], player=twice))


def write(plan: Plan, progress: Callable[[int, int], None] | None = None) -> dict:
    """The plan's plays and new players, in one transaction; the API's answer."""
    engine = registry.get(PAD)
    zone = timezone.get_default_timezone()
    try:
        with transaction.atomic():
            people = _players(plan)
            for start in range(0, len(plan.new_plays), BATCH):
                _write_batch(plan.group, plan.new_plays[start : start + BATCH], people, engine, zone)
                if progress is not None:
                    progress(min(start + BATCH, len(plan.new_plays)), len(plan.new_plays))
    except IntegrityError:
        # The same file imported from two phones at once: one of them wrote it.
        raise ImportRefused(
            _("These plays were being imported at the same moment: nothing more was added.")
        ) from None
    return plan.answer()


def _players(plan: Plan) -> dict[str, Player]:
    """The group's player of each name in the file (casefolded), new ones made."""
    wanted = {name["player"] for name in plan.names if name["used"]}
    existing = {player.name.casefold(): player for player in Player.objects.filter(group=plan.group)}
    new = [Player(group=plan.group, name=name) for name in sorted(wanted) if name.casefold() not in existing]
    Player.objects.bulk_create(new, batch_size=BATCH)
    existing = {player.name.casefold(): player for player in Player.objects.filter(group=plan.group)}
    return {
        name["name"].casefold(): existing[name["player"].casefold()] for name in plan.names if name["used"]
    }


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
            played=base.history_key(PAD, facts.title),
            options=options,
            status=Table.Status.FINISHED,
            snapshot=outcomes.recorded(state, totals, winners),
            names=[people[result.name.casefold()].name for result in play.seats],
            created=started,
            finished=finished,
            place=play.place,
            comments=play.comments,
            duration_minutes=play.minutes,
            source=play.source,
            origin_id=play.origin_id,
        )
        tables.append(table)
        seats += [
            Seat(
                table=table,
                player=people[result.name.casefold()],
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


def import_file(group: Group, reading: Reading, chosen: dict | None = None, dry_run: bool = False) -> dict:
    """Plan, and unless `dry_run`, write: the API's answer either way."""
    planned = plan(group, reading, chosen)
    return planned.answer() if dry_run else write(planned)
