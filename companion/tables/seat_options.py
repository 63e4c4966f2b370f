"""The new-table form's options that belong to each seat (an engine's `seat_options`): a team per
seat (the pad's teams, AG-8) and a text per seat (roles, AG-10). Each seat's row gets its fields
beside the name, so that a player's team and role follow them when the seats are shuffled."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

TEAMS_MAX = 4  # teams the form offers; the engine takes any number


def fields(engine, seat: int, initial: dict) -> dict[str, forms.Field]:
    """The per-seat fields of `seat`, by option name (`<option>_<seat>`)."""
    made: dict[str, forms.Field] = {}
    for name, kind in getattr(engine, "seat_options", {}).items():
        if kind == "team":
            teams = initial.get(name) or []
            number = next((n for n, team in enumerate(teams, 1) if seat in team), seat % 2 + 1)
            made[f"{name}_{seat}"] = forms.ChoiceField(
                label=_("Team of seat {number}").format(number=seat + 1),
                choices=[(str(n), str(n)) for n in range(1, TEAMS_MAX + 1)],
                initial=str(number),
                required=False,
                widget=forms.RadioSelect(attrs={"class": "seat-team"}),
            )
        elif kind == "text":
            made[f"{name}_{seat}"] = forms.CharField(
                label=_("Role of seat {number}").format(number=seat + 1),
                initial=(initial.get(name) or {}).get(str(seat), ""),
                required=False,
                max_length=80,
                widget=forms.TextInput(attrs={"autocomplete": "off", "class": "seat-text"}),
            )
    return made


def switch(engine, name: str, initial) -> forms.Field:
    """The form-wide switch of a per-seat option: how many teams, or whether seats have roles."""
    label = _(getattr(engine, "option_labels", {}).get(name, name))
    if engine.seat_options[name] == "team":
        choices = [("0", _("No teams"))] + [
            (str(n), _("{n} teams").format(n=n)) for n in range(2, TEAMS_MAX + 1)
        ]
        count = str(len(initial)) if initial else "0"
        widget = forms.RadioSelect(attrs={"class": "teams-count"})
        return forms.ChoiceField(label=label, choices=choices, initial=count, required=False, widget=widget)
    return forms.BooleanField(label=label, initial=bool(initial), required=False)


def values(engine, data: dict, seats: list[int]) -> dict:
    """The per-seat options from the cleaned form, for the people in `seats` (their field numbers,
    in their final seat order)."""
    options = {}
    for name, kind in getattr(engine, "seat_options", {}).items():
        if kind == "team":
            count = int(data.get(f"option_{name}") or 0)
            chosen = [
                _team(data.get(f"{name}_{field}"), position, count) for position, field in enumerate(seats)
            ]
            teams = [[seat for seat, team in enumerate(chosen) if team == n] for n in range(1, count + 1)]
            options[name] = [team for team in teams if team] if count else []
        elif kind == "text":
            shown = data.get(f"option_{name}")
            texts = {
                str(seat): (data.get(f"{name}_{field}") or "").strip() for seat, field in enumerate(seats)
            }
            options[name] = {seat: text for seat, text in texts.items() if text} if shown else {}
    return options


def _team(value, position: int, count: int) -> int:
    """A seat's team as a number from 1 to `count`; taking turns when it chose none (or one past)."""
    if value and value.isdigit() and 1 <= int(value) <= count:
        return int(value)
    return position % count + 1 if count else 0
