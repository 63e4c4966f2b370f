"""The group the nav's history links open: the page's own group (set on the request by the
group's pages and a table's page), else the open default group. No query."""

from django.conf import settings

from .models import DEFAULT_GROUP_ID


def nav_group(request):
    group_id = getattr(request, "group_id", None) or (DEFAULT_GROUP_ID if settings.DEFAULT_GROUP else None)
    return {"nav_group_id": group_id}
