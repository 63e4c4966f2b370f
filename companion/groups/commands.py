"""The --group argument of the history's management commands: a group's id, the default group's
when left out."""

from django.core.management.base import CommandError

from .models import DEFAULT_GROUP_ID, Group


def add_group_argument(parser) -> None:
    parser.add_argument(
        "--group", metavar="ID", default=DEFAULT_GROUP_ID, help="the group's id (default: the default group)"
    )


def group_named(group_id: str) -> Group:
    if group_id == DEFAULT_GROUP_ID:
        return Group.default()
    group = Group.objects.filter(pk=group_id).first()
    if group is None:
        raise CommandError(f"There is no group {group_id!r}.")
    return group
