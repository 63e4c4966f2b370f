"""The first account of a private server, from its environment (compose.yaml's .env): made once,
when no account of that name exists, and never touched again, so a restart resets no password
(change it with `manage.py changepassword`).

The password comes from COMPANION_ADMIN_PASSWORD, or from the file COMPANION_ADMIN_PASSWORD_FILE
names (a Docker secret). It must pass the project's password validators; the project sets none, so
it must then be at least MIN_LENGTH characters: this account opens the server on the internet.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

USERNAME = "COMPANION_ADMIN_USERNAME"
PASSWORD = "COMPANION_ADMIN_PASSWORD"
PASSWORD_FILE = "COMPANION_ADMIN_PASSWORD_FILE"
MIN_LENGTH = 12


class Refused(Exception):
    """The environment names an account that cannot be made as it stands: the sentence says why."""


def ensure_account(environ: Mapping[str, str]) -> str:
    """Make the account the environment names unless it exists; the sentence says what was done
    (never the password)."""
    name = environ.get(USERNAME, "").strip()
    if not name:
        if environ.get(PASSWORD) or environ.get(PASSWORD_FILE):
            raise Refused(f"{PASSWORD} is set but {USERNAME} is not: set the account's name too.")
        return f"No {USERNAME}: no account made."
    User = get_user_model()
    if User.objects.filter(**{User.USERNAME_FIELD: name}).exists():
        return f"The account {name!r} exists: left as it is (its password unchanged)."
    user = User(**{User.USERNAME_FIELD: name}, is_staff=True, is_superuser=True)
    check_name(user, name)
    password = password_from(environ)
    check_password(password, user)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # another server made it between the look and the write
        return f"The account {name!r} exists: left as it is (its password unchanged)."
    return f"Made the account {name!r} (superuser): log in with it at /accounts/login/."


def password_from(environ: Mapping[str, str]) -> str:
    given, path = environ.get(PASSWORD, ""), environ.get(PASSWORD_FILE, "")
    if given and path:
        raise Refused(f"Both {PASSWORD} and {PASSWORD_FILE} are set: keep one.")
    if not path:
        return given
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise Refused(f"Cannot read {PASSWORD_FILE} ({path}): {reason}.") from error
    return text.rstrip("\r\n")  # a secret's file ends with a line break that is not the password's


def check_name(user, name: str) -> None:
    field = user._meta.get_field(user.USERNAME_FIELD)
    try:
        field.clean(name, user)
    except ValidationError as error:
        reason = " ".join(error.messages)
        raise Refused(f"{USERNAME} {name!r} is not a valid account name: {reason}") from error


def check_password(password: str, user) -> None:
    if not password:
        raise Refused(f"No password for the first account: set {PASSWORD}, {MIN_LENGTH} characters or more.")
    validators = password_validation.get_default_password_validators() or [
        password_validation.MinimumLengthValidator(MIN_LENGTH)
    ]
    try:
        password_validation.validate_password(password, user, validators)
    except ValidationError as error:
        raise Refused(f"The first account's password is refused: {' '.join(error.messages)}") from error
