"""The one way state changes: create a table, play an action, undo the last one.

Every write checks the version the client saw, runs the engine on the stored snapshot (no replay),
appends the event and bumps the version, all applied at once or not at all. An entry does it as a
compare-and-set on the version it read (entry_sql.py, issue 13); undo, abandon and resume, which
are rare, lock the row for their transaction.
"""

from __future__ import annotations

import re
import zlib
from functools import cache, partial

import orjson
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from companion.games import base, registry, words
from companion.games import names as name_rules
from companion.groups.models import Group

from . import entry_sql, fanout, row_cache
from .models import Event, KeyedWrite, Player, Seat, Table, new_token
from .wording import named

NAME_MAX = 40


class StaleVersion(Exception):
    """The client wrote against an old version; carries the fresh table."""

    def __init__(self, table: dict):
        super().__init__("stale version")
        self.table = table
        self.error = base.ActionError(
            "stale_version",
            _("The table has moved on to version {version}: look again and retry.").format(
                version=table["version"]
            ),
        )


def engine_for(table: Table) -> base.Engine:
    return registry.get(table.game)


def seat_names(table: Table) -> list[str]:
    """The players' names in seat order: the row's cached list, else read from the seats."""
    if table.names is not None:
        return list(table.names)
    return [seat.player.name for seat in table.seats.select_related("player")]


def table_json(table: Table, names: list[str] | None = None, state: dict | None = None) -> dict:
    """The table as the API answers it (API.md, "A table is"); with `state`, as it was at that
    state (a replay's step)."""
    engine = engine_for(table)
    names = seat_names(table) if names is None else names
    state = table.snapshot if state is None else state
    result = engine.result(state)
    return {
        "id": table.id,
        "game": table.game,
        "version": table.version,
        "status": Table.Status.FINISHED if result else Table.Status.IN_PROGRESS,
        "players": [{"seat": i, "name": name} for i, name in enumerate(names)],
        "expect": engine.expect(state),
        "state": state,
        "scores": engine.scores(state),
        "winners": result["winners"] if result else None,
        "end_reason": result["end_reason"] if result else None,
    }


# Text the database cannot store: NUL (PostgreSQL text and jsonb refuse it) or an unpaired
# surrogate, which JSON's "\ud800" escape can carry in but UTF-8 cannot encode.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> bool:
    """A regular expression, not a loop over the characters: every entry's action is checked."""
    return UNSTORABLE.search(text) is not None


def check_storable(value) -> None:
    """BadAction (400) for unstorable text anywhere in an action, keys included: an engine may
    keep such a text (a Surf's Up goal's name), and the write would then fail as a 500."""
    if isinstance(value, str) and unstorable(value):
        raise base.BadAction("bad_text", _("Text in the action holds a NUL character or broken Unicode."))
    if isinstance(value, dict):
        for key, item in value.items():
            check_storable(key)
            check_storable(item)
    elif isinstance(value, list):
        for item in value:
            check_storable(item)


def clean_name(raw) -> str:
    """A player's name in its one form (games/names.py): composed, no hidden characters; at most
    NAME_MAX characters as sent, too (what the OpenAPI document says)."""
    name = name_rules.tidy(str(raw))
    if (char := name_rules.hidden(name)) is not None:
        raise base.BadAction(
            "bad_player_name",
            _("A name cannot hold invisible characters or ones that turn the text around ({char}).").format(
                char=char
            ),
        )
    if not name:
        raise base.BadAction("bad_player_name", _("Every player needs a name."))
    if len(name) > NAME_MAX or len(str(raw)) > NAME_MAX:
        raise base.BadAction(
            "bad_player_name", _("A name has at most {count} characters.").format(count=NAME_MAX)
        )
    return name


def find_or_create_player(name: str, group: Group) -> Player:
    player = Player.objects.filter(group=group).named(name).first()
    if player is not None:
        return player
    try:
        with transaction.atomic():
            return Player.objects.create(name=name, group=group)
    except IntegrityError:
        # Another table created the same person a moment ago (unique on group and lower(name)).
        return Player.objects.filter(group=group).named(name).get()


def table_group(group: Group | None) -> Group:
    """The group a new table joins: the one named, else the default group while there is one."""
    if group is not None:
        return group
    if not settings.DEFAULT_GROUP:
        raise base.BadAction(
            "group_needed", _("This server keeps no shared history: start the table from your group's page.")
        )
    return Group.default()


