"""Django's `migrate --noinput`, one server at a time (companion/selfhost/migration_lock.py): what
each app container runs as it starts."""

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections

from companion.selfhost.migration_lock import migration_lock


class Command(BaseCommand):
    help = "Apply the migrations, waiting while another server applies them (safe for several at once)."

    def handle(self, *args, verbosity=1, **options):
        connection = connections[DEFAULT_DB_ALIAS]

        def waiting():
            self.stdout.write("Another server is migrating the database: waiting for it to finish.")
            self.stdout.flush()

        with migration_lock(connection, waiting):
            call_command("migrate", interactive=False, verbosity=verbosity, stdout=self.stdout)
