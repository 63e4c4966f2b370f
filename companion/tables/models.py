"""Players, tables, seats and the append-only event log of each table."""

import secrets
import zlib

import orjson
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone, translation

from companion.games import base, registry
from companion.sheets import library

from .json_field import FastJSONField


def new_table_id() -> str:
    return secrets.token_hex(5)


def new_token() -> str:
    return secrets.token_urlsafe(18)


class PlayerQuerySet(models.QuerySet):
    def named(self, name: str):
        """The person with this name, ignoring case by the unique index's own rule (lower() in the
        database: __iexact is UPPER() on PostgreSQL, which disagrees on a few letters)."""
        return self.alias(lower_name=Lower("name")).filter(lower_name=Lower(models.Value(name)))


class Player(models.Model):
    """One person of a group, the same across its tables; names are unique in a group, ignoring case."""

    group = models.ForeignKey("groups.Group", on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=40)
    # A guest of an imported play (BG Stats' anonymous player, BGG's "Anonymous player", issue 42):
    # counted in the plays they sat at, never a ranked player of the group.
    guest = models.BooleanField(default=False)
    # A default rather than auto_now_add: an imported history keeps its own dates.
    created = models.DateTimeField(default=timezone.now)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint("group", Lower("name"), name="player_name_unique_in_group")]
        ordering = ["name"]

    def __str__(self):
        return self.name


class Table(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"

    id = models.CharField(primary_key=True, max_length=16, default=new_table_id, editable=False)
    # The group whose people sit at it and whose history keeps it (issue 16).
    group = models.ForeignKey("groups.Group", on_delete=models.PROTECT, related_name="tables")
    game = models.CharField(max_length=32)
    # The game the history counts this play as (base.played_game): for a game with its engine,
    # its slug and no title; for a pad of any game, the name it was set up with, and the key
    # "<slug>:<name ignoring case>" that the statistics group by.
    title = models.CharField(max_length=80, blank=True, editable=False)
    played = models.CharField(max_length=120, editable=False)
    options = FastJSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    # Bumped by every change, undo included; a write must name the version it saw.
    version = models.PositiveIntegerField(default=0)
    snapshot = FastJSONField(default=dict)
    # The players' names in seat order, read with the row so a write needs no join (issue 13);
    # null until first needed, and set back to null by a rename or a merge (history/people.py).
    names = FastJSONField(null=True, blank=True, editable=False)
    # The seq of the newest event, kept in the row the write locks anyway: no MAX(seq) per write.
    last_seq = models.PositiveIntegerField(default=0, editable=False)
    token = models.CharField(max_length=64, default=new_token, editable=False)
    view_token = models.CharField(max_length=64, default=new_token, editable=False)
    # The links' generation (issue 41): renewing them gives new tokens and moves it on, and a phone
    # whose grant names an older one holds nothing (tokens.py).
    links = models.PositiveIntegerField(default=0, editable=False)
    created = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True)
    # Set by an explicit "abandon": the table is kept apart from the archive and its statistics,
    # and refuses entries until it is resumed. Only an unfinished table can be abandoned.
    abandoned = models.DateTimeField(null=True, blank=True)
    # What the history keeps beside the log, all editable after the game.
    place = models.CharField(max_length=80, blank=True)
    comments = models.TextField(blank=True)
    # The length people say the game took; when empty, the first to the last entry is shown.
    duration_minutes = models.PositiveIntegerField(null=True, blank=True)
    # "Play again with the same players": the next table, made once, which every phone of this
    # finished one can follow (issue 15).
    rematch = models.OneToOneField(
        "self", null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    # Where a play came from: "" kept here; "bgstats" or "bgg" a result imported from that app
    # (issue 29: no log, no replay). With `source` empty, origin_id is the id the table had in a
    # history file it was imported from, when that id was another group's here and the table took
    # a new one (issue 28); with a source, the play's id there. Importing again finds either.
    source = models.CharField(max_length=16, blank=True, default="", editable=False)
    origin_id = models.CharField(max_length=64, blank=True, default="", editable=False)
    # The play's BoardGameGeek id (issue 42): a BGG play's own, or the one a BG Stats play was
    # posted as. The same play from the other app is skipped by it.
    bgg_play_id = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    # False for a play whose file gave a day without a time of day (BGG): pages show no time.
    timed = models.BooleanField(default=True, editable=False)
    # What the file said that the history has no column for (start player, colours, first plays,
    # the play's rating, board, decimal scores as written, the file's uuids...): given back by the
    # BG Stats export so that a round trip loses nothing (importers/origin.py).
    origin = FastJSONField(null=True, blank=True, editable=False)

    class Meta:
        indexes = [
            models.Index(fields=["group", "status", "-finished"]),
            models.Index(fields=["group", "played", "status", "-finished"]),
            models.Index(fields=["group", "origin_id"], name="table_origin_in_group"),
            models.Index(fields=["group", "bgg_play_id"], name="table_bgg_play_in_group"),
        ]
        constraints = [
            # One imported play once per group, whatever two imports of the same file do at once.
            models.UniqueConstraint(
                fields=["group", "source", "origin_id"],
                condition=~models.Q(source=""),
                name="imported_play_once_in_group",
            )
        ]

    def __str__(self):
        return f"{self.game} {self.id}"

    def save(self, *args, **kwargs):
        if not self.played:  # a new table: the game it is played as follows from its options
            facts = base.played_game(registry.get(self.game), self.options)
            self.title = facts.title
            self.played = base.history_key(self.game, library.history_title(facts.bgg_id, facts.title))
        super().save(*args, **kwargs)

    @property
    def imported(self) -> bool:
        """A result kept elsewhere before (BG Stats, BoardGameGeek): no log, no replay."""
        return bool(self.source)

    @property
    def game_name(self) -> str:
        """The game's name as people say it: the pad's title, else the engine's name."""
        return self.title or registry.get(self.game).name


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # The result, written when the table finishes and cleared when an undo reopens it: the
    # statistics aggregate these columns in the database instead of replaying every game.
    score = models.IntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    # Values only this seat's player knows until the end, noted on their phone as they look (a Surf's
    # Up! bluebottle token, issue 30). Never in the table's state, its API answer or its log: the
    # final entry takes them in, and from then on they show.
    hidden_values = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
        ]

    def __str__(self):
        return f"{self.table_id} seat {self.position}"


