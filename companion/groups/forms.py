from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import NAME_MAX, clean_group_name


class GroupForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_MAX,
        label=_("The group's name"),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "words", "placeholder": _("Thursday club")}
        ),
    )

    def clean_name(self):
        name = clean_group_name(self.cleaned_data["name"])
        if name is None:
            raise forms.ValidationError(_("A group needs a name of letters, digits and spaces."))
        return name


class ZoneForm(forms.Form):
    """Where the group plays (issue 32): its evenings run 06:00 to 06:00 there. Typed, with the zones
    offered as the phone's suggestions (IANA names such as Europe/Paris)."""

    time_zone = forms.CharField(
        label=_("The group's time zone"),
        max_length=64,
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}),
    )

    def clean_time_zone(self):
        zone = self.cleaned_data["time_zone"].strip()
        if zone not in available_timezones():
            raise forms.ValidationError(_("Choose a time zone from the list."))
        return zone


def time_zones() -> list[str]:
    return sorted(available_timezones())
