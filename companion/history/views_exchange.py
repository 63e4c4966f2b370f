"""Download the history (JSON, or plays as CSV) and upload a history file to import."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from companion.groups import access
from companion.groups.access import group_page
from companion.groups.models import Group
from companion.tables.limits import limit_tables

from . import exchange
from .plays_csv import write_plays_csv

# An import holds a worker while it replays every entry (~10 s for a file at the upload limit on
# a slow machine): the file's size (settings.MAX_UPLOAD_BYTES, refused before it is read, by
# companion/asgi.py) and its entries bound it, and imports count as tables do in the rate limits.
MAX_ENTRIES = 60_000


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("History file (.json)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@group_page
def export_json(request, group: Group):
    body = exchange.dumps(exchange.export_history(group))
    return _download(body, "application/json", f"table-companion-{slugify(group.name) or group.pk}.json")


@require_GET
@group_page
def export_csv(request, group: Group):
    name = slugify(group.name) or group.pk
    response = _download("", "text/csv; charset=utf-8", f"table-companion-{name}-plays.csv")
    write_plays_csv(response, group)
    return response


def _size(count: int) -> str:
    megabytes, rest = divmod(count, 1024 * 1024)
    return f"{megabytes} MB" if not rest else f"{count // 1024} KB"


def _read_upload(upload) -> dict:
    if upload.size > settings.MAX_UPLOAD_BYTES:
        raise exchange.ImportRefused(
            _("The file is larger than {size}.").format(size=_size(settings.MAX_UPLOAD_BYTES))
        )
    return exchange.parse_json(upload.read())


@require_http_methods(["GET", "POST"])
@limit_tables
@group_page
def import_json(request, group: Group):
    if not access.may_import(request, group):
        return render(request, "history/import_needs_link.html", {"group": group}, status=403)
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    error = ""
    if form.is_valid():
        try:
            upload = _read_upload(form.cleaned_data["file"])
            summary = exchange.import_history(group, upload, max_entries=MAX_ENTRIES)
        except exchange.ImportRefused as refused:
            error = refused.message
        else:
            messages.success(request, summary.sentence())
            return redirect("history:archive", group.pk)
    status = 400 if request.method == "POST" else 200
    context = {"group": group, "form": form, "error": error}
    return render(request, "history/import.html", context, status=status)
