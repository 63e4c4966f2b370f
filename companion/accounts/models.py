"""A login of an account (issue 41): the one thing that makes a session's cookie count as signed in.

Sessions are signed cookies (a table's phone needs no row anywhere), so a copied cookie stays
valid as long as its signature does. A login's record is what the server can take back: the
cookie names its key, logging out deletes it, and a cookie whose record is gone is an empty
session again (sessions.py), on every server at once since they share the database.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_login_key() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


class Logins(models.QuerySet):
    def counting(self, now=None):
        """Those still counting: within their lifetime and not idle too long (settings)."""
        from .sessions import idle_limit, lifetime

        now = now or timezone.now()
        return self.filter(created__gte=now - lifetime(), last_seen__gte=now - idle_limit())


class Login(models.Model):
    key = models.CharField(primary_key=True, max_length=64, default=new_login_key, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="logins")
    created = models.DateTimeField(default=timezone.now)
    # Moved on at most every sessions.SEEN_STEP, so that a page costs no write each time.
    last_seen = models.DateTimeField(default=timezone.now)
    device = models.CharField(max_length=80, blank=True)  # "Firefox · Android", for the account page

    objects = Logins.as_manager()

    class Meta:
        indexes = [models.Index(fields=["user", "-last_seen"], name="login_user_seen")]

    def __str__(self):
        return f"{self.user} since {self.created:%Y-%m-%d}"