class Event(models.Model):
    """One entry of a table's log. Rows are never deleted; undo only marks them."""

    # No index of its own: both unique constraints below lead with the table, and serve every
    # lookup by table. An entry then updates three indexes, not five (issue 13).
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    action = FastJSONField()
    # The log sentence is written once, from the state the action was applied to: in English in
    # `text` (the API's and the exports' language), and in each other language of the app where it
    # reads differently, in `texts` ({"fr": ...}; issue 17).
    text = models.TextField(blank=True)
    texts = FastJSONField(default=dict, blank=True)
    # NULL, not "", when absent: the unique constraint below must not treat keyless entries as repeats.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # The table as answered to the write, so that a retried key gets the same answer: stored
    # compact (zlib of its JSON, about a fifth of the size) in `answer` since issue 13; `response`
    # holds the answers of entries written before, as JSON.
    response = FastJSONField(null=True, blank=True)
    answer = models.BinaryField(null=True, editable=False)

    undone = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(fields=["table", "idempotency_key"], name="event_idempotency_key_unique"),
        ]

    def __str__(self):
        return f"{self.table_id} #{self.seq}"

    @property
    def said(self) -> str:
        """The log sentence in the language of the page (English when it has none of its own)."""
        return self.texts.get(translation.get_language(), self.text) if self.texts else self.text

    def stored_answer(self) -> dict | None:
        if self.answer is not None:
            return orjson.loads(zlib.decompress(self.answer))
        return self.response


class KeyedWrite(models.Model):
    """The answer of a write other than an entry (an undo, an abandon, a resume) that carried an
    idempotency key, so that the same request sent twice is applied once (API.md: "every write may
    carry idempotency_key"). An entry's answer is kept on its Event."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="keyed_writes")
    idempotency_key = models.CharField(max_length=64)
    answer = models.BinaryField(editable=False)  # zlib of the answer's JSON, as Event.answer
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "idempotency_key"], name="keyed_write_unique"),
        ]

    def __str__(self):
        return f"{self.table_id} {self.idempotency_key}"

    def stored_answer(self) -> dict:
        return orjson.loads(zlib.decompress(self.answer))
