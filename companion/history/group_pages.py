"""A group's own pages: start one, join it by its link, its front page (tables, links, games).

They show the group's tables and its history, so they sit in the top layer, with the history
(groups below tables below history: docs/how-it-works.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from companion import tokens
from companion.games import registry
from companion.groups import access
from companion.groups.forms import GroupForm, ZoneForm, time_zones
from companion.groups.models import DEFAULT_GROUP_ID, Group
from companion.tables import access as table_access
from companion.tables import qr
from companion.tables.limits import limit_tables
from companion.tables.models import Table

from . import glance, members

OPEN_TABLES = 20  # in-progress tables the front page lists


@limit_tables
def new_group(request):
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        owner = request.user if request.user.is_authenticated else None
        group = Group.objects.create(name=form.cleaned_data["name"], owner=owner)
        access.grant(request, group, tokens.EDIT)
        return redirect("groups:group", group.pk)
    return render(request, "groups/new.html", {"form": form}, status=400 if form.errors else 200)


def join(request, group_id: str, token: str):
    """A group's share link: remember the rights on this phone (and account), drop the token."""
    group = get_object_or_404(Group, pk=group_id)
    rights = tokens.rights_for_token(group, token)
    if rights is None:
        raise Http404("No such group")
    access.grant(request, group, rights)
    return redirect("groups:group", group.pk)


def share_links(request, group: Group, rights: str) -> dict:
    def link(token: str) -> str:
        return request.build_absolute_uri(reverse("groups:join", args=[group.pk, token]))

    links = {"view": link(group.view_token), "view_qr": reverse("groups:qr", args=[group.pk, "view"])}
    if rights == tokens.EDIT:
        links.update(edit=link(group.token), edit_qr=reverse("groups:qr", args=[group.pk, "edit"]))
        links.update(renew=reverse("groups:renew", args=[group.pk]))
    return links


@access.group_page
def group_home(request, group: Group):
    rights = request.group_rights
    # The group's tables in play, for its members and watchers; the open default group lists none:
    # whoever reaches the server is in it, and a table there stays behind its own links.
    listed = not access.open_to_all(group.pk)
    playing = (
        members.tables_in_play(group).order_by("-created").prefetch_related("seats__player")[:OPEN_TABLES]
        if listed
        else []
    )
    return render(
        request,
        "groups/group.html",
        {
            "group": group,
            "can_edit": rights == tokens.EDIT,
            "engines": registry.all_engines(),
            "group_query": f"?group={group.pk}",  # the game buttons start tables in the group
            "lists_tables": listed,
            "playing": [
                {"table": table, "names": [s.player.name for s in table.seats.all()]} for table in playing
            ],
            "share": None if access.open_to_all(group.pk) else share_links(request, group, rights),
            "rename_form": GroupForm(initial={"name": group.name}),
            "zone_form": ZoneForm(initial={"time_zone": group.time_zone or settings.TIME_ZONE}),
            "time_zones": time_zones() if rights == tokens.EDIT else [],
            "glance": glance.figures(group),
            **_members_context(request, group),
        },
    )


def _members_context(request, group: Group) -> dict:
    """The group's members with an account (a private deployment's), for those who may see them."""
    if access.open_to_all(group.pk) or not request.user.is_authenticated:
        return {"members": [], "may_manage": False}
    return {
        "members": members.members(group),
        "may_manage": members.may_manage(request.user, group),
        "tables_in_play": members.tables_in_play(group).count(),
    }


@require_POST
@access.group_page
def renew_links(request, group: Group):
    """New member and watch links (issue 41): the old ones open nothing from now on."""
    if request.group_rights != tokens.EDIT or access.open_to_all(group.pk):
        return HttpResponseForbidden(_("Only a member can renew the group's links."))
    group.renew_links()
    if not request.user.is_authenticated:  # an account's rights are its membership, left as it is
        access.grant(request, group, tokens.EDIT)  # this phone stays a member
    messages.success(
        request, _("New links made: the old ones open nothing now. Share the new ones with who should join.")
    )
    return redirect("groups:group", group.pk)


@require_POST
@access.group_page
def remove_member(request, group: Group, user_id: int):
    """The owner takes a member out of the group (issue 41)."""
    try:
        membership = members.membership_to_remove(request.user, group, user_id)
    except members.Refused as refused:
        if refused.status == 404:
            raise Http404("No such member") from refused
        return HttpResponseForbidden(refused.message)
    renew_tables = request.POST.get("renew_tables") == "on"
    members.remove(group, membership, renew_tables)
    name = membership.user.get_username()
    if renew_tables:
        done = _("{name} is no longer a member; the group's links and those of its tables are new.")
    else:
        done = _("{name} is no longer a member, and the group's links are new.")
    messages.success(request, done.format(name=name))
    return redirect("groups:group", group.pk)


@require_POST
@access.group_page
def rename(request, group: Group):
    """A member renames the group; its links stay the same."""
    form = GroupForm(request.POST)
    if form.is_valid():
        old = group.name
        Group.objects.filter(pk=group.pk).update(name=form.cleaned_data["name"])
        messages.success(request, f"{old} is now called {form.cleaned_data['name']}.")
    else:
        messages.error(request, " ".join(form.errors["name"]))
    return redirect("groups:group", group.pk)


@require_POST
@access.group_page
def set_zone(request, group: Group):
    """Where the group plays: its nights and dates follow (issue 32)."""
    form = ZoneForm(request.POST)
    if form.is_valid():
        Group.objects.filter(pk=group.pk).update(time_zone=form.cleaned_data["time_zone"])
        messages.success(
            request, _("The group's evenings now follow {zone}.").format(zone=form.cleaned_data["time_zone"])
        )
    else:
        messages.error(request, _("Choose a time zone from the list."))
    return redirect("groups:group", group.pk)


@access.group_page
def open_table(request, group: Group, table_id: str):
    """A table of the group, opened from its front page with the rights this phone holds in the
    group: a member plays, a watcher watches. Not the open default group's: its tables keep to
    their own links."""
    if access.open_to_all(group.pk):
        raise Http404("No such table")
    table = get_object_or_404(Table, pk=table_id, group=group)
    rights = request.group_rights
    table_access.grant(request, table, rights)
    return redirect("tables:table", table.id)


@require_GET
@access.group_page
def qr_code(request, group: Group, kind: str):
    rights = request.group_rights
    if kind not in ("edit", "view"):
        raise Http404("No such link")
    if kind == "edit" and rights != tokens.EDIT:
        return HttpResponseForbidden(_("Only a member can share the member link."))
    token = group.token if kind == "edit" else group.view_token
    url = request.build_absolute_uri(reverse("groups:join", args=[group.pk, token]))
    return HttpResponse(qr.svg(url), content_type="image/svg+xml")


def legacy_history(request, rest: str):
    """/history/... from before groups: the same page of the default group's history."""
    return redirect(
        f"/g/{DEFAULT_GROUP_ID}/history/{rest}" + (f"?{request.GET.urlencode()}" if request.GET else "")
    )
