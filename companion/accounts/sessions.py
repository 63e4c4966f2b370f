"""The session engine (settings.SESSION_ENGINE): Django's signed cookies, whose signed-in ones
count only while their login is on record (models.Login, issue 41).

A table's phone keeps its grants in the cookie and costs no query to read them, as before. A
signed-in cookie costs one query, which also reads the account (middleware.py hands it to
request.user, so that Django's own query for it is not made): the login is still on record, not
past its lifetime nor idle too long, and the account's password is the one it was made with
(Django's session hash). Otherwise the cookie is an empty session: not signed in, and holding none
of the grants it held, so that a cookie kept after a logout opens no table, group or stream.
"""

from __future__ import annotations

import datetime as dt

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends import signed_cookies
from django.utils import timezone
from django.utils.crypto import constant_time_compare

LOGIN_KEY = "_login"  # the session's key of its login's record


def lifetime() -> dt.timedelta:
    return dt.timedelta(days=settings.COMPANION_SESSION_DAYS)


def idle_limit() -> dt.timedelta:
    return dt.timedelta(days=settings.COMPANION_SESSION_IDLE_DAYS)


# A login's last_seen is written when it is older than this: a write per phone every few minutes
# at most, and the idle limit is kept to within this much.
SEEN_STEP = dt.timedelta(minutes=5)


class SessionStore(signed_cookies.SessionStore):
    account = None  # the account the cookie is signed in as, once load() checked it

    def load(self):
        data = super().load()
        if SESSION_KEY not in data:
            return data  # a phone without an account: its grants, no query
        self.account = signed_in_account(data)
        if self.account is None:
            self.create()  # the cookie is replaced by an empty session's
            return {}
        current = self.account.get_session_auth_hash()
        if data.get(HASH_SESSION_KEY) != current:  # made under a fallback secret: renewed, as Django does
            data[HASH_SESSION_KEY] = current
            self.modified = True
        return data

    async def aload(self):
        data = super().load()
        if SESSION_KEY not in data:
            return data
        return await sync_to_async(self.load)()

    def signed_in_account(self):
        """The account checked when the session was read (reading it now if not yet), or None."""
        self._get_session()
        return self.account

    @classmethod
    def clear_expired(cls):
        """`manage.py clearsessions`: the records of logins past their lifetime or idle too long."""
        from .models import Login

        now = timezone.now()
        Login.objects.filter(created__lt=now - lifetime()).delete()
        Login.objects.filter(last_seen__lt=now - idle_limit()).delete()


def signed_in_account(data: dict):
    """The account of a signed-in session's data, or None when its login no longer counts."""
    from .models import Login

    key, backend = data.get(LOGIN_KEY), data.get(BACKEND_SESSION_KEY)
    if not key or backend not in settings.AUTHENTICATION_BACKENDS:
        return None  # a session from before logins were kept: signed out once
    login = Login.objects.select_related("user").filter(pk=key, user_id=data[SESSION_KEY]).first()
    if login is None:
        return None
    now, user = timezone.now(), login.user
    if login.created < now - lifetime() or login.last_seen < now - idle_limit() or not user.is_active:
        login.delete()
        return None
    if not _password_unchanged(user, data.get(HASH_SESSION_KEY) or ""):
        login.delete()  # signed in with a password since changed (on any phone, or by changepassword)
        return None
    if login.last_seen < now - SEEN_STEP:
        Login.objects.filter(pk=login.pk).update(last_seen=now)
    user.backend = backend
    return user


def _password_unchanged(user, session_hash: str) -> bool:
    """Django's own check (django.contrib.auth.get_user), fallback secrets included."""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(session_hash, known) for known in hashes)
