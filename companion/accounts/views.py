"""An account's own pages (issue 41): where it is signed in, with a tap to sign out a lost phone or
every phone at once, and the password change, limited per account and ending every other login."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from companion.pwa.views import CLEAR_SITE_DATA

from .models import Login
from .sessions import LOGIN_KEY
from .signals import start_login


def handle(login: Login) -> str:
    """A login's name in a page's form: not its key, which the cookie holds."""
    return hashlib.sha256(login.key.encode()).hexdigest()[:16]


@login_required
@never_cache
def account(request):
    here = request.session.get(LOGIN_KEY)
    logins = [
        {"login": login, "handle": handle(login), "here": login.key == here}
        for login in Login.objects.counting().filter(user=request.user).order_by("-last_seen")
    ]
    logins.sort(key=lambda item: not item["here"])  # this phone first
    return render(request, "registration/account.html", {"logins": logins})


@login_required
@require_POST
def sign_out(request, login_handle: str):
    """One login ended (a lost phone): its cookie is an empty session on every server from now."""
    login = next((lo for lo in Login.objects.filter(user=request.user) if handle(lo) == login_handle), None)
    if login is None:
        raise Http404("No such login")
    if login.key == request.session.get(LOGIN_KEY):
        return _signed_out_here(request)
    login.delete()
    messages.success(request, _("That phone is signed out."))
    return redirect("account")


@login_required
@require_POST
def sign_out_everywhere(request):
    """Every login of the account ended, this phone's included."""
    Login.objects.filter(user=request.user).delete()
    return _signed_out_here(request)


def _signed_out_here(request):
    logout(request)
    response = redirect(settings.LOGIN_URL)
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


def password_rate(group, request) -> str:
    return settings.RATELIMIT_PASSWORDS


@method_decorator(ratelimit(group="password", key="user_or_ip", rate=password_rate, method="POST"), "post")
class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's, limited per account (a kept cookie must not guess the old password without end).
    The new password ends every login of the account (signals.py); this phone gets a new one."""

    def form_valid(self, form):
        response = super().form_valid(form)
        start_login(self.request, form.user)
        return response
