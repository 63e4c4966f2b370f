"""A self-hosted server's start (issue 41): the first account from the environment
(`manage.py ensure_account`) and the migrations one server at a time (`manage.py migrate_once`),
on the test database (SQLite, or PostgreSQL under DATABASE_URL)."""

from __future__ import annotations

import io
import subprocess
import sys
import time

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection

from companion.selfhost.migration_lock import migration_lock

from .servers import ROOT, server_environment

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"  # 21 characters
ACCOUNT_ENV = ("COMPANION_ADMIN_USERNAME", "COMPANION_ADMIN_PASSWORD", "COMPANION_ADMIN_PASSWORD_FILE")


@pytest.fixture(autouse=True)
def no_account_in_the_environment(monkeypatch):
    for name in ACCOUNT_ENV:
        monkeypatch.delenv(name, raising=False)


def ensure(**environ) -> str:
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        for name, value in environ.items():
            patch.setenv(name, value)
        call_command("ensure_account", stdout=out)
    return out.getvalue().strip()


def test_the_first_account_is_made_from_the_environment():
    said = ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD=PASSWORD)
    assert said == "Made the account 'ann' (superuser): log in with it at /accounts/login/."
    ann = User.objects.get(username="ann")
    assert (ann.is_superuser, ann.is_staff, ann.is_active) == (True, True, True)
    assert ann.check_password(PASSWORD)


def test_an_existing_account_is_left_as_it_is_on_every_restart():
    ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD=PASSWORD)
    said = ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD="another long password")
    assert said == "The account 'ann' exists: left as it is (its password unchanged)."
    assert User.objects.get(username="ann").check_password(PASSWORD)
    # Even a password that would be refused: an existing account is not looked at again.
    assert ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD="") == said
    assert User.objects.count() == 1


def test_without_a_name_no_account_is_made():
    assert ensure() == "No COMPANION_ADMIN_USERNAME: no account made."
    with pytest.raises(
        CommandError, match="COMPANION_ADMIN_PASSWORD is set but COMPANION_ADMIN_USERNAME is not"
    ):
        ensure(COMPANION_ADMIN_PASSWORD=PASSWORD)
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("password", "refusal"),
    [
        ("", "No password for the first account: set COMPANION_ADMIN_PASSWORD, 12 characters or more."),
        (
            "short pass1",
            "The first account's password is refused: This password is too short. "
            "It must contain at least 12 characters.",
        ),
    ],
)
def test_an_empty_or_short_password_is_refused_with_the_reason(password, refusal):
    with pytest.raises(CommandError) as refused:
        ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD=password)
    assert str(refused.value) == refusal
    assert not User.objects.exists()


def test_the_projects_own_validators_decide_when_it_sets_any(settings):
    settings.AUTH_PASSWORD_VALIDATORS = [
        {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"}
    ]
    with pytest.raises(CommandError, match="This password is entirely numeric."):
        ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD="123456789012345")
    ensure(
        COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD="abc"
    )  # no length set: the project's choice
    assert User.objects.get(username="ann").check_password("abc")


def test_a_bad_account_name_is_refused():
    with pytest.raises(
        CommandError, match="COMPANION_ADMIN_USERNAME 'ann smith' is not a valid account name"
    ):
        ensure(COMPANION_ADMIN_USERNAME="ann smith", COMPANION_ADMIN_PASSWORD=PASSWORD)


def test_the_password_from_a_docker_secret_file(tmp_path):
    secret = tmp_path / "admin_password"
    secret.write_text(PASSWORD + "\n")  # as `echo ... > file` writes it
    ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD_FILE=str(secret))
    assert User.objects.get(username="ann").check_password(PASSWORD)


def test_a_missing_secret_file_or_two_passwords_are_refused(tmp_path):
    missing = tmp_path / "nothing"
    with pytest.raises(CommandError, match=f"Cannot read COMPANION_ADMIN_PASSWORD_FILE \\({missing}\\)"):
        ensure(COMPANION_ADMIN_USERNAME="ann", COMPANION_ADMIN_PASSWORD_FILE=str(missing))
    secret = tmp_path / "admin_password"
    secret.write_text(PASSWORD)
    with pytest.raises(CommandError, match="Both COMPANION_ADMIN_PASSWORD and COMPANION_ADMIN_PASSWORD_FILE"):
        ensure(
            COMPANION_ADMIN_USERNAME="ann",
            COMPANION_ADMIN_PASSWORD=PASSWORD,
            COMPANION_ADMIN_PASSWORD_FILE=str(secret),
        )
    assert not User.objects.exists()


def manage(*args: str, env: dict | None = None) -> subprocess.Popen:
    """manage.py in a process of its own on the test database, as a container's entrypoint runs it."""
    environment = {**server_environment(env), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "manage.py", *args]
    return subprocess.Popen(
        command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


@pytest.mark.django_db(transaction=True)
def test_the_command_line_says_what_it_did_and_never_the_password():
    env = {"COMPANION_ADMIN_USERNAME": "ann", "COMPANION_ADMIN_PASSWORD": "too short"}
    out, err = manage("ensure_account", env=env).communicate(timeout=60)
    assert b"This password is too short" in err and b"too short\n" not in out + err
    made = manage("ensure_account", env={**env, "COMPANION_ADMIN_PASSWORD": PASSWORD})
    out, err = made.communicate(timeout=60)
    assert (made.returncode, out, err) == (
        0,
        b"Made the account 'ann' (superuser): log in with it at /accounts/login/.\n",
        b"",
    )
    assert User.objects.get(username="ann").check_password(PASSWORD)


@pytest.mark.django_db(transaction=True)
def test_a_second_server_waits_while_the_first_migrates():
    """The lock is the database's (PostgreSQL's advisory lock, SQLite's lock file): a server
    starting while another migrates waits for it, then finds nothing left to do."""
    with migration_lock(connection):
        second = manage("migrate_once")
        line = second.stdout.readline()  # blocks until it says something
        assert line == b"Another server is migrating the database: waiting for it to finish.\n"
        time.sleep(1.0)
        assert second.poll() is None  # still waiting
    out, err = second.communicate(timeout=60)
    assert (second.returncode, err) == (0, b"")
    assert b"No migrations to apply." in out
