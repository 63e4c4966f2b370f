"""The history pages: archive, one play, its replay, people and games. Figures come from stats
(database aggregates) and replay (the engine on the log); the views only fetch and render."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from companion.games import base, registry, screen_kit
from companion.games.base import name_seats
from companion.groups.access import group_page
from companion.groups.models import Group
from companion.tables import replay, score_chart, services
from companion.tables.models import Player, Table

from . import bgstats, glance, kept, people, ratings, results, stats
from .forms import ArchiveFilterForm, MergeForm, PlayDetailsForm, RenameForm
from .play_rows import play_row
from .views_figures import player_page

PAGE_SIZE = 25


@group_page
def archive(request, group: Group):
    stamp = ratings.history_stamp(group)  # read once: the games and the figures at a glance
    games = kept.figures(group, "games", lambda: stats.games_overview(group), stamp)
    form = ArchiveFilterForm(group, request.GET or None, games=games)
    game, player = "", None
    if form.is_valid():
        game, player = form.cleaned_data["game"], form.cleaned_data["player"]
    chosen = stats.played(group, game) if game else None  # with its twin pads (same_game.py)
    keys = list(chosen.keys) if chosen else game or None
    page = Paginator(stats.plays(group, keys, player), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "history/archive.html",
        {
            "group": group,
            "form": form,
            "page": page,
            "rows": [play_row(table) for table in stats.detailed(page.object_list)],
            "query": query.urlencode(),
            "games": games,
            "abandoned_count": Table.objects.filter(group=group, abandoned__isnull=False).count(),
            "filtered": bool(game or player),
            "glance": None if game or player or page.number > 1 else glance.figures(group, stamp=stamp),
        },
    )


@group_page
def abandoned(request, group: Group):
    return render(
        request,
        "history/abandoned.html",
        {"group": group, "rows": [play_row(table) for table in stats.abandoned(group)]},
    )


def _kept_table(group: Group, table_id: str) -> Table:
    """A finished or abandoned table of the group with the archive's annotations; others are not
    its history."""
    tables = stats.with_seats_and_length(Table.objects.filter(pk=table_id, group=group))
    table = tables.filter(Q(status=Table.Status.FINISHED) | Q(abandoned__isnull=False)).first()
    if table is None:
        raise Http404("This table is not in the history (yet).")
    return table


@group_page
def play(request, group: Group, table_id: str):
    table = _kept_table(group, table_id)
    if request.method == "POST":
        form = PlayDetailsForm(request.POST)
        if form.is_valid():
            # A new length changes the figures: the version moves, as every change's does (API.md),
            # so the history's stamp and the figures kept under it follow (resumable.py).
            with transaction.atomic():
                services.move_versions([table.pk], **form.cleaned_data)
            messages.success(request, "Saved.")
            return redirect("history:play", group.pk, table.id)
    else:
        form = PlayDetailsForm(
            initial={
                "place": table.place,
                "duration_minutes": table.duration_minutes,
                "comments": table.comments,
            }
        )
    names = [seat.player.name for seat in table.seats.all()]
    data = services.table_json(table, names)
    events = replay.live_events(table)
    row = play_row(table)
    screen = registry.screen(table.game).context(data, viewer_of(events))
    if table.imported and table.status == Table.Status.FINISHED:  # the file's result, not the pad's
        screen = {**screen, **results.result(table, row["seats"])}
    return render(
        request,
        "history/play.html",
        {
            **row,
            "row": row,
            "group": group,
            "form": form,
            "data": data,
            "screen": screen,
            "game_dir": registry.template_dir(table.game),
            "entries": len(events),
            "chart": score_chart.table_chart(table, names, events),
            "bgstats_link": bgstats.play_link(table) if table.status == Table.Status.FINISHED else "",
        },
        status=400 if form.errors else 200,
    )


@group_page
def replay_step(request, group: Group, table_id: str):
    table = _kept_table(group, table_id)
    if table.imported:  # a result kept elsewhere: no log to replay
        return redirect("history:play", group.pk, table.id)
    events = replay.live_events(table)
    last = len(events)
    raw = request.GET.get("step", str(last))
    digits = raw.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):  # "²" and "--1" were a 500 (issue 41)
        return HttpResponseBadRequest(_("The step must be a whole number."))
    # Before the first entry or past the last: the first or the last (int() refuses 5,000 digits).
    number = screen_kit.number(digits)
    step = 0 if raw.startswith("-") else last if number is None else min(number, last)
    names = [seat.player.name for seat in table.seats.all()]
    try:
        state = replay.state_after(table, events, step)
    except base.ActionError as error:
        # Only a log written under older rules can fail; say so rather than fail the page.
        return render(
            request,
            "history/replay_broken.html",
            {**play_row(table), "group": group, "message": name_seats(error.message, names)},
            status=409,
        )
    data = services.table_json(table, names, state)
    # A game with a sheet per seat (Summer Suns) shows the sheet asked for, the first one at first.
    seat = screen_kit.number(request.GET.get("view", "0"))
    view = str(seat) if seat is not None and seat < len(names) else "0"
    viewer = screen_kit.Viewer(query={"view": view}, log=viewer_of(events[:step]).log)
    return render(
        request,
        "history/replay.html#live" if request.htmx else "history/replay.html",
        {
            **play_row(table),
            "group": group,
            "data": data,
            "names": names,
            "engine": services.engine_for(table),
            "game_dir": registry.template_dir(table.game),
            "screen": registry.screen(table.game).context(data, viewer),
            "panel_query": f"step={step}&",
            "view_query": f"&view={view}",
            "step": step,
            "last": last,
            "entry": events[step - 1] if step else None,
            "previous": max(step - 1, 0),
            "next": min(step + 1, last),
        },
    )


def viewer_of(events) -> screen_kit.Viewer:
    """A read-only viewer whose log is `events`, newest first, as a table page passes it."""
    return screen_kit.Viewer(log=[(event.seq, event.action) for event in reversed(events)])


@require_POST
@group_page
def rename_player(request, group: Group, player_id: int):
    person = get_object_or_404(Player, pk=player_id, group=group)
    form = RenameForm(request.POST)
    if form.is_valid():
        old = person.name
        try:
            people.rename(person, form.cleaned_data["name"])
        except people.PeopleError as error:
            form.add_error("name", str(error))
        else:
            messages.success(request, f"{old} is now called {person.name}.")
            return redirect("history:player", group.pk, person.pk)
    person.refresh_from_db()
    return player_page(request, group, person, rename_form=form, status=400)


@require_POST
@group_page
def merge_player(request, group: Group, player_id: int):
    person = get_object_or_404(Player, pk=player_id, group=group)
    form = MergeForm(person, request.POST)
    if form.is_valid():
        other = form.cleaned_data["other"]
        try:
            people.merge(person, other)
        except people.PeopleError as error:
            form.add_error("other", str(error))
        else:
            messages.success(request, f"{other.name}'s plays now belong to {person.name}.")
            return redirect("history:player", group.pk, person.pk)
    return player_page(request, group, person, merge_form=form, status=400)


@require_POST
@group_page
def resume(request, group: Group, table_id: str):
    table = get_object_or_404(Table, pk=table_id, group=group, abandoned__isnull=False)
    try:
        services.resume(table.id, table.version)
    except services.StaleVersion as stale:  # a phone moved it meanwhile; resuming needs no version
        services.resume(table.id, stale.table["version"])
    messages.success(request, _("The table is open again: anyone with its link can play on."))
    return redirect("history:abandoned", group.pk)
