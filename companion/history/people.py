"""Renaming a person and merging two records of the same person, within their group; their history
follows them."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from companion.games import base
from companion.tables import services
from companion.tables.models import Player, Seat, Table

from .models import PersonOrigin


class PeopleError(Exception):
    """A rename or merge refused, with the sentence to show."""


def rename(player: Player, raw_name) -> Player:
    try:
        name = services.clean_name(raw_name)
    except base.ActionError as error:
        raise PeopleError(error.message) from error
    other = Player.objects.filter(group_id=player.group_id).named(name).exclude(pk=player.pk).first()
    if other is not None:
        raise PeopleError(
            f"{other.name} is already someone: if it is the same person, merge the two instead."
        )
    player.name = name
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
            names_changed(Table.objects.filter(seats__player=player))
    except IntegrityError as error:  # someone took the name a moment ago
        raise PeopleError(
            f"{name} is already someone: if it is the same person, merge the two instead."
        ) from error
    return player


def names_changed(tables) -> None:
    """A person's tables show another name: their kept names are read again when needed, and
    their version moves (API.md: every change does), so the phones showing them look again and
    an entry written against the old names, or kept by a worker (row_cache.py), is stale."""
    services.move_versions(list(tables.values_list("pk", flat=True)), names=None)


def merge(keep: Player, gone: Player) -> Player:
    """Move every seat of `gone` to `keep`, then delete `gone`. Two people who sat at the same
    table cannot be one person, so that is refused and nothing changes."""
    if keep.pk == gone.pk:
        raise PeopleError(_("Pick two different people to merge."))
    if keep.group_id != gone.group_id:
        raise PeopleError(_("Only two people of the same group can be merged."))
    try:
        with transaction.atomic():
            return _merge(keep, gone)
    except ProtectedError as error:  # a table seated `gone` while we moved the seats
        raise PeopleError(_("A table just seated one of them: try the merge again.")) from error


def _merge(keep: Player, gone: Player) -> Player:
    # Lock both people so a concurrent rename or merge of either waits for this one.
    list(Player.objects.select_for_update().filter(pk__in=[keep.pk, gone.pk]))
    shared = list(
        Seat.objects.filter(player=keep, table__seats__player=gone).values_list("table_id", flat=True)
    )
    if shared:
        times = "once" if len(shared) == 1 else f"{len(shared)} times"
        raise PeopleError(
            f"{keep.name} and {gone.name} sat at the same table ({times}), so they are two people: "
            "nothing was merged."
        )
    names_changed(Table.objects.filter(seats__player=gone))
    Seat.objects.filter(player=gone).update(player=keep)
    # Who `gone` was in BG Stats and on BGG is who `keep` is now: a later import finds them (issue 42).
    PersonOrigin.objects.filter(player=gone).update(player=keep)
    gone.delete()
    return keep
