"""A group's members, and removing one (issue 41).

Renewing a group's links (Group.renew_links) leaves members with an account members: their rights
are their account's. Removing a member takes an account's membership away: its phones, signed in,
reach the group's pages no more at their next request. It also renews the group's links, which
the member may have kept and would join again with. A table has links of its own: a removed member
who opened one keeps it until its links are renewed (the table's page, or `renew_tables`, which
renews those of every table a play link could still write to).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from companion.groups.access import open_to_all
from companion.groups.models import Group, Membership
from companion.tables import services
from companion.tables.models import Table


def may_manage(user, group: Group) -> bool:
    """Who may remove members: the group's owner, an operator (staff), or, in a group started by a
    phone without an account, any member with an account and the member link."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or group.owner_id == user.pk:
        return True
    member = Membership.objects.filter(user=user, group=group).values_list("rights", flat=True).first()
    return group.owner_id is None and member == Membership.Rights.EDIT


class Refused(Exception):
    """A removal refused: the API's code, an HTTP status and the sentence for the person."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


USER_ID_MAX = 2**31 - 1  # an account's id fits the auth table's integer column


def membership_to_remove(user, group: Group, user_id: int) -> Membership:
    """The membership `user` may remove, or Refused saying why (the page and the API alike)."""
    if open_to_all(group.pk):
        raise Refused(403, "open_group", _("The open default group has no members to remove."))
    if not may_manage(user, group):
        raise Refused(403, "not_owner", _("Only the group's owner, signed in, can remove its members."))
    membership = None
    if 0 < user_id <= USER_ID_MAX:
        membership = Membership.objects.select_related("user").filter(group=group, user_id=user_id).first()
    if membership is None:
        raise Refused(404, "not_a_member", _("This account is not a member of the group."))
    if user_id in (user.pk, group.owner_id):
        raise Refused(403, "stays_member", _("The group's owner, and you yourself, stay members."))
    return membership


def members(group: Group) -> list[Membership]:
    return list(group.memberships.select_related("user").order_by("user__username"))


def tables_in_play(group: Group):
    return Table.objects.filter(group=group, status=Table.Status.IN_PROGRESS, abandoned__isnull=True)


def tables_a_link_could_act_on(group: Group):
    """The group's tables whose links still let a phone write: those not finished (in play or
    abandoned, which a play link resumes) and the finished ones without a next game yet (a play
    link starts one, "Play again", in the group)."""
    finished = Q(status=Table.Status.FINISHED)
    return Table.objects.filter(Q(group=group) & (~finished | Q(rematch__isnull=True)))


def remove(group: Group, membership: Membership, renew_tables: bool = False) -> None:
    """The member's membership gone and the group's links renewed; with `renew_tables`, the links
    of every table a link of theirs could still act on too (their phones then need new ones)."""
    with transaction.atomic():
        membership.delete()
        group.renew_links()
        if renew_tables:
            services.renew_links_of(list(tables_a_link_could_act_on(group).values_list("pk", flat=True)))
