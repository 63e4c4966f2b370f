"""The new-table form: players in seat order and the chosen game's options."""

from __future__ import annotations

import json
import random

from crispy_forms.bootstrap import InlineRadios
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Field, Fieldset, Layout, Submit
from django import forms
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from companion.games import base, registry
from companion.groups import own_sheets
from companion.sheets import library

from . import seat_options, services
from .models import Player, Table

HIDDEN_JSON_MAX = 4000  # a sheet's headings: 30 lines and their headings, as JSON
SEATS_SHOWN = 4  # seats shown at first on a game for many players; typing in the last shows another


class NewTableForm(forms.Form):
    shuffle = forms.BooleanField(required=False, label=gettext_lazy("Shuffle the seat order"))

    def __init__(
        self,
        engine: base.Engine,
        *args,
        initial_options: dict | None = None,
        fixed_options: dict | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.engine = engine
        # Options the page decided (a group's own rules sheet, whole): neither shown nor posted.
        self.fixed_options = fixed_options or {}
        initial_options = initial_options or {}
        # The seats the game takes: a fixed sheet's own (Climb: 2 to 4), else the engine's.
        self.fewest, self.most = base.seat_range(engine, self.fixed_options)
        for i in range(self.most):
            self.fields[f"player_{i}"] = forms.CharField(
                label=_("Seat {number}").format(number=i + 1),
                required=i < self.fewest,
                max_length=services.NAME_MAX,
                widget=forms.TextInput(
                    attrs={"list": "known-players", "autocomplete": "off", "autocapitalize": "words"}
                ),
            )
        per_seat = getattr(engine, "seat_options", {})
        for i in range(self.most):
            self.fields.update(seat_options.fields(engine, i, initial_options))
        # Put in by the app, never typed (a sheet's file)
        hidden = (*getattr(engine, "hidden_options", ()), *self.fixed_options)
        for name, default in engine.options.items():
            if name in hidden:
                continue
            initial = initial_options.get(name, default)
            maker = seat_options.switch if name in per_seat else option_field
            self.fields[f"option_{name}"] = maker(engine, name, initial)
        self._mark_required(engine)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True  # the template has its own {% csrf_token %}
        shown = max(self.fewest, SEATS_SHOWN)
        player_fields = [
            Div(
                Field(f"player_{i}"),
                *(seat_field(f"{name}_{i}", name, kind) for name, kind in per_seat.items()),
                css_class="seat-row more-seat" if i >= shown else "seat-row",
            )
            for i in range(self.most)
        ]
        option_fields = [
            InlineRadios(f"option_{name}") if per_seat.get(name) == "team" else Field(f"option_{name}")
            for name in engine.options
            if name not in hidden
        ]
        players = Fieldset(_("Players, in seat order"), *player_fields)
        options = Fieldset(_("Options"), *option_fields) if option_fields else Div()
        # A pad for any game asks which game first; a game of its own asks who plays first.
        parts = [options, players] if base.is_pad(engine) else [players, options]
        self.helper.layout = Layout(
            *parts, Field("shuffle"), Submit("start", _("Start the table"), css_class="btn-lg w-100")
        )

    def _mark_required(self, engine: base.Engine) -> None:
        """The options a table cannot start without (issue 30, 8), marked on the form (the label's
        "*" in app.css, the field's `required`); the engine still judges them, in its own words
        ("Name the game this pad keeps the score of", AG-1), where they apply."""
        for name in getattr(engine, "required_options", ()):
            self.fields[f"option_{name}"].widget.attrs.update({"required": True, "aria-required": "true"})

    def clean(self):
        data = super().clean()
        # Each person with their field's number, so that what their row says follows them.
        seated = [(i, data.get(f"player_{i}")) for i in range(self.most)]
        seated = [(i, " ".join(name.split())) for i, name in seated if name and name.strip()]
        names = [name for _, name in seated]
        if len(names) < self.fewest:
            count = self.fewest
            message = ngettext(
                "{game} needs at least {count} player.", "{game} needs at least {count} players.", count
            )
            raise forms.ValidationError(message.format(game=self.engine.name, count=count))
        lowered = [name.lower() for name in names]
        if len(set(lowered)) != len(lowered):
            raise forms.ValidationError(_("Each player can sit at the table only once."))
        if data.get("shuffle"):
            random.shuffle(seated)
        data["names"] = [name for _, name in seated]
        per_seat = getattr(self.engine, "seat_options", {})
        data["options"] = {
            name: option_value(default, data.get(f"option_{name}"))
            for name, default in self.engine.options.items()
            if name not in per_seat
        } | seat_options.values(self.engine, data, [i for i, _ in seated])
        data["options"].update(self.fixed_options)
        return data


def seat_field(field: str, name: str, kind: str):
    """A seat's own option in its row: a team as a row of buttons, a role as a short text."""
    if kind == "team":
        return InlineRadios(field, wrapper_class=f"seat-option seat-{name}")
    return Field(field, wrapper_class=f"seat-option seat-{name}")


def option_field(engine: base.Engine, name: str, initial) -> forms.Field:
    """The form field of an option, by its default's type: a checkbox for on/off, a choice where
    the engine names the choices (buttons when there are few), a number, a text, or a list typed
    one item per line. The engine judges the value (a refusal is shown on the form)."""
    # The engine's words, marked for the catalog where the engine defines them (words.gettext_noop).
    label = _(getattr(engine, "option_labels", {}).get(name, name.replace("_", " ").capitalize()))
    help_text = getattr(engine, "option_help", {}).get(name, "")
    help_text = _(help_text) if help_text else ""
    default = engine.options[name]
    common = {"required": False, "initial": initial, "label": label, "help_text": help_text}
    if isinstance(default, bool):
        return forms.BooleanField(**common)
    if isinstance(default, dict):  # filled in by the page (a sheet's headings), never typed: JSON
        hidden = {**common, "initial": json.dumps(initial), "max_length": HIDDEN_JSON_MAX}
        return forms.CharField(widget=forms.HiddenInput, **hidden)
    choices = getattr(engine, "option_choices", {}).get(name)
    if choices:
        pairs = [
            (choice[0], _(choice[1])) if isinstance(choice, tuple) else (choice, choice) for choice in choices
        ]
        # One choice is no question (issue 15: no step with one answer); a few are buttons.
        widget = (
            forms.HiddenInput if len(pairs) == 1 else forms.RadioSelect if len(pairs) <= 3 else forms.Select
        )
        # Left out of a post (an older page), the option keeps its default (option_value).
        return forms.ChoiceField(choices=pairs, widget=widget, **common)
    if isinstance(default, int):
        return forms.IntegerField(widget=forms.NumberInput(attrs={"inputmode": "numeric"}), **common)
    if isinstance(default, list):
        initial_text = "\n".join(map(str, initial))
        widget = forms.Textarea(attrs={"rows": 4, "autocapitalize": "sentences"})
        return forms.CharField(widget=widget, **{**common, "initial": initial_text})
    attrs = {"list": f"known-{name}", "autocomplete": "off", "autocapitalize": "words"}
    return forms.CharField(widget=forms.TextInput(attrs=attrs), **common)


def option_value(default, value):
    """The posted value as the option's type: a blank number is the default, a list is its lines."""
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, list):
        return [line.strip() for line in (value or "").splitlines() if line.strip()]
    if isinstance(default, dict):  # the engine judges what it holds
        try:
            found = json.loads(value or "{}")
        except (ValueError, RecursionError):
            return default
        return found if isinstance(found, dict) else default
    if value is None or value == "":
        return default
    return value


