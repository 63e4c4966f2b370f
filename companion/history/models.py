"""An import from BG Stats or BoardGameGeek in progress (issue 29): the file between its preview and
its import, and, for a large file, the import running in the background with its progress."""

import uuid

from django.db import models
from django.utils import timezone


class ImportJob(models.Model):
    class Status(models.TextChoices):
        PREVIEW = "preview"  # read and shown; waiting for the member to say go
        RUNNING = "running"  # being written, in the background
        DONE = "done"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    group = models.ForeignKey("groups.Group", on_delete=models.CASCADE, related_name="import_jobs")
    file_format = models.CharField(max_length=16)  # "bgstats" or "bgg"
    content = models.BinaryField()  # the file as sent, read again for the import itself
    names = models.JSONField(default=dict)  # the member's choices: a name in the file -> a player's
    zone = models.CharField(max_length=64, blank=True)  # the file's times are read there (issue 42)
    keep = models.JSONField(default=list)  # plays "probably here already" the member keeps
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PREVIEW)
    done = models.PositiveIntegerField(default=0)  # plays written so far
    total = models.PositiveIntegerField(default=0)
    answer = models.JSONField(null=True, blank=True)  # the import's summary (API.md's answer)
    error = models.TextField(blank=True)
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"{self.file_format} import into {self.group_id} ({self.status})"


class PersonOrigin(models.Model):
    """Who a person is in a file they came from (issue 42): a BG Stats player's uuid, a BGG
    user's id or username. A later import, from either app, finds the same player by it before it
    looks at names, and two people of one name stay two. `data` keeps the file's own record of
    the person (BG Stats' player object), given back by the export."""

    group = models.ForeignKey("groups.Group", on_delete=models.CASCADE, related_name="person_origins")
    player = models.ForeignKey("tables.Player", on_delete=models.CASCADE, related_name="origins")
    key = models.CharField(max_length=100)  # "bgstats:<uuid>", "bgg-user:<userid>", "bgg-name:<username>"
    data = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "key"], name="person_origin_once_in_group")]

    def __str__(self):
        return f"{self.key} -> {self.player_id}"


class ThingOrigin(models.Model):
    """A BG Stats game or location as the file gave it (issue 42), by its uuid: the export gives
    back the same object, so that BG Stats knows its own games and places again."""

    group = models.ForeignKey("groups.Group", on_delete=models.CASCADE, related_name="thing_origins")
    kind = models.CharField(max_length=16)  # "game" or "location"
    uuid = models.CharField(max_length=100)
    data = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "kind", "uuid"], name="thing_origin_once_in_group")
        ]

    def __str__(self):
        return f"{self.kind} {self.uuid}"


class SetAsidePlay(models.Model):
    """A play BG Stats marks `ignored` (left out of its statistics; issue 42): kept, out of every
    figure here too, and given back by the export as ignored."""

    group = models.ForeignKey("groups.Group", on_delete=models.CASCADE, related_name="set_aside_plays")
    source = models.CharField(max_length=16)
    origin_id = models.CharField(max_length=64)
    bgg_play_id = models.PositiveBigIntegerField(null=True, blank=True)
    data = models.JSONField()  # the play as importers/origin.py keeps an imported play's origin

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["group", "source", "origin_id"], name="set_aside_play_once_in_group"
            )
        ]

    def __str__(self):
        return f"{self.source} {self.origin_id} (set aside)"