def create_table(game: str, players: list, options: dict | None, group: Group | None = None) -> Table:
    """Validate everything first, then write: a refused table leaves no rows behind. Its people
    are the group's: a name the group knows is that person, a new one joins the group."""
    if game not in registry.GAMES:
        known = ", ".join(registry.GAMES)
        raise base.BadAction(
            "unknown_game", _("There is no game '{game}' (known: {known}).").format(game=game, known=known)
        )
    engine = registry.get(game)
    if not isinstance(players, list):
        raise base.BadAction("bad_players", _("Players must be a list of names."))
    base.check_players(engine, len(players))
    names = [clean_name(name) for name in players]
    if len({name.lower() for name in names}) != len(names):
        raise base.BadAction("duplicate_player", _("Each player can sit at a table only once."))
    options = base.validate_options(engine, options)
    state = engine.setup(len(names), options)
    with transaction.atomic():  # everything it writes, the default group's first row included
        group = table_group(group)
        table = Table.objects.create(group=group, game=game, options=options, snapshot=state, names=names)
        for position, name in enumerate(names):
            Seat.objects.create(table=table, player=find_or_create_player(name, group), position=position)
    return table


def _mark_status(table: Table, engine: base.Engine) -> None:
    """Set status and finished from the snapshot; on the way into or out of "finished", write or
    clear each seat's score and win, which the history's statistics aggregate."""
    was_over = table.status == Table.Status.FINISHED
    result = _set_status(table, engine)
    if result is not None:
        record_result(table, engine, result)
    elif was_over:
        table.seats.update(score=None, won=False)


def _set_status(table: Table, engine: base.Engine) -> dict | None:
    """Status and finished from the snapshot (on the row, unsaved); the engine's result, if over."""
    result = engine.result(table.snapshot)
    table.status = Table.Status.FINISHED if result else Table.Status.IN_PROGRESS
    if result and table.finished is None:
        table.finished = timezone.now()
    if not result:
        table.finished = None
    return result


def record_result(table: Table, engine: base.Engine, result: dict) -> None:
    totals = [score["total"] for score in engine.scores(table.snapshot)]
    # A pad's game won or lost, or its co-op game without a score, keeps none (AG-7, issue 43):
    # no 0 in the history, no average of zeros.
    kept = base.points_kept(engine, table.snapshot)
    seats = list(table.seats.all())
    for seat in seats:
        seat.score = totals[seat.position] if kept else None
        seat.won = seat.position in result["winners"]
    Seat.objects.bulk_update(seats, ["score", "won"])


def _check_playable(table: Table) -> None:
    if table.abandoned is not None:
        raise base.RuleViolation(
            "table_abandoned",
            _("This table was abandoned: resume it on its page to enter more (T-N2)."),
            "T-N2",
        )


def _check_version(table: Table, expected_version, names: list[str]) -> None:
    if not base.is_int(expected_version):
        raise base.BadAction("bad_version", "'expected_version' must be the table's version number.")
    if expected_version != table.version:
        raise StaleVersion(table_json(table, names))


def play_action(
    table_id: str, action, expected_version, idempotency_key: str | None = None, authorize=None
) -> dict:
    """Apply one action; returns the table. Raises StaleVersion or base.ActionError. `authorize`,
    given, is called with the row read (or None for an unknown id) and raises to refuse: the API
    checks its token there, so a write reads the row once (issue 13).

    Optimistic (entry_sql): the rules run on the row as read, and the write applies only if the
    row still has that version. When another write came first, the row is read again, and this
    request is then stale, or a retry of that very write, which answers as it did."""
    key = idempotency_key or None
    kept = row_cache.get(table_id, expected_version) if base.is_int(expected_version) else None
    if kept is not None:  # this process wrote the version the entry names: no read (row_cache.py)
        if authorize is not None:
            authorize(kept)
        answer = _apply(kept, action, expected_version, key)
        if answer is not None:
            announce(kept)
            return answer
        row_cache.forget(table_id)  # another write came first: read the row, as without a cache
    for _attempt in range(2):
        table, repeated = entry_sql.read_table(table_id, key)
        if authorize is not None:
            authorize(table)
        if table is None:
            raise Table.DoesNotExist(table_id)
        if repeated is not None:
            return Event.objects.get(pk=repeated).stored_answer()
        answer = _apply(table, action, expected_version, key)
        if answer is not None:
            announce(table)
            return answer
    # Only a write that moved the version between two reads gets here, and the second read saw
    # that move, so it answered stale above: a guard, not a path.
    raise StaleVersion(table_json(Table.objects.get(pk=table_id)))


