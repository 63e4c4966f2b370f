"""The API's renewal of a group's links and its members (issue 41), beside group_api.py's routes.

POST /groups/{id}/links (the member token) answers new tokens. GET /groups/{id}/members lists the
accounts that are members; DELETE /groups/{id}/members/{user id} removes one, for the group's owner
signed in (a private deployment's account), and renews the group's links as the page does.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from ninja import Router, Schema

from companion.groups import access
from companion.json_api import ERRORS, ApiError, api, error_body, json_answer
from companion.tables.limits import check_writes

from . import members
from .group_api import GroupCreatedOut, created_answer

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
    return json_answer(created_answer(group))


@router.get("/{group_id}/members", response={200: list[MemberOut], **ERRORS})
def list_members(request, group_id: str):
    group = access.group_for(request, group_id)
    if access.open_to_all(group.pk):  # whoever reaches the server is in it: no one's names to list
        message = _("The open default group has no members to list.")
        raise ApiError(403, error_body("open_group", message)["error"])
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
    try:
        membership = members.membership_to_remove(request.user, group, user_id)
    except members.Refused as refused:
        raise ApiError(refused.status, error_body(refused.code, refused.message)["error"]) from refused
    members.remove(group, membership, renew_tables)
    return HttpResponse(status=204)


api.add_router("/groups", router)
