"""Players, tables, seats and the append-only event log of each table."""

import secrets

from django.db import models
from django.db.models.functions import Lower


def new_table_id() -> str:
    return secrets.token_hex(5)


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Player(models.Model):
    """One person, the same across tables; names are unique ignoring case."""

    name = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("name"), name="player_name_unique_ci")]
        ordering = ["name"]

    def __str__(self):
        return self.name


class Table(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"

    id = models.CharField(primary_key=True, max_length=16, default=new_table_id, editable=False)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    # Bumped by every change, undo included; a write must name the version it saw.
    version = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField(default=dict)
    token = models.CharField(max_length=64, default=new_token, editable=False)
    view_token = models.CharField(max_length=64, default=new_token, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"])]

    def __str__(self):
        return f"{self.game} {self.id}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
        ]

    def __str__(self):
        return f"{self.table_id} seat {self.position}"


class Event(models.Model):
    """One entry of a table's log. Rows are never deleted; undo only marks them."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    action = models.JSONField()
    # The log sentence is written once, from the state the action was applied to.
    text = models.TextField(blank=True)
    # NULL, not "", when absent: the unique constraint below must not treat keyless entries as repeats.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # The table as answered to the write, so that a retried key gets the same answer.
    response = models.JSONField(null=True, blank=True)
    undone = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(fields=["table", "idempotency_key"], name="event_idempotency_key_unique"),
        ]

    def __str__(self):
        return f"{self.table_id} #{self.seq}"
