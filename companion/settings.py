"""Settings, all from the environment (healthchecks style: os.getenv plus small helpers)."""

import os
import tempfile
from pathlib import Path

import dj_database_url

from companion.games import registry

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    return os.getenv(name, default).strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: str) -> int:
    return int(os.getenv(name, default))


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def load_secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once and kept in an ignored file."""
    if os.getenv("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        from django.core.management.utils import get_random_secret_key

        path.write_text(get_random_secret_key())
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = load_secret_key()
DEBUG = envbool("DEBUG", "false")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "*" if DEBUG else "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # "last seen 5 minutes ago" on the account's page
    "django_htmx",
    "template_partials",
    "crispy_forms",
    "crispy_bootstrap5",
    "js_lib_bootstrap5",
    "ninja",
    "csp",
    "django_ratelimit",
    "companion.accounts",
    "companion.groups",
    "companion.tables",
    "companion.history",
    "companion.selfhost",  # the first account, migrations one at a time, backups (issue 41)
    *registry.apps(),  # each game's folder, for its templates
]
# The benchmark's write floor (bench/floor, issue 13): mounted only when bench/run.py asks for it.
BENCH_FLOOR = os.environ.get("COMPANION_BENCH_FLOOR", "") == "1"
if BENCH_FLOOR:
    INSTALLED_APPS.append("bench.floor")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "companion.middleware.CompleteBodyMiddleware",
    # HTML compressed (a table page is ~8x smaller); Django's gzip pads at random against BREACH.
    "companion.middleware.GZipMiddleware",  # Django's, but never an event stream
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "companion.middleware.PrivateAnswersMiddleware",  # after whitenoise: static files stay cacheable
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the cookie's language, else Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "companion.middleware.PrivateDeploymentMiddleware",  # only with COMPANION_LOGIN_REQUIRED
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
    "companion.middleware.LostDatabaseMiddleware",  # last: the first to see a view's exception
]

# No inline script or style anywhere: every script and stylesheet is a static file of our own or of
# an installed package (htmx is told not to inject its indicator styles, see base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'", "data:"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# Rate limits per client address (django-ratelimit): table creation and every write. The address is
# REMOTE_ADDR: the peer's, or behind a proxy named in FORWARDED_ALLOW_IPS the one it saw
# (gunicorn.conf.py). A cache that does not answer lets requests through (companion/cache.py).
RATELIMIT_ENABLE = envbool("RATELIMIT_ENABLE", "true")
RATELIMIT_TABLES = os.getenv("RATELIMIT_TABLES", "20/m")
RATELIMIT_WRITES = os.getenv("RATELIMIT_WRITES", "240/m")
RATELIMIT_PASSWORDS = os.getenv("RATELIMIT_PASSWORDS", "10/h")  # password changes tried, per account
RATELIMIT_VIEW = "companion.tables.views.too_many_requests"
RATELIMIT_FAIL_OPEN = True

# The counters live in the cache. One app server (make run) keeps them in memory, per worker; several
# servers share REDIS_URL so that a client cannot spread its requests over them. A LAN or a data
# centre answers in a millisecond: REDIS_TIMEOUT bounds what a stopped or hung Redis costs a request.
REDIS_TIMEOUT = float(os.getenv("REDIS_TIMEOUT", "0.25"))  # seconds
if os.getenv("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "companion.cache.ResilientRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003"]
SILENCED_SYSTEM_CHECKS = [*globals().get("SILENCED_SYSTEM_CHECKS", []), "django_ratelimit.W001"]

# The table loop (companion/tables/fanout.py, stream.py): how a write reaches the other phones.
COMPANION_FANOUT = os.getenv("COMPANION_FANOUT", "auto")  # auto, redis, postgres or watch
COMPANION_WATCH_INTERVAL = float(os.getenv("COMPANION_WATCH_INTERVAL", "0.05"))  # seconds (watch)
COMPANION_STREAM_HEARTBEAT = float(os.getenv("COMPANION_STREAM_HEARTBEAT", "20"))  # seconds
COMPANION_STREAM_LIFETIME = float(os.getenv("COMPANION_STREAM_LIFETIME", "600"))  # then reconnect
# Open streams one client address may hold in each worker (0: no bound). A phone holds one; a venue's
# phones behind one address (a NAT) share it: raise it for a convention behind one.
COMPANION_STREAMS_PER_ADDRESS = envint("COMPANION_STREAMS_PER_ADDRESS", "100")

ROOT_URLCONF = "companion.urls"
WSGI_APPLICATION = "companion.wsgi.application"
ASGI_APPLICATION = "companion.asgi.application"

TEMPLATES = [
    {
        # Django's, without the reference cycle a render leaves (companion/acyclic.py); the name
        # template_partials looks for to wrap the loaders.
        "BACKEND": "companion.acyclic.DjangoTemplates",
        "NAME": "django",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "companion.groups.context.nav_group",
            ],
            # {% translate %} and {% blocktranslate %} in every template without a {% load %} (issue 17).
            # Django's i18n tags with the French elisions where a name meets a sentence (issue 43):
            # builtins, so no template loads Django's own with {% load i18n %}.
            "builtins": [
                "template_partials.templatetags.partials",
                "companion.elided_i18n",
                "companion.tables.templatetags.said",
                "companion.tables.templatetags.entry_fields",  # every form that writes to a table
            ],
        },
    }
]

# SQLite by default (a file next to the code); DATABASE_URL switches to PostgreSQL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Reuse connections: opening one per request doubled the time of a write on PostgreSQL.
        conn_max_age=envint("CONN_MAX_AGE", "60"),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Its writers queue on a lock file and wake as soon as it is free (companion/sqlite_writer).
    DATABASES["default"]["ENGINE"] = "companion.sqlite_writer"
    # IMMEDIATE takes the write lock when a transaction starts, so two phones writing at once
    # queue up instead of failing with "database is locked" half-way through.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    )
    # Tests use a file too: an in-memory database fails concurrent writers at once ("table is
    # locked") instead of queueing them as the file does, so it would test something else.
    # One file per test run, so two runs on one machine do not share it.
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"companion-test-{os.getpid()}.sqlite3")
    }

# PostgreSQL: an entry's two statements are prepared once per connection (tables/entry_sql.py).
# Off for a pooler in transaction mode that keeps no prepared statements (PgBouncer before 1.21).
COMPANION_PREPARED_ENTRIES = envbool("COMPANION_PREPARED_ENTRIES", "true")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
# English and French (issue 17): the browser's language, until the phone picks one with the switch
# on every page, which the language cookie keeps for a year.
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.getenv("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Signed-cookie sessions: a poll reads no session row, so an idle table costs one query. A signed-in
# one counts while its login is on record (companion/accounts, issue 41): logging out, a password
# change or "sign out everywhere" ends it on every server; and a login lasts so many days, or
# ends sooner when unused for so many.
SESSION_ENGINE = "companion.accounts.sessions"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 90  # a table's links stay open on a phone for a season
COMPANION_SESSION_DAYS = envint("COMPANION_SESSION_DAYS", "90")
COMPANION_SESSION_IDLE_DAYS = envint("COMPANION_SESSION_IDLE_DAYS", "30")
# An open event stream of a signed-in phone ends within this many seconds of its login's end.
COMPANION_SESSION_RECHECK = float(os.getenv("COMPANION_SESSION_RECHECK", "5"))
# Bodies, refused unread when larger (asgi.py): a form or JSON; a history file (the import page's
# upload); the API's imports, whose JSON holds a file (escaping may double its size). Django's own
# bound is the largest of them.
MAX_BODY_BYTES = 256 * 1024
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_IMPORT_BODY_BYTES = 2 * MAX_UPLOAD_BYTES
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_IMPORT_BODY_BYTES

# A private deployment (a group on the internet): log in (Django accounts, made with createsuperuser)
# for everything but a table reached through its own links and the JSON API's table calls, which
# carry the table's token. Read per request by companion.middleware.PrivateDeploymentMiddleware.
LOGIN_REQUIRED = envbool("COMPANION_LOGIN_REQUIRED", "false")
# One group open to whoever reaches the server, which every table without a group joins (a LAN
# game night). Off for a hosted server: a table then starts in a group, from its link (issue 16).
DEFAULT_GROUP = envbool("COMPANION_DEFAULT_GROUP", "true")
# A new password (a member's change, the first account from the environment): Django's checks, and
# 12 characters at least, since a private server is on the internet.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"

# Production hardening, on whenever DEBUG is off (manage.py check --deploy stays clean).
if not DEBUG:
    # No SECURE_PROXY_SSL_HEADER: uvicorn takes the scheme from X-Forwarded-Proto, and only from a
    # proxy named in FORWARDED_ALLOW_IPS (gunicorn.conf.py); Django's would believe any client.
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "false")
    SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", "false")
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
    SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A share link holds a table's or a group's token in its path: no log line may repeat it.
    "filters": {"no_tokens": {"()": "companion.log_redaction.HideTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["no_tokens"]}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
}
