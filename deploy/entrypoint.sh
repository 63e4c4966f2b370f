#!/bin/sh
# The app container's start (Dockerfile, compose.yaml; issue 41): the host settings from
# COMPANION_HOST, the migrations (one server at a time: two containers start together), the first
# account from the environment, then the command: gunicorn, as `make run` serves the app.
set -eu
: "${SECRET_KEY:?is not set: put one in .env (docs/self-hosting.md)}"
eval "$(python -m companion.selfhost.host_settings)"
python manage.py migrate_once
python manage.py ensure_account
exec "$@"
