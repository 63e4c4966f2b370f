"""A login makes its record and names it in the session; a logout deletes it (models.Login)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from . import device
from .models import Login
from .sessions import LOGIN_KEY


@receiver(user_logged_in, dispatch_uid="companion.accounts.login")
def record_login(sender, request, user, **kwargs):
    agent = request.META.get("HTTP_USER_AGENT", "") if request is not None else ""
    login = Login.objects.create(user=user, device=device.describe(agent)[:80])
    request.session[LOGIN_KEY] = login.key


@receiver(user_logged_out, dispatch_uid="companion.accounts.logout")
def end_login(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session"):
        key = request.session.get(LOGIN_KEY)
        if key:
            Login.objects.filter(pk=key).delete()
