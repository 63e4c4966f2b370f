"""A group's own sheets' pages (issue 44): the list with each sheet's plays, a score sheet written
line by line, a sheet's file added, a sheet shared by its link or its file, and the shared
sheet's page another group adds it from. The checks are companion/sheets' (groups/own_sheets.py)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.db.models import Count
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from companion import tokens
from companion.groups import access, own_sheets
from companion.groups.models import Group, GroupSheet
from companion.groups.sheet_forms import ScoreSheetForm, SheetFileForm
from companion.sheets.parse import SheetError
from companion.tables.models import Table


@access.group_page
def sheets(request, group: Group):
    """The group's sheets; a member writes one (`write`) or adds a file (`upload`) here."""
    editing = _row(group, request.GET.get("edit")) if request.method == "GET" else None
    editing = editing if editing is not None and typed_on_the_form(editing) else None
    score_form = ScoreSheetForm(initial=_initial(editing) if editing else None)
    file_form = SheetFileForm()
    status = 200
    if request.method == "POST":
        if request.POST.get("kind") == "upload":
            file_form = SheetFileForm(request.POST, request.FILES)
            if file_form.is_valid():
                try:
                    return _kept(request, group, *own_sheets.keep(group, file_form.cleaned_data["file"]))
                except SheetError as error:
                    file_form.add_error(
                        "file",
                        _("In the file, at {path}: {problem}").format(path=error.path, problem=error.message),
                    )
        else:
            score_form = ScoreSheetForm(request.POST)
            if score_form.is_valid() and _taken(group, score_form):
                taken = _(
                    "The group has a sheet called {name} already: "
                    "change that one, or name this one otherwise."
                )
                score_form.add_error(
                    "name", taken.format(name=score_form.cleaned_data["document"]["name"]["en"])
                )
            elif score_form.is_valid():
                try:
                    document = json.dumps(score_form.cleaned_data["document"], ensure_ascii=False)
                    return _kept(request, group, *own_sheets.keep(group, document))
                except SheetError as error:  # the group's sheets are full
                    score_form.add_error(None, error.message)
        status = 400
    rows = own_sheets.group_sheets(group)
    return render(
        request,
        "groups/sheets.html",
        {
            "group": group,
            "can_edit": request.group_rights == tokens.EDIT,
            "rows": [_listed(request, group, row) for row in rows],
            "score_form": score_form,
            "file_form": file_form,
            "editing": editing,
        },
        status=status,
    )


def _kept(request, group: Group, row: GroupSheet, new: bool) -> HttpResponse:
    if new:
        messages.success(request, _("{name} is kept: play it, or share it.").format(name=row.name))
    else:
        messages.success(
            request,
            _("{name} is kept as version {version}; tables already played keep theirs.").format(
                name=row.name, version=row.version
            ),
        )
    return redirect(reverse("groups:sheets", args=[group.pk]) + f"#sheet-{row.sheet_id}")


def _taken(group: Group, form: ScoreSheetForm) -> bool:
    """A new sheet typed with the name of one the group has: never replaced unasked."""
    sheet_id = form.cleaned_data["document"]["id"]
    return form.cleaned_data.get("sheet_id") != sheet_id and _row(group, sheet_id) is not None


def _row(group: Group, sheet_id: str | None) -> GroupSheet | None:
    return GroupSheet.objects.filter(group=group, sheet_id=sheet_id or "").first()


def typed_on_the_form(row: GroupSheet) -> bool:
    """A sheet the score form shows whole (typed there, or alike): one language's names, no line
    ending with a colon, no BoardGameGeek id, a tie-breaker won by the highest. Any other is
    changed by its file, so that saving the form never drops what it cannot show."""
    doc = row.document
    lines = doc.get("lines", [])
    same = all(line["en"] == line["fr"] and len(set(line.get("group", {}).values())) <= 1 for line in lines)
    # A line ending with a colon would come back from the form as a heading (sheet_forms.typed_lines)
    same = same and not any(line["en"].endswith(":") for line in lines)
    tie = doc.get("tie_breaker")
    return (
        row.kind == "score"
        and doc["bgg_id"] == 0
        and same
        and (tie is None or (tie["en"] == tie["fr"] and tie["wins"] == "highest"))
    )


