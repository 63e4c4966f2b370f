"""A phone that opened a group's link before logging in: once signed in, its account is a member
(access.py reads a signed-in phone's rights from its account only)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from companion import tokens

from .models import Group, Membership


@receiver(user_logged_in, dispatch_uid="companion.groups.grants_to_memberships")
def grants_become_memberships(sender, request, user, **kwargs):
    grants = request.session.get("groups", {}) if request is not None and hasattr(request, "session") else {}
    for group in Group.objects.filter(pk__in=list(grants)):
        rights = tokens.granted(grants[group.pk], group.links)
        if rights is None:
            continue
        Membership.keep(user, group, rights)
