"""A group's members, and removing one (issue 41).

Renewing a group's links (Group.renew_links) leaves members with an account members: their rights
are their account's. Removing a member takes an account's membership away: its phones, signed in,
reach the group's pages no more at their next request. It also renews the group's links, which
the member may have kept and would join again with. A table in play has links of its own: a
removed member who opened one keeps it until its links are renewed (the table's page, or
`renew_tables`).
"""

from __future__ import annotations

from django.db import transaction

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


def members(group: Group) -> list[Membership]:
    return list(group.memberships.select_related("user").order_by("user__username"))


def tables_in_play(group: Group):
    return Table.objects.filter(group=group, status=Table.Status.IN_PROGRESS, abandoned__isnull=True)


def remove(group: Group, membership: Membership, renew_tables: bool = False) -> None:
    """The member's membership gone and the group's links renewed; with `renew_tables`, the
    links of every table in play too (its phones then need the new ones)."""
    with transaction.atomic():
        membership.delete()
        group.renew_links()
    if renew_tables:
        for table_id in tables_in_play(group).values_list("pk", flat=True):
            services.renew_links(table_id)
