"""A group: a circle of friends with its own people, tables and history (issue 16).

A group is reached as a table is: its secret `token` makes a member (start tables, read and edit
the history), its `view_token` a watcher (read the history). Ids are not secrets; tokens are.
"""

import secrets

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from companion.games import names

# The group of a deployment without groups (a laptop on a LAN): made by the migration that
# brought groups in, or on first use; open to everyone while settings.DEFAULT_GROUP is on.
DEFAULT_GROUP_ID = "default"
DEFAULT_GROUP_NAME = gettext_noop("Game night")  # said in the page's language until renamed
NAME_MAX = 60


def clean_group_name(raw: str) -> str | None:
    """The name in its one form (games/names.py), or None when it is empty, too long or holds a
    character nobody sees."""
    name = names.tidy(raw)
    if not name or len(name) > NAME_MAX or names.hidden(name) is not None:
        return None
    return name


def new_group_id() -> str:
    return secrets.token_hex(5)


def new_token() -> str:
    return secrets.token_urlsafe(18)  # 144 bits, as a table's


class Group(models.Model):
    id = models.CharField(primary_key=True, max_length=16, default=new_group_id, editable=False)
    name = models.CharField(max_length=NAME_MAX)
    token = models.CharField(max_length=64, default=new_token, editable=False)
    view_token = models.CharField(max_length=64, default=new_token, editable=False)
    links = models.PositiveIntegerField(default=0, editable=False)  # as a table's (tokens.py)
    # The account that started the group, which may remove members (issue 41); none for a group
    # started by a phone without an account: then any member with an account and the member link.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    # Where the group plays: its evenings and dates in the history (issue 32); empty, the server's.
    time_zone = models.CharField(max_length=64, blank=True, default="")

    def __str__(self):
        return self.shown_name

    @property
    def shown_name(self) -> str:
        """The name as pages show it: the open default group's own name in the page's language."""
        if self.pk == DEFAULT_GROUP_ID and self.name == DEFAULT_GROUP_NAME:
            return gettext(self.name)
        return self.name

    @property
    def is_default(self) -> bool:
        return self.pk == DEFAULT_GROUP_ID

    def renew_links(self) -> None:
        """New member and watch links (issue 41): the old ones open nothing from now on, and a phone
        that opened them holds nothing (its grant names the old links' generation, tokens.py). The
        share links of the group's own sheets are renewed with them: a leak is closed whole."""
        with transaction.atomic():
            Group.objects.filter(pk=self.pk).update(
                token=new_token(), view_token=new_token(), links=models.F("links") + 1
            )
            for sheet in GroupSheet.objects.filter(group=self).only("pk"):  # one token each (unique)
                GroupSheet.objects.filter(pk=sheet.pk).update(share_token=new_token())
        self.refresh_from_db(fields=["token", "view_token", "links"])

    @classmethod
    def default(cls) -> "Group":
        group, _ = cls.objects.get_or_create(pk=DEFAULT_GROUP_ID, defaults={"name": DEFAULT_GROUP_NAME})
        return group


class Membership(models.Model):
    """In a private deployment (COMPANION_LOGIN_REQUIRED), an account that opened a group's link:
    its rights follow the account to every phone it logs in on."""

    class Rights(models.TextChoices):
        EDIT = "edit"
        VIEW = "view"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="group_memberships"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    rights = models.CharField(max_length=8, choices=Rights.choices)
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "group"], name="membership_unique")]

    def __str__(self):
        return f"{self.user} in {self.group_id} ({self.rights})"

    @classmethod
    def keep(cls, user, group: Group, rights: str) -> None:
        """The account is a member with these rights, or keeps the edit rights it had."""
        membership, made = cls.objects.get_or_create(user=user, group=group, defaults={"rights": rights})
        if not made and rights == cls.Rights.EDIT and membership.rights != cls.Rights.EDIT:
            cls.objects.filter(pk=membership.pk).update(rights=cls.Rights.EDIT)


class GroupSheet(models.Model):
    """A sheet a group wrote (issue 44, docs/sheets.md): a score sheet or a rules sheet, the
    group's own. Another group reads it only through its share link (`share_token`). A table
    copies the sheet when it starts, so a later version never changes a table already played."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sheets")
    sheet_id = models.CharField(max_length=60)  # the document's own id, one per group
    kind = models.CharField(max_length=8)  # "score" or "rules", as the document says
    name = models.CharField(max_length=80)  # the English name, for lists and the history
    document = models.JSONField()
    version = models.PositiveIntegerField(default=1)  # +1 each time a member sends a changed sheet
    share_token = models.CharField(max_length=64, default=new_token, editable=False, unique=True)
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "sheet_id"], name="one_sheet_id_per_group")]

    def __str__(self):
        return self.name

    @property
    def api_id(self) -> str:
        """Its id in the API and the links: the group's id, a dot, the sheet's (never a library id)."""
        return f"{self.group_id}.{self.sheet_id}"
