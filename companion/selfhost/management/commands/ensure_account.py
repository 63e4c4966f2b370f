"""Make the first account from COMPANION_ADMIN_USERNAME and COMPANION_ADMIN_PASSWORD (or _FILE),
once: an account of that name is left as it is (companion/selfhost/first_account.py)."""

import os

from django.core.management.base import BaseCommand, CommandError

from companion.selfhost.first_account import Refused, ensure_account


class Command(BaseCommand):
    help = (
        "Make the superuser COMPANION_ADMIN_USERNAME with COMPANION_ADMIN_PASSWORD (or the file "
        "COMPANION_ADMIN_PASSWORD_FILE) unless an account of that name exists; never changes a password."
    )

    def handle(self, *args, **options):
        try:
            self.stdout.write(ensure_account(os.environ))
        except Refused as refused:
            raise CommandError(str(refused)) from refused