def after_write(table: Table) -> Table:
    """`table` after a write of this request: the row this process committed for the entry
    (row_cache, one version on), else the row read again (a refusal, a stale entry, a write kept
    nowhere)."""
    written = row_cache.get(table.pk, table.version + 1)
    if written is not None:
        return written
    table.refresh_from_db()
    return table


def _apply(table: Table, action, expected_version, key: str | None) -> dict | None:
    """The rules on the row as read, then the compare-and-set write; None when it lost the race."""
    if table.names is None:  # first write since a rename or a merge (or an old row)
        table.names = _cache_names(table.pk)
    names = list(table.names)
    _check_version(table, expected_version, names)
    _check_playable(table)
    engine = engine_for(table)
    check_storable(action)
    before, read_version = table.snapshot, table.version
    try:
        table.snapshot = base.play(engine, before, action)
    except base.ActionError as error:
        raise named(error, names) from None  # G-2: players' names, in the API and the pages
    text, texts = log_sentences(engine, before, action, table.snapshot, names)
    table.version += 1
    table.last_seq += 1
    result = _set_status(table, engine)
    answer = table_json(table, names)
    event = {
        "table_id": table.pk,
        "seq": table.last_seq,
        "action": action,
        "text": text,
        "texts": texts,
        "idempotency_key": key,
        "answer": compact(answer) if key else None,  # only a retried key reads it
    }
    if result is None:
        if not entry_sql.write_entry(table, read_version, event):
            return None
        row_cache.keep_after_commit(table)
        return answer
    with transaction.atomic():  # the seats' results commit with the entry that ends the game
        if not entry_sql.write_entry(table, read_version, event):
            return None
        record_result(table, engine, result)
        row_cache.keep_after_commit(table)
    return answer


def log_sentences(engine, before: dict, action: dict, after: dict, names: list[str]) -> tuple[str, dict]:
    """The entry's log sentence in English, and in each other language where it differs, whatever
    the language of the phone that sent it: every phone reads the log in its own (issue 17)."""
    with words.speaking(words.ENGLISH):  # the msgids are the English sentences
        text = engine.describe(before, action, after, names)
    texts = {}
    for code, _name in settings.LANGUAGES:
        if code != settings.LANGUAGE_CODE:
            with words.speaking(_catalog(code)):
                said = engine.describe(before, action, after, names)
            if said != text:
                texts[code] = said
    return text, texts


@cache
def _catalog(code: str) -> dict:
    """A language's catalog as words.speaking takes it: looked up straight, about 5x faster than
    gettext through the active language (an entry says its sentence in every language, issue 13)."""
    catalog = trans_real.translation(code)
    return {
        "gettext": lambda message: catalog.gettext(message) if message else message,
        "ngettext": catalog.ngettext,
        "pgettext": lambda context, message: catalog.pgettext(context, message) if message else message,
    }


def _cache_names(table_id: str) -> list[str]:
    """Read the names from the seats and keep them on the row, under the row's lock: a rename
    clears them with an UPDATE of its own, which then waits for this one instead of being lost."""
    with transaction.atomic():
        table = Table.objects.select_for_update().only("id", "names").get(pk=table_id)
        if table.names is None:
            table.names = [seat.player.name for seat in table.seats.select_related("player")]
            table.save(update_fields=["names"])
        return list(table.names)


def compact(answer: dict) -> bytes:
    """A write's answer as stored for a retry: zlib level 1 of its JSON (most of the size gain for
    a fraction of the time of the default level)."""
    return zlib.compress(orjson.dumps(answer, option=orjson.OPT_NON_STR_KEYS), 1)


def announce(table: Table) -> None:
    """Tell the phones watching this table, once the write has committed (never before: a phone
    that fetched the table at once would not see it yet)."""
    transaction.on_commit(partial(fanout.announce, table.id, table.version))


def move_versions(table_ids, **fields) -> None:
    """Tables changed outside an entry (a note in secret, a person's new name, a play's details):
    `fields` written, each version moved, as every change's does (API.md), a row kept by this worker
    forgotten (row_cache.py), and the phones told once the change commits, as for an entry."""
    ids = list(table_ids)
    Table.objects.filter(pk__in=ids).update(version=F("version") + 1, **fields)
    for table_id, version in Table.objects.filter(pk__in=ids).values_list("pk", "version"):
        row_cache.forget(table_id)
        transaction.on_commit(partial(fanout.announce, table_id, version))


def _repeated(table: Table, key: str | None) -> dict | None:
    """The answer an earlier undo, abandon or resume with this key got, if one did."""
    if not key:
        return None
    done = table.keyed_writes.filter(idempotency_key=key).first()
    return done.stored_answer() if done is not None else None