def known_player_names(group) -> list[str]:
    return list(Player.objects.filter(group=group).values_list("name", flat=True)[:500])


def past_options(group, slug: str, limit: int = 300, sheets: bool = False) -> dict[str, dict]:
    """The free-text options of this game's recent tables: per option, the values typed before
    (the form offers them) and, for each value, the options of the latest table that used it (the
    form fills them in when that value is picked again: a pad's categories). With `sheets`, the
    library's score sheets follow the group's own games (issue 44): typing "Wingspan" fills in its
    lines, unless the group's last Wingspan had others."""
    engine = registry.get(slug)
    texts = [name for name, default in engine.options.items() if type(default) is str]
    texts = [name for name in texts if not getattr(engine, "option_choices", {}).get(name)]
    past: dict[str, dict] = {name: {} for name in texts}
    recent = Table.objects.filter(group=group, game=slug).order_by("-created")
    recent = recent.values_list("options", flat=True)[:limit]
    for options in recent:
        for name in texts:
            value = options.get(name) if isinstance(options, dict) else None
            value = " ".join(value.split()) if isinstance(value, str) else ""
            if value and value.casefold() not in past[name]:
                past[name][value.casefold()] = {"value": value, "options": options}
    if sheets:
        for key, offered in library.offered(translation.get_language()).items():
            past["game_name"].setdefault(key, offered)
        for key, offered in own_sheets.offered(group, translation.get_language()).items():
            past["game_name"][key] = offered  # the group's own sheet of a game before the library's
    return past


def sheet_options(slug: str, sheet_id: str | None, group=None) -> dict:
    """A score sheet's options for the pad's form (?sheet=wingspan), in the page's language: the
    library's, or the group's own (?sheet=<group>.<id>), which the form shows to change."""
    sheet = library.get(sheet_id) if sheet_id else None
    if sheet is None and group is not None:
        row = _own(group, sheet_id)
        if row is not None and row.kind == "score":
            sheet = own_sheets.sheet_of(row)
    return sheet.table_options(translation.get_language()) if sheet and sheet.game == slug else {}


def own_rules_options(slug: str, sheet_id: str | None, group) -> tuple[dict, str]:
    """A group's own rules sheet's options (the whole sheet, kept by the table as it is now) and
    its name, for the form to start it as it is; ({}, "") for anything else."""
    row = _own(group, sheet_id)
    if row is None or row.kind != "rules" or own_sheets.sheet_of(row).game != slug:
        return {}, ""
    language = translation.get_language()
    return own_sheets.table_options(row, language), own_sheets.sheet_of(row).name(language)


def _own(group, sheet_id: str | None):
    row = own_sheets.find(sheet_id or "")
    return row if row is not None and row.group_id == group.pk else None


def like_options(group, slug: str, key: str | None) -> dict:
    """The options of the latest table the history counts as `key` ("play it again as last time")."""
    if not key or services.unstorable(key):  # PostgreSQL refuses to compare NUL: nobody played it
        return {}
    latest = (
        Table.objects.filter(group=group, game=slug, played=key)
        .order_by("-created")
        .values_list("options", flat=True)
    )
    return dict(latest.first() or {})
