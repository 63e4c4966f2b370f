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
    """Where the group plays (issue 32): its evenings run 06:00 to 06:00 there."""

    time_zone = forms.ChoiceField(label=_("The group's time zone"), choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [
            (name, name.replace("_", " ")) for name in sorted(available_timezones())
        ]
