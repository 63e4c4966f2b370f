"""The story of a night (issue 32): an evening's page, printable, and its share card (a PNG)."""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from companion.groups.access import group_page
from companion.groups.models import Group

from . import night, night_card


def _day(text: str) -> dt.date:
    """The evening the address names: 404 for no date, or one the calendar cannot hold (issue 41)."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise Http404("No such evening") from None
    if not night.FIRST_EVENING <= day <= night.LAST_EVENING:
        raise Http404("No such evening")
    return day


@group_page
def tonight(request, group: Group):
    """The latest evening with a play (tonight when the group is playing)."""
    day = night.latest_evening(group) or night.evening_of(timezone.now(), night.zone(group))
    return redirect("history:night", group.pk, day.isoformat())


@group_page
def night_page(request, group: Group, day: str):
    story = night.night(group, _day(day))
    return render(
        request, "history/night.html", {"group": group, "story": story, "zone_name": night.zone(group).key}
    )


@group_page
def night_png(request, group: Group, day: str):
    story = night.night(group, _day(day))
    response = HttpResponse(night_card.png(story, group.shown_name), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="night-{story["day"].isoformat()}.png"'
    return response