def _remember(table: Table, key: str | None, answer: dict) -> dict:
    if key:
        KeyedWrite.objects.create(table=table, idempotency_key=key, answer=compact(answer))
    return answer


def _locked(table_id: str, expected_version, key: str | None) -> tuple[Table, list[str], dict | None]:
    """A write that moves the version without an entry of its own (an undo, abandon, resume, who
    starts): the row locked, the row cache dropped (an entry kept there is stale), and either the
    answer a retried key already got, or the version checked."""
    table = Table.objects.select_for_update().get(pk=table_id)
    row_cache.forget(table_id)
    if (repeated := _repeated(table, key)) is not None:
        return table, [], repeated
    names = seat_names(table)
    _check_version(table, expected_version, names)
    return table, names, None


def undo(table_id: str, expected_version, seq: int | None = None, idempotency_key: str | None = None) -> dict:
    """Take back the last live entry, or the entry `seq` when no later entry depends on it (a
    player's own placement in a round everyone writes at once), and rebuild the snapshot."""
    with transaction.atomic():
        table, names, repeated = _locked(table_id, expected_version, idempotency_key)
        if repeated is not None:
            return repeated
        _check_playable(table)
        live = list(table.events.filter(undone=False).order_by("seq"))
        if not live:
            raise base.RuleViolation("nothing_to_undo", _("There is no entry to take back (T-N1)."), "T-N1")
        target = live[-1] if seq is None else next((event for event in live if event.seq == seq), None)
        if target is None:
            raise base.RuleViolation(
                "no_such_entry", _("That entry is not in the log, or it was already undone (T-N1)."), "T-N1"
            )
        engine = engine_for(table)
        kept = [event.action for event in live if event is not target]
        try:
            table.snapshot = base.replay(engine, len(names), table.options, kept)
        except base.ActionError as conflict:
            raise base.RuleViolation(
                "later_entries_depend",
                _("Later entries depend on this one: undo those first, newest first (T-N1)."),
                "T-N1",
            ) from conflict
        target.undone = True
        target.save(update_fields=["undone"])
        table.version += 1
        _mark_status(table, engine)
        table.save(update_fields=["snapshot", "version", "status", "finished"])
        announce(table)
        return _remember(table, idempotency_key, table_json(table, names))


def choose_first(table_id: str, expected_version, seat, idempotency_key: str | None = None) -> dict:
    """Before the first entry, the player the rulebook names to start takes seat 1, the others
    following in their order (issue 32: "the last person to smell a wet dog starts", HF-1)."""
    with transaction.atomic():
        table, names, repeated = _locked(table_id, expected_version, idempotency_key)
        if repeated is not None:
            return repeated
        _check_playable(table)
        guide = registry.guide(table.game)
        if guide is None or not guide.FIRST_PLAYER:
            raise base.BadAction("no_first_player", _("In this game nobody starts: everyone plays at once."))
        if table.events.exists():
            raise base.RuleViolation(
                "already_started", _("The game has begun: the seats stay as they are (HF-1)."), "HF-1"
            )
        if not base.is_int(seat) or not 0 <= seat < len(names):
            raise base.BadAction("bad_seat", _("'seat' must be a seat of this table."))
        if seat:
            seats = list(table.seats.order_by("position"))
            for row in seats:  # out of the way of the unique (table, position) first
                row.position += len(seats)
            Seat.objects.bulk_update(seats, ["position"])
            for row in seats:
                row.position = (row.position - len(seats) - seat) % len(seats)
            Seat.objects.bulk_update(seats, ["position"])
            table.names = None
            table.version += 1
            table.save(update_fields=["names", "version"])
            names = seat_names(table)
            announce(table)
        return _remember(table, idempotency_key, table_json(table, names))


