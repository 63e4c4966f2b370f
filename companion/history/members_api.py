"""The API's renewal of a group's links and its members (issue 41), beside group_api.py's routes.

POST /groups/{id}/links (the member token) answers new tokens. GET /groups/{id}/members lists the
accounts that are members; DELETE /groups/{id}/members/{user id} removes one, for the group's owner
signed in (a private deployment's account), and renews the group's links as the page does.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Router, Schema

from companion.groups import access
from companion.groups.models import Membership
from companion.json_api import ERRORS, ApiError, api, error_body, json_answer
from companion.tables.limits import check_writes

from . import members
from .group_api import GroupCreatedOut

router = Router(tags=["groups"])


class MemberOut(Schema):
    id: int
    username: str
    rights: str
    owner: bool


@router.post("/{group_id}/links", response={200: GroupCreatedOut, 429: ERRORS[400], **ERRORS})
def renew_group_links(request, group_id: str):
    check_writes(request)
    group = access.group_for(request, group_id, write=True)
    if access.open_to_all(group.pk):
        raise ApiError(
            403, error_body("open_group", _("The open default group has no links to renew."))["error"]
        )
    group.renew_links()
    answer = {"id": group.pk, "name": group.name, "token": group.token, "view_token": group.view_token}
    links = {
        "url": reverse("groups:join", args=[group.pk, group.token]),
        "view_url": reverse("groups:join", args=[group.pk, group.view_token]),
    }
    return json_answer({**answer, **links})


@router.get("/{group_id}/members", response={200: list[MemberOut], **ERRORS})
def list_members(request, group_id: str):
    group = access.group_for(request, group_id)
    return [
        {
            "id": m.user_id,
            "username": m.user.get_username(),
            "rights": m.rights,
            "owner": m.user_id == group.owner_id,
        }
        for m in members.members(group)
    ]


@router.delete("/{group_id}/members/{user_id}", response={204: None, 429: ERRORS[400], **ERRORS})
def remove_member(request, group_id: str, user_id: int, renew_tables: bool = False):
    check_writes(request)
    group = access.group_for(request, group_id, write=True)
    if not members.may_manage(request.user, group):
        message = _("Only the group's owner, signed in, can remove its members.")
        raise ApiError(403, error_body("not_owner", message)["error"])
    membership = Membership.objects.filter(group=group, user_id=user_id).first()
    if membership is None:
        raise ApiError(
            404, error_body("not_a_member", _("This account is not a member of the group."))["error"]
        )
    if user_id in (request.user.pk, group.owner_id):
        message = _("The group's owner, and you yourself, stay members.")
        raise ApiError(403, error_body("stays_member", message)["error"])
    members.remove(group, membership, renew_tables)
    return HttpResponse(status=204)


api.add_router("/groups", router)
