"""request.user from the account the session engine checked (sessions.py): the query that read
the login also read the account, so Django's second one for it (auth.get_user) is not made."""

from __future__ import annotations

from django.contrib.auth import middleware
from django.contrib.auth.models import AnonymousUser
from django.utils.functional import SimpleLazyObject


def signed_in_user(request):
    if not hasattr(request, "_cached_user"):
        account = request.session.signed_in_account()
        request._cached_user = account if account is not None else AnonymousUser()
    return request._cached_user


class AuthenticationMiddleware(middleware.AuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)  # its checks, and request.auser
        request.user = SimpleLazyObject(lambda: signed_in_user(request))
