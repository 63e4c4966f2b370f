from django import forms
from django.utils.translation import gettext_lazy as _

from companion.tables.models import Player

from . import stats


class PlayDetailsForm(forms.Form):
    """What people may correct after a game: where, how long, and a comment."""

    place = forms.CharField(max_length=80, required=False, label=_("Place"))
    duration_minutes = forms.IntegerField(
        min_value=1,
        max_value=24 * 60,
        required=False,
        label=_("Length in minutes"),
        help_text=_("Leave empty to use the time from the first to the last entry."),
    )
    comments = forms.CharField(
        max_length=2000, required=False, label=_("Comments"), widget=forms.Textarea(attrs={"rows": 3})
    )

    def clean_place(self):
        return " ".join(self.cleaned_data["place"].split())


class ArchiveFilterForm(forms.Form):
    # Bootstrap's select: 44 px to tap on a phone, like every other control (issue 15).
    game = forms.ChoiceField(required=False, widget=forms.Select(attrs={"class": "form-select"}))
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("Everyone"),
        widget=forms.Select(attrs={"class": "form-select"}),
    )

    def __init__(self, group, *args, games: list[dict] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        games = stats.games_overview(group) if games is None else games
        self.fields["game"].choices = [("", _("Every game"))] + [
            (game["slug"], game["name"]) for game in games
        ]
        self.fields["player"].queryset = Player.objects.filter(group=group, guest=False)


class RenameForm(forms.Form):
    name = forms.CharField(max_length=40, label=_("New name"))


class MergeForm(forms.Form):
    other = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("The same person as"))

    def __init__(self, player: Player, *args, **kwargs):
        super().__init__(*args, **kwargs)
        people = Player.objects.filter(group_id=player.group_id).exclude(pk=player.pk)
        self.fields["other"].queryset = people.order_by("name")
