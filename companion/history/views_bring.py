"""Bring your history: a BG Stats export or a BoardGameGeek plays file, chosen on the phone, shown
before it comes in (its plays and games, each name matched to a player or marked new, which the
member can change), then imported, with a progress bar while a large file is written (issue 29)."""

from __future__ import annotations

import datetime as dt

import orjson
from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from companion.groups import access
from companion.groups.access import group_page
from companion.groups.forms import time_zones
from companion.groups.models import Group
from companion.tables.limits import limit_tables
from companion.tables.models import Player

from . import bgstats_export, night
from .history_file import FORMAT, ImportRefused
from .importers import jobs, writer
from .models import ImportJob


class BringForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("The file (BG Stats export, .bgsplay, or BoardGameGeek plays .xml)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.bgsplay,.xml,application/json,text/xml"}),
    )


def _refused_page(request, group: Group):
    return render(request, "history/import_needs_link.html", {"group": group}, status=403)


@require_http_methods(["GET", "POST"])
@limit_tables
@group_page
def bring(request, group: Group):
    if not access.may_import(request, group):
        return _refused_page(request, group)
    form = BringForm(request.POST, request.FILES) if request.method == "POST" else BringForm()
    error = ""
    if form.is_valid():
        try:
            job = jobs.create(group, *_format_and_bytes(form.cleaned_data["file"]))
        except ImportRefused as refused:
            error = refused.message
        else:
            return redirect("history:bring_job", group.pk, job.pk)
    context = {"group": group, "form": form, "error": error, "max_megabytes": max_megabytes()}
    return render(request, "history/bring.html", context, status=400 if request.method == "POST" else 200)


def max_megabytes() -> int:
    return settings.MAX_UPLOAD_BYTES // (1024 * 1024)


def _format_and_bytes(upload) -> tuple[str, bytes]:
    if upload.size > settings.MAX_UPLOAD_BYTES:
        size = settings.MAX_UPLOAD_BYTES // (1024 * 1024)
        raise ImportRefused(_("The file is larger than {size} MB.").format(size=size))
    raw = upload.read()
    file_format = jobs.detect(raw)
    if file_format is None:
        raise ImportRefused(_("This is neither a BG Stats export nor a BoardGameGeek plays file."))
    if file_format == "bgstats" and FORMAT.encode() in raw[:200]:
        raise ImportRefused(
            _("This is a Table Companion history file: bring it in with “Import a history file”.")
        )
    return file_format, raw


@require_http_methods(["GET", "POST"])
@limit_tables
@group_page
def bring_job(request, group: Group, job_id):
    if not access.may_import(request, group):
        return _refused_page(request, group)
    job = get_object_or_404(ImportJob, pk=job_id, group=group)
    if job.status != ImportJob.Status.PREVIEW:
        return render(request, "history/bring_progress.html", {"group": group, "job": job, **_progress(job)})
    zone = (request.POST if request.method == "POST" else request.GET).get("zone", "").strip()[:64]
    keep = request.POST.getlist("keep")[: writer.PROBABLE_SHOWN] if request.method == "POST" else []
    try:
        planned = writer.plan(group, jobs.read(job), _chosen(request.POST), zone or None, keep)
        if request.method == "POST":
            job = jobs.start_planned(job, planned, _chosen(request.POST), keep)
            if job.status == ImportJob.Status.DONE:
                messages.success(request, summary(job.answer))
                return redirect("history:archive", group.pk)
            return redirect("history:bring_job", group.pk, job.pk)
    except ImportRefused as refused:
        return render(
            request,
            "history/bring.html",
            {"group": group, "form": BringForm(), "error": refused.message, "max_megabytes": max_megabytes()},
            status=400,
        )
    players = sorted(
        Player.objects.filter(group=group, guest=False).values_list("name", flat=True), key=str.casefold
    )
    answer = planned.answer()
    shown_in = night.zone(group)
    return render(
        request,
        "history/bring_preview.html",
        {
            "group": group,
            "job": job,
            "answer": answer,
            "names": [_name_row(index, entry, players) for index, entry in enumerate(answer["names"])],
            "times": [_time_row(row, shown_in) for row in answer["times"]],
            "shown_in": shown_in.key,
            "time_zones": time_zones(),
        },
    )


def _name_row(index: int, entry: dict, players: list[str]) -> dict:
    """A person of the file with its choice: each of the group's players, or a new one of that
    name (unless a player has it already: then it is that player). The field is named by the
    person's label, unique in the file: two people of one name are two rows."""
    known = {player.casefold() for player in players}
    choices = [{"value": player, "label": player} for player in players]
    if entry["player"].casefold() not in known:
        label = _("Guest: {name}") if entry["guest"] else _("New player: {name}")
        choices.insert(0, {"value": entry["player"], "label": label.format(name=entry["player"])})
    return {
        "field": f"name_{index}",
        "label": entry["name"],
        "name": entry["name"],
        "plays": entry["plays"],
        "username": entry["username"],
        "guest": entry["guest"],
        "chosen": entry["player"],
        "choices": choices,
    }


def _time_row(row: dict, shown_in) -> dict:
    """A play's time as the file gives it, and as the group's pages will show it."""
    if row["at"] is None:
        return {"where": row["where"], "in_file": row["in_file"], "shown": _("no time of day (a date only)")}
    shown = dt.datetime.fromisoformat(row["at"]).astimezone(shown_in)
    return {"where": row["where"], "in_file": row["in_file"], "shown": shown.strftime("%Y-%m-%d %H:%M")}


def _chosen(post) -> dict[str, str]:
    """The member's choices: a person's label -> the player they are (every row is sent; a row
    left as proposed names its proposal, which the plan finds again)."""
    chosen = {}
    for key, value in post.items():
        if key.startswith("name_") and key.endswith("_label"):
            picked = post.get(key[: -len("_label")], "").strip()
            if picked and value:
                chosen[value] = picked
    return chosen


@require_GET
@group_page
def bring_progress(request, group: Group, job_id):
    """The progress bar, polled by the page while a large file is written."""
    job = get_object_or_404(ImportJob, pk=job_id, group=group)
    state = _progress(job)
    if state["status"] == ImportJob.Status.DONE:
        messages.success(request, summary(job.answer))
        done = HttpResponse(status=204)
        done["HX-Redirect"] = reverse("history:archive", args=[group.pk])
        return done
    return render(request, "history/_bring_bar.html", {"group": group, "job": job, **state})


def _progress(job: ImportJob) -> dict:
    state = jobs.progress(job)
    state["percent"] = round(100 * state["done"] / state["total"]) if state["total"] else 0
    return state


def summary(answer: dict) -> str:
    added, skipped, new = answer["plays_added"], answer["plays_skipped"], answer["players_added"]
    text = ngettext("Brought in {count} play", "Brought in {count} plays", added).format(count=added)
    text += " " + ngettext("and {count} new player.", "and {count} new players.", new).format(count=new)
    if guests := answer.get("guests", 0):  # new Player rows too, but no player of the group's lists
        text += " " + ngettext(
            "{count} guest is in their plays, never ranked.",
            "{count} guests are in their plays, never ranked.",
            guests,
        ).format(count=guests)
    if skipped:
        text += " " + ngettext(
            "{count} play was here already.", "{count} plays were here already.", skipped
        ).format(count=skipped)
    return " ".join([text, *answer["warnings"]])


@require_GET
@group_page
def export_bgstats(request, group: Group):
    """The group's plays for BG Stats (or this app on another server) to read back."""
    response = HttpResponse(orjson.dumps(bgstats_export.export(group)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="BGStatsExport-{group.pk}.json"'
    return response
