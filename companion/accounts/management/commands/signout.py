"""An operator's "sign out everywhere": `manage.py signout ann ben`, or `--everyone`."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from companion.accounts.models import Login


class Command(BaseCommand):
    help = "End every login of these accounts (or of every account): their phones must log in again."

    def add_arguments(self, parser):
        parser.add_argument("usernames", nargs="*", metavar="USERNAME")
        parser.add_argument("--everyone", action="store_true", help="every account of the server")

    def handle(self, *args, usernames, everyone, **options):
        if everyone == bool(usernames):
            raise CommandError("Name the accounts to sign out, or say --everyone.")
        if everyone:
            ended, _ = Login.objects.all().delete()
            self.stdout.write(f"Signed out everyone: {ended} logins ended.")
            return
        users = get_user_model().objects.filter(username__in=usernames)
        unknown = sorted(set(usernames) - {user.get_username() for user in users})
        if unknown:
            raise CommandError(f"No account named {', '.join(unknown)}: nobody was signed out.")
        for user in users.order_by("username"):
            ended, _ = Login.objects.filter(user=user).delete()
            self.stdout.write(f"{user.get_username()}: {ended} logins ended.")
