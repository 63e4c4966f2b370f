"""The forms a member writes a group's own sheet with (issue 44): a score sheet typed line by line,
or a sheet's file. Each ends in the same checks as the API's (companion/sheets), and a refusal
names the line and the field it is about."""

from __future__ import annotations

import hashlib
import re

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.sheets.parse import MAX_BYTES, SheetError, checked

LINES_MAX = 30  # as score-sheet.schema.json
LINE_MAX = 40
NAME_MAX = 80
AGAINST = ("-", "−", "–")  # a line that counts against starts with a minus, however the phone types it
ID_PATTERN = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def sheet_id_for(name: str) -> str:
    """The id a typed sheet keeps (its name's letters): the same name is the same sheet."""
    slug = slugify(name)[:60].strip("-")
    if ID_PATTERN.fullmatch(slug):
        return slug
    return "sheet-" + hashlib.sha256(name.casefold().encode()).hexdigest()[:10]  # a name in no Latin letters


def _buttons(label, *choices: tuple[str, str], required: bool = False) -> forms.ChoiceField:
    """A question answered by one tap: its choices as radio buttons, the first picked."""
    return forms.ChoiceField(
        label=label, choices=choices, initial=choices[0][0], widget=forms.RadioSelect, required=required
    )


class ScoreSheetForm(forms.Form):
    """A game's score sheet as its players know it: its name, its lines, who wins."""

    name = forms.CharField(max_length=NAME_MAX, label=gettext_lazy("The game"))
    name_fr = forms.CharField(
        max_length=NAME_MAX,
        required=False,
        label=gettext_lazy("Its French name (if it has another)"),
    )
    outcome = _buttons(
        gettext_lazy("How it is won"),
        ("points", gettext_lazy("Points")),
        ("coop", gettext_lazy("Together (co-op): the table wins or loses")),
        ("win_loss", gettext_lazy("A winner, no points")),
        required=True,
    )
    wins = _buttons(
        gettext_lazy("With points"),
        ("highest", gettext_lazy("The highest total wins")),
        ("lowest", gettext_lazy("The lowest total wins")),
    )
    scoring = _buttons(
        gettext_lazy("Scored"),
        ("end", gettext_lazy("At the end, line by line")),
        ("rounds", gettext_lazy("Round by round")),
    )
    lines = forms.CharField(
        label=gettext_lazy("The lines of its score sheet"),
        help_text=gettext_lazy(
            "One line per row of the game's score sheet. Start a line with a minus (-) when it counts "
            "against. A line ending with a colon (Buildings:) heads the lines under it, up to a colon "
            "alone (:)."
        ),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "autocapitalize": "sentences"}),
    )
    tie_breaker = forms.CharField(
        max_length=LINE_MAX,
        required=False,
        label=gettext_lazy("Tie-breaker (optional)"),
        help_text=gettext_lazy("What decides a tie, most wins: Money left."),
    )
    end_at = forms.IntegerField(
        min_value=1,
        max_value=9999,
        required=False,
        label=gettext_lazy("The game ends at (points, round by round; optional)"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    sheet_id = forms.CharField(required=False, widget=forms.HiddenInput, max_length=60)  # the sheet edited

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        document = self.document(data)
        try:
            checked(document)
        except SheetError as error:
            self.add_error(*self.field_of(error))
            return data
        data["document"] = document
        return data

    def document(self, data: dict) -> dict:
        name = " ".join(data["name"].split())
        document = {
            "format": 1,
            "kind": "score",
            "id": data.get("sheet_id")
            if ID_PATTERN.fullmatch(data.get("sheet_id") or "")
            else sheet_id_for(name),
            "bgg_id": 0,
            "name": {"en": name, "fr": " ".join((data.get("name_fr") or "").split()) or name},
            "outcome": data["outcome"],
        }
        if data["outcome"] != "points":
            return document
        document.update(wins=data.get("wins") or "highest", scoring=data.get("scoring") or "end")
        if document["scoring"] == "rounds":
            if data.get("end_at"):
                document["end_at"] = data["end_at"]
            return document
        document["lines"] = self.typed_lines(data.get("lines") or "")
        tie = " ".join((data.get("tie_breaker") or "").split())
        if tie:
            document["tie_breaker"] = {"en": tie, "fr": tie, "wins": "highest"}
        return document

    def typed_lines(self, text: str) -> list[dict]:
        lines, heading = [], None
        for typed in text.splitlines():
            typed = " ".join(typed.split())
            if not typed:
                continue
            if typed.endswith(":"):  # a heading over the lines under it; a colon alone ends it
                heading = typed[:-1].strip() or None
                continue
            line = {}
            if typed.startswith(AGAINST):
                typed, line["against"] = typed[1:].strip(), True
            line = {"en": typed, "fr": typed, **line}
            if heading:
                line["group"] = {"en": heading, "fr": heading}
            lines.append(line)
        return lines

    def field_of(self, error: SheetError) -> tuple[str | None, str]:
        """The form's field a wrong place in the document is, and a sentence naming it."""
        parts = error.path.strip("/").split("/")
        if parts[0] == "lines" and len(parts) > 1 and parts[1].isdigit():
            typed = self.typed_lines(self.cleaned_data.get("lines") or "")[int(parts[1])]
            shown = typed.get("group", {}).get("en") if parts[2:3] == ["group"] else typed["en"]
            return "lines", _("Line {number} ({line}): {problem}").format(
                number=int(parts[1]) + 1, line=shown, problem=_problem(error)
            )
        if parts[0] == "lines":
            return "lines", _("Write at least one line, and {count} at most.").format(count=LINES_MAX)
        field = {"name": "name", "tie_breaker": "tie_breaker", "end_at": "end_at"}.get(parts[0])
        if field == "name" and parts[1:2] == ["fr"]:
            field = "name_fr"
        return field, _problem(error)


def _problem(error: SheetError) -> str:
    """The checks' sentence in a player's words where it is a length (the common one)."""
    if "is too long" in error.message:
        return _("{count} characters at most.").format(count=LINE_MAX if "/lines" in error.path else NAME_MAX)
    if "should be non-empty" in error.message or "is too short" in error.message:
        return _("It cannot be empty.")
    return error.message


class SheetFileForm(forms.Form):
    """A sheet's file (docs/sheets.md): a rules sheet, or a score sheet from another group."""

    file = forms.FileField(label=gettext_lazy("A sheet's file (.json)"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("A sheet's file is {count} bytes at most; this one is {size}.").format(
                    count=MAX_BYTES, size=upload.size
                )
            )
        return upload.read()
