"""The session engine (settings.SESSION_ENGINE): Django's signed cookies, whose signed-in ones
count only while their login is on record (models.Login, issue 41).

A table's phone keeps its grants in the cookie and costs no query to read them, as before. A
signed-in cookie costs one small query: its login is still on record, not past its lifetime nor
idle too long. Otherwise the cookie is an empty session: not signed in, and holding none of the
grants it held, so that a cookie kept after a logout opens no table, group or stream. (The account
itself is read only where a page needs it, by Django's own request.user, which also checks the
password is the one the session was made with; a password change ends the account's logins too:
signals.py.)

Measured against Django's server-side sessions (bench/sessions.py): see docs/performance.md.
"""

from __future__ import annotations

import datetime as dt

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import signed_cookies
from django.db import connection
from django.utils import timezone

LOGIN_KEY = "_login"  # the session's key of its login's record
# A login's last_seen is written when it is older than this: a write per phone every few minutes
# at most, and the idle limit is kept to within this much.
SEEN_STEP = dt.timedelta(minutes=5)


def lifetime() -> dt.timedelta:
    return dt.timedelta(days=settings.COMPANION_SESSION_DAYS)


def idle_limit() -> dt.timedelta:
    return dt.timedelta(days=settings.COMPANION_SESSION_IDLE_DAYS)


class SessionStore(signed_cookies.SessionStore):
    def load(self):
        data = super().load()
        if SESSION_KEY in data and not login_counts(data.get(LOGIN_KEY), data[SESSION_KEY]):
            self.create()  # the cookie is replaced by an empty session's
            return {}
        return data

    def flush(self):
        """A session emptied (a logout; a login as another account on this phone) ends its login:
        a copy of its cookie kept from before then counts for nothing."""
        key = self._get_session().get(LOGIN_KEY)
        super().flush()
        if key:
            from .models import Login

            Login.objects.filter(pk=key).delete()

    async def aload(self):
        data = super().load()
        if SESSION_KEY not in data:
            return data  # a phone without an account: no query
        return await sync_to_async(self.load)()

    @classmethod
    def clear_expired(cls):
        """`manage.py clearsessions`: the records of logins past their lifetime or idle too long."""
        from .models import Login

        Login.objects.exclude(pk__in=Login.objects.counting().values("pk")).delete()


def login_counts(key, user_id) -> bool:
    """The login is on record for this account and counting (Logins.counting's rules); its
    last_seen is moved on when older than SEEN_STEP. Written out: the ORM's query builder cost more
    than the query (the request a live table makes most, a poll, made one)."""
    from .models import Login

    if not isinstance(key, str) or not key or not str(user_id).isdigit():
        return False  # a session from before logins were kept: signed out once
    now, adapt, quote = timezone.now(), connection.ops.adapt_datetimefield_value, connection.ops.quote_name
    table, seen = quote(Login._meta.db_table), quote("last_seen")
    sql = (
        f"SELECT {seen} >= %s FROM {table} WHERE {quote('key')} = %s AND {quote('user_id')} = %s"
        f" AND {quote('created')} >= %s AND {seen} >= %s"
    )
    params = [adapt(now - SEEN_STEP), key, int(user_id), adapt(now - lifetime()), adapt(now - idle_limit())]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    if found is None:
        return False
    if not found[0]:
        Login.objects.filter(pk=key).update(last_seen=now)
    return True
