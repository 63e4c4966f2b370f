from django.db import models


class FloorWrite(models.Model):
    """One row per floor request: the JSON body it was sent."""

    payload = models.JSONField()

    def __str__(self) -> str:
        return f"floor write {self.pk}"
