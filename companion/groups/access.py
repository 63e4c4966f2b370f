"""Who may read or edit a group's history and start its tables.

Exactly as a table (tables/access.py): a share link puts the rights in the phone's session, naming
the links' generation (renewed links leave old grants with nothing, issue 41), the API sends a
token in the Authorization header. An account that opens a link keeps the rights as a Membership
instead, which its group's owner can remove: a signed-in phone's rights are its account's, never
its session's (else a removed member's phones would keep theirs). The default group, while
settings.DEFAULT_GROUP is on, is open to whoever reaches the server (a LAN game night needs no link).
"""

from __future__ import annotations

import re
from functools import wraps
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.http import Http404, HttpResponseForbidden
from django.utils import timezone
from django.utils.translation import gettext as _

from companion import errors, tokens
from companion.json_api import ApiError, error_body
from companion.tokens import EDIT  # a group's tokens read as a table's

from .models import DEFAULT_GROUP_ID, Group, Membership

GROUP_ID = re.compile(r"[0-9a-z]{1,16}")
MAX_GRANTS = 30  # groups one phone remembers (the session is a cookie of at most 4 kB)


def open_to_all(group_id: str) -> bool:
    return group_id == DEFAULT_GROUP_ID and settings.DEFAULT_GROUP


def _grants(request) -> dict:
    return request.session.get("groups", {})


def _account(request):
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def grant(request, group: Group, rights: str) -> None:
    account = _account(request)
    if account is not None:
        Membership.keep(account, group, rights)
        return
    grants = _grants(request)
    if tokens.granted(grants.pop(group.pk, None), group.links) == EDIT:  # never downgrade
        rights = EDIT
    grants[group.pk] = tokens.grant_value(rights, group.links)  # re-inserted last: oldest first
    while len(grants) > MAX_GRANTS:
        grants.pop(next(iter(grants)))
    request.session["groups"] = grants


def rights(request, group: Group | str) -> str | None:
    """This phone's (or account's) rights in the group: a Group, or its id (then, for a phone's
    grant, one query for the links' generation)."""
    group_id = group if isinstance(group, str) else group.pk
    if open_to_all(group_id):
        return EDIT
    account = _account(request)
    if account is not None:
        return (
            Membership.objects.filter(user=account, group_id=group_id)
            .values_list("rights", flat=True)
            .first()
        )
    held = _grants(request).get(group_id)
    if not held:
        return None
    links = group.links if not isinstance(group, str) else _links_of(group_id)
    return None if links is None else tokens.granted(held, links)


def _links_of(group_id: str) -> int | None:
    return Group.objects.filter(pk=group_id).values_list("links", flat=True).first()


def links_renewed(request, group: Group) -> bool:
    """This phone opened the group's links before they were renewed."""
    return _account(request) is None and tokens.renewed(_grants(request).get(group.pk), group.links)


def may_import(request, group: Group) -> bool:
    """An import writes a whole history at once: into the open default group only from a phone
    that opened its member link (printed by `make run`) or a signed-in account, not from whoever
    reaches the server (issue 28). Any other group's members import as they edit."""
    if not open_to_all(group.pk):
        return rights(request, group) == EDIT
    return (
        _account(request) is not None or tokens.granted(_grants(request).get(group.pk), group.links) == EDIT
    )


def known_group_ids(request) -> list[str]:
    """The groups this phone may open (a phone's grants of renewed links included: known_groups
    leaves those out), newest first, the open default group last."""
    account = _account(request)
    if account is not None:
        ids = list(account.group_memberships.order_by("-joined").values_list("group_id", flat=True))
    else:
        ids = list(reversed(_grants(request)))
    if settings.DEFAULT_GROUP and DEFAULT_GROUP_ID not in ids:
        ids.append(DEFAULT_GROUP_ID)
    return ids


def find_group(group_id: str) -> Group | None:
    """The group of this id; the open default group even before its first use makes its row."""
    group = Group.objects.filter(pk=group_id).first()
    if group is None and open_to_all(group_id):
        group = Group.default()
    return group


def group_zone(group: Group) -> ZoneInfo:
    """The group's time zone (Group.time_zone), else the server's."""
    try:
        return ZoneInfo(group.time_zone or settings.TIME_ZONE)
    except (ValueError, ZoneInfoNotFoundError):  # a zone this system's database no longer knows
        return ZoneInfo(settings.TIME_ZONE)


def group_page(view):
    """A page of a group (its history): 404 without rights, so a group's existence does not leak,
    403 for a watcher's write. The view gets the group; the request remembers it for the nav."""

    @wraps(view)
    def wrapped(request, group_id: str, *args, **kwargs):
        group = find_group(group_id) if GROUP_ID.fullmatch(group_id) else None
        held = rights(request, group) if group is not None else None
        if held is None:
            if group is not None and links_renewed(request, group):
                raise errors.LinksRenewed("group")
            raise Http404("No such group")
        if request.method not in ("GET", "HEAD") and held != EDIT:
            return HttpResponseForbidden(_("This link only lets you watch the group's history."))
        request.group_id, request.group, request.group_rights = group.pk, group, held
        with timezone.override(group_zone(group)):  # its pages say times where it plays (issue 42)
            return view(request, group, *args, **kwargs)

    return wrapped


def known_groups(request) -> list[Group]:
    """The groups this phone can open, in known_group_ids's order."""
    ids = known_group_ids(request)
    found = Group.objects.in_bulk(ids)
    if open_to_all(DEFAULT_GROUP_ID) and DEFAULT_GROUP_ID not in found:
        found[DEFAULT_GROUP_ID] = Group.default()
    account, grants = _account(request), _grants(request)

    def holds(group: Group) -> bool:  # an account's are its memberships; a phone's, its live grants
        return (
            account is not None or open_to_all(group.pk) or tokens.granted(grants.get(group.pk), group.links)
        )

    return [found[gid] for gid in ids if gid in found and holds(found[gid])]


def group_for(request, group_id: str, write: bool = False) -> Group:
    """The group, or the error API.md names: 404 unknown, 401 without its token, 403 a view
    token on a write."""
    group = find_group(group_id) if GROUP_ID.fullmatch(group_id) else None
    if group is None:
        raise ApiError(404, error_body("not_found", _("There is no group with this id."))["error"])
    if open_to_all(group.pk):
        return group
    rights = tokens.rights_for_token(group, tokens.bearer_token(request))
    if rights is None:
        raise ApiError(401, error_body("unauthorized", _("This group needs its token."))["error"])
    if write and rights != tokens.EDIT:
        raise ApiError(403, error_body("read_only", _("The view token can only read this group."))["error"])
    return group
