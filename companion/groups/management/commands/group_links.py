"""Print a group's member and watch links: how the operator of a hosted server reaches the default
group once COMPANION_DEFAULT_GROUP is off (nobody holds its links then), or any group's."""

from django.core.management.base import BaseCommand
from django.urls import reverse

from companion.groups.commands import group_named


class Command(BaseCommand):
    help = "Print a group's member link and watch link."

    def add_arguments(self, parser):
        parser.add_argument("group", nargs="?", default="default", help="the group's id (default: default)")
        parser.add_argument(
            "--base", default="", help="the server's address, e.g. https://companion.example.org"
        )

    def handle(self, *args, group, base, **options):
        found = group_named(group)
        base = base.rstrip("/")
        self.stdout.write(f"{found.name} ({found.pk})")
        self.stdout.write(f"member link: {base}{reverse('groups:join', args=[found.pk, found.token])}")
        self.stdout.write(f"watch link:  {base}{reverse('groups:join', args=[found.pk, found.view_token])}")
