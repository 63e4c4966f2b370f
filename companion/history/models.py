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
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PREVIEW)
    done = models.PositiveIntegerField(default=0)  # plays written so far
    total = models.PositiveIntegerField(default=0)
    answer = models.JSONField(null=True, blank=True)  # the import's summary (API.md's answer)
    error = models.TextField(blank=True)
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"{self.file_format} import into {self.group_id} ({self.status})"
