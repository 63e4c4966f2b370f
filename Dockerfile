# Table Companion's app server, for compose.yaml (docs/self-hosting.md; issue 41): the app served as
# `make run` serves it (gunicorn with gunicorn.conf.py's uvicorn workers), as a user without rights.
#
# The base is pinned by its exact tag. Pin its digest as well (FROM python:3.11.16-slim-bookworm@sha256:...,
# from `docker buildx imagetools inspect python:3.11.16-slim-bookworm`) where a registry can be
# asked: this file was written offline, where none could.
FROM python:3.11.16-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# gettext's msgfmt compiles the French catalogs (the Makefile's `translations`); only here. Debian's
# packages are not pinned: a security update replaces a version, and a pinned build would break.
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gettext \
 && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
# The catalogs, the static files (whitenoise serves them) and the bytecode, made once here. A key
# for these commands only: without one, settings.py would write one into the image.
RUN export SECRET_KEY=image-build-only \
 && python manage.py compilemessages --verbosity 0 \
 && python manage.py collectstatic --noinput --verbosity 0 \
 && python -m compileall -q companion

FROM python:3.11.16-slim-bookworm
# PostgreSQL's client (pg_dump, pg_restore, psql: 15, as compose.yaml's server) for manage.py backup
# and restore; the user the app runs as, who can write nothing of the app's.
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 companion \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin companion
ENV PATH=/opt/venv/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app
USER 10001:10001
EXPOSE 8000
# deploy/entrypoint.sh: the host settings, the migrations (one server at a time), the first account.
ENTRYPOINT ["/app/deploy/entrypoint.sh"]
CMD ["gunicorn", "companion.asgi", "--bind", "0.0.0.0:8000"]
