"""A login makes its record and names it in the session (a logout deletes it: sessions.py's flush);
a new password (changed on any phone, by `manage.py changepassword`, or rehashed by Django) or an
account turned off deletes them all (models.Login). The phone that changes its own password gets a
new one (views.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import pre_save
from django.dispatch import receiver

from . import device
from .models import Login
from .sessions import LOGIN_KEY


@receiver(user_logged_in, dispatch_uid="companion.accounts.login")
def record_login(sender, request, user, **kwargs):
    start_login(request, user)


def start_login(request, user) -> None:
    """A new login for this phone; the one it had before (logged in again, or a new password)
    ends, else a copy of its cookie from before would count on."""
    previous = request.session.get(LOGIN_KEY)
    if previous:
        Login.objects.filter(pk=previous).delete()
    agent = request.META.get("HTTP_USER_AGENT", "")
    login = Login.objects.create(user=user, device=device.describe(agent)[:80])
    request.session[LOGIN_KEY] = login.key


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="companion.accounts.password")
def new_password_ends_logins(sender, instance, update_fields=None, **kwargs):
    """A new password, or an account turned off (is_active), ends every login of the account."""
    if instance.pk is None or (
        update_fields is not None and not {"password", "is_active"} & set(update_fields)
    ):
        return
    kept = sender.objects.filter(pk=instance.pk).values_list("password", "is_active").first()
    if kept is not None and (kept[0] != instance.password or (kept[1] and not instance.is_active)):
        Login.objects.filter(user_id=instance.pk).delete()
