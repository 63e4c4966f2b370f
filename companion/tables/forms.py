"""The new-table form: players in seat order and the chosen game's options."""

from __future__ import annotations

import random

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Field, Fieldset, Layout, Submit
from django import forms

from companion.games import base

from . import services
from .models import Player


class NewTableForm(forms.Form):
    shuffle = forms.BooleanField(required=False, label="Shuffle the seat order")

    def __init__(self, engine: base.Engine, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.engine = engine
        for i in range(engine.max_players):
            self.fields[f"player_{i}"] = forms.CharField(
                label=f"Seat {i + 1}",
                required=i < engine.min_players,
                max_length=services.NAME_MAX,
                widget=forms.TextInput(
                    attrs={"list": "known-players", "autocomplete": "off", "autocapitalize": "words"}
                ),
            )
        for name, default in engine.options.items():
            self.fields[f"option_{name}"] = option_field(engine, name, default)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True  # the template has its own {% csrf_token %}
        player_fields = [Field(f"player_{i}") for i in range(engine.max_players)]
        option_fields = [Field(f"option_{name}") for name in engine.options]
        self.helper.layout = Layout(
            Fieldset("Players, in seat order", *player_fields),
            Fieldset("Options", *option_fields) if option_fields else Div(),
            Field("shuffle"),
            Submit("start", "Start the table", css_class="btn-lg w-100"),
        )

    def clean(self):
        data = super().clean()
        names = [data.get(f"player_{i}") for i in range(self.engine.max_players)]
        names = [" ".join(name.split()) for name in names if name and name.strip()]
        if len(names) < self.engine.min_players:
            raise forms.ValidationError(
                f"{self.engine.name} needs at least {self.engine.min_players} players."
            )
        lowered = [name.lower() for name in names]
        if len(set(lowered)) != len(lowered):
            raise forms.ValidationError("Each player can sit at the table only once.")
        if data.get("shuffle"):
            random.shuffle(names)
        data["names"] = names
        data["options"] = {name: data.get(f"option_{name}") for name in self.engine.options}
        return data


def option_field(engine: base.Engine, name: str, default) -> forms.Field:
    """A checkbox for an on/off option, a choice list where the engine names the choices."""
    label = getattr(engine, "option_labels", {}).get(name, name.replace("_", " ").capitalize())
    if isinstance(default, bool):
        return forms.BooleanField(required=False, initial=default, label=label)
    choices = getattr(engine, "option_choices", {}).get(name, [default])
    return forms.ChoiceField(choices=[(choice, choice) for choice in choices], initial=default, label=label)


def known_player_names() -> list[str]:
    return list(Player.objects.values_list("name", flat=True)[:500])