def note_hidden(table_id: str, seat, index, value) -> None:
    """A seat's value noted in secret on its own phone (a bluebottle token, issue 30): kept on the
    seat, out of the state, the API and the log. Noting the same token again replaces its value, so
    a phone that sends twice changes nothing more. A note is no entry, but the pages change (the
    token is noted, its prompt moves on): the version moves and every phone is told (issue 43)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        _check_playable(table)
        hidden = registry.hidden(table.game)
        if hidden is None:
            raise base.BadAction("no_hidden_values", _("This game has no value to note in secret."))
        if not all(base.is_int(number) for number in (seat, index, value)):
            raise base.BadAction("bad_hidden_value", _("'seat', 'index' and 'value' must be whole numbers."))
        count = hidden.slots(table.snapshot).get(seat, 0)
        if not 0 <= index < count:
            raise base.RuleViolation("no_hidden_slot", hidden.no_slot_reason(count), hidden.RULE)
        if value not in hidden.choices():
            raise base.BadAction("bad_hidden_value", hidden.bad_value_reason())
        row = Seat.objects.select_for_update().get(table=table, position=seat)
        noted = list(row.hidden_values) + [None] * max(0, index + 1 - len(row.hidden_values))
        if noted[index] == value:
            return  # sent twice: nothing changes
        noted[index] = value
        row.hidden_values = noted
        row.save(update_fields=["hidden_values"])
        move_versions([table.pk])


def hidden_values(table: Table) -> dict[int, list]:
    """Seat -> the values noted in secret, for the final entry only: never shown before it."""
    if registry.hidden(table.game) is None:
        return {}
    return {seat.position: list(seat.hidden_values) for seat in table.seats.all() if seat.hidden_values}


def hidden_noted(table: Table) -> dict[int, list[int]]:
    """Seat -> which of its values are noted (their indexes, never the values): what pages show."""
    return {
        seat: [index for index, value in enumerate(values) if value is not None]
        for seat, values in hidden_values(table).items()
    }


def play_again(table_id: str) -> Table:
    """The next game of a finished table: the same game, options and players in the same seats,
    made once; asked again (another phone of the table), the same new table (issue 15)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        row_cache.forget(table_id)  # this write moves the version: an entry kept here is stale
        if table.rematch_id is not None:
            return table.rematch
        if table.status != Table.Status.FINISHED:
            raise base.RuleViolation(
                "not_finished", _("A new game with the same players starts once this one is over."), None
            )
        rematch = create_table(table.game, seat_names(table), table.options, table.group)
        table.rematch = rematch
        table.version += 1  # the other phones' pages then offer to follow it
        table.save(update_fields=["rematch", "version"])
        announce(table)
        return rematch


def renew_links(table_id: str, seen_links: int | None = None) -> Table | None:
    """New play and watch links (issue 41): the old tokens open nothing from now on, and the
    phones that opened them hold nothing (their grants name the old links' generation), on every
    server; the version moves, so their open streams hear of it and end (fanout.py).

    `seen_links` is the generation whose link the asker proved it holds: when another renewal came
    first, the asker holds nothing any more and gets None (else a leaked link racing the renewal
    meant to shut it out would come away with the new links)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if seen_links is not None and table.links != seen_links:
            return None
        row_cache.forget(table_id)  # the version moves: an entry kept here is stale
        table.token, table.view_token = new_token(), new_token()
        table.links += 1
        table.version += 1
        table.save(update_fields=["token", "view_token", "links", "version"])
        transaction.on_commit(partial(fanout.announce, table.id, table.version, table.links))
    return table


def renew_links_of(table_ids: list[str]) -> None:
    """renew_links for many tables at once (a member removed from a group, issue 41): one
    transaction, a statement per table (each its own tokens), the phones told once it commits."""
    with transaction.atomic():
        for table_id in table_ids:
            Table.objects.filter(pk=table_id).update(
                token=new_token(), view_token=new_token(), links=F("links") + 1, version=F("version") + 1
            )
            row_cache.forget(table_id)
        renewed = Table.objects.filter(pk__in=table_ids).values_list("pk", "version", "links")
        for table_id, version, links in renewed:
            transaction.on_commit(partial(fanout.announce, table_id, version, links))


def abandon(table_id: str, expected_version, idempotency_key: str | None = None) -> dict:
    """Stop an unfinished table for good (it leaves the archive's statistics) until resumed."""
    return _set_abandoned(table_id, expected_version, True, idempotency_key)


def resume(table_id: str, expected_version, idempotency_key: str | None = None) -> dict:
    return _set_abandoned(table_id, expected_version, False, idempotency_key)


def _set_abandoned(table_id: str, expected_version, abandoned: bool, idempotency_key: str | None) -> dict:
    with transaction.atomic():
        table, names, repeated = _locked(table_id, expected_version, idempotency_key)
        if repeated is not None:
            return repeated
        if abandoned and table.status == Table.Status.FINISHED:
            raise base.RuleViolation(
                "already_finished", _("A finished table is kept in the history as it is (T-N2)."), "T-N2"
            )
        if (table.abandoned is not None) != abandoned:
            table.abandoned = timezone.now() if abandoned else None
            table.version += 1
            table.save(update_fields=["abandoned", "version"])
            announce(table)
        return _remember(table, idempotency_key, table_json(table, names))