def _initial(row: GroupSheet) -> dict | None:
    """The score form filled in with a kept score sheet, to change it (a rules sheet is a file)."""
    if not typed_on_the_form(row):
        return None
    doc, typed, heading = row.document, [], None
    for line in doc.get("lines", []):
        group = line.get("group", {}).get("en")
        if group and group != heading:
            typed.append(f"{group}:")
        elif heading and not group:
            typed.append(":")  # the group ends: this line stands alone (sheet_forms.typed_lines)
        heading = group
        typed.append(("- " if line.get("against") else "") + line["en"])
    return {
        "name": doc["name"]["en"],
        "name_fr": doc["name"]["fr"] if doc["name"]["fr"] != doc["name"]["en"] else "",
        "outcome": doc["outcome"],
        "wins": doc.get("wins", "highest"),
        "scoring": doc.get("scoring", "end"),
        "lines": "\n".join(typed),
        "tie_breaker": doc.get("tie_breaker", {}).get("en", ""),
        "end_at": doc.get("end_at"),
        "sheet_id": row.sheet_id,
    }


def _listed(request, group: Group, row: GroupSheet) -> dict:
    sheet = own_sheets.sheet_of(row)
    keys = own_sheets.history_keys(row)
    finished = Table.objects.filter(group=group, status=Table.Status.FINISHED, played__in=keys)
    by_key = dict(finished.values_list("played").annotate(count=Count("pk")))
    language = translation.get_language()
    return {
        "row": row,
        "sheet": sheet,
        "name": sheet.name(language),
        "lines": [line["name"] for line in sheet.lines(language)] if row.kind == "score" else [],
        # Its plays under each name it was played as (a game page of the history each).
        "played": [
            {"plays": count, "url": reverse("history:game", args=[group.pk, key])}
            for key, count in sorted(by_key.items(), key=lambda item: (-item[1], item[0]))
        ],
        "editable": typed_on_the_form(row),
        "play_url": reverse("tables:new", args=[sheet.game]) + f"?group={group.pk}&sheet={row.api_id}",
        "share_url": request.build_absolute_uri(reverse("groups:shared_sheet", args=[row.share_token])),
    }


@access.group_page
def sheet_file(request, group: Group, sheet_id: str):
    """The sheet's file, to keep or to send to another group."""
    row = _row(group, sheet_id)
    if row is None:
        raise Http404("No such sheet")
    return _file(row)


def _file(row: GroupSheet) -> HttpResponse:
    answer = HttpResponse(
        json.dumps(row.document, ensure_ascii=False, indent=2), content_type="application/json"
    )
    answer["Content-Disposition"] = f'attachment; filename="{row.sheet_id}.json"'
    return answer


@require_POST
@access.group_page
def remove_sheet(request, group: Group, sheet_id: str):
    """A member removes a sheet: its plays stay in the history, its share link opens nothing."""
    row = _row(group, sheet_id)
    if row is None:
        raise Http404("No such sheet")
    row.delete()
    messages.success(request, _("{name} is removed; its plays stay in the history.").format(name=row.name))
    return redirect("groups:sheets", group.pk)


def shared_sheet(request, token: str):
    """A sheet's share link: what it is, its file, and a member of another group adds it there."""
    row = own_sheets.shared(token)
    if row is None:
        raise Http404("No such sheet")
    known = access.known_group_ids(request)  # newest first
    groups = Group.objects.filter(pk__in=known).exclude(pk=row.group_id)
    mine = sorted(
        (group for group in groups if access.rights(request, group) == tokens.EDIT),
        key=lambda group: known.index(group.pk),
    )
    if request.method == "POST":
        group = next((g for g in mine if g.pk == request.POST.get("group")), None)
        if group is None:
            return HttpResponseForbidden(_("Only a member of a group can add a sheet to it."))
        try:
            kept, new = own_sheets.keep(group, json.dumps(row.document, ensure_ascii=False))
        except SheetError as error:
            messages.error(request, error.message)
            return redirect("groups:shared_sheet", token)
        return _kept(request, group, kept, new)
    if request.GET.get("file"):
        return _file(row)
    sheet, language = own_sheets.sheet_of(row), translation.get_language()
    return render(
        request,
        "groups/shared_sheet.html",
        {
            "row": row,
            "sheet": sheet,
            "lines": [line["name"] for line in sheet.lines(language)] if row.kind == "score" else [],
            "rules": [(rule["id"], rule[language]) for rule in row.document.get("rules", [])],
            "name": sheet.name(language),
            "groups": mine,
        },
    )
