# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test browser redis install lint check clean golden bench fuzz messages translations

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the pinned requirements change (the app's, and the tests' beside them).
$(STAMP): requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# The French catalogs (locale/fr) compiled for Django (issue 17): gettext's msgfmt does it. As root
# on Debian it is installed here when missing; elsewhere make stops with the command to run.
translations: install
	@command -v msgfmt >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing gettext for the translations"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
	  else \
	    echo "make: the translations need gettext's msgfmt. Run: sudo apt-get install gettext"; \
	    exit 1; \
	  fi; }
	$(BIN)/python manage.py compilemessages --ignore=.venv --verbosity 0

# After a sentence changes in the code or a template: the catalogs get its msgid (to translate in
# locale/fr/LC_MESSAGES/*.po; tests/web/test_french.py fails until every msgid has its French).
# A game's sentences go to its own catalog, <game folder>/locale/fr/, made here for every registered
# game: a new game starts with its own empty catalog, never prefilled from another game's French.
MESSAGES_IGNORE := --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --ignore=docs
messages: install
	$(BIN)/python -c "from companion.games import registry; \
	  [(registry.folder(s) / 'locale/fr/LC_MESSAGES').mkdir(parents=True, exist_ok=True) for s in registry.GAMES]"
	$(BIN)/python manage.py makemessages -l fr --no-location --no-obsolete $(MESSAGES_IGNORE) --verbosity 0
	$(BIN)/python manage.py makemessages -d djangojs -l fr --no-location --no-obsolete $(MESSAGES_IGNORE) --ignore=templates --verbosity 0

# On a LAN the phones reach the app by this machine's address, whatever it is today. How gunicorn
# serves it (workers, logs, which proxies it believes: none by default) is gunicorn.conf.py's.
run: export ALLOWED_HOSTS ?= *
run: install translations
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py announce --host $(HOST) --port $(PORT)
	$(BIN)/gunicorn companion.asgi --bind $(HOST):$(PORT)

# The browser tests drive Debian's chromium and are never skipped in silence (issue 17): as root on
# Debian it is installed here, as .ci/run does; elsewhere `make test` stops with the command to run.
browser:
	@[ -x /usr/bin/chromium ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null; \
	  else \
	    echo "make test: the browser tests need Debian's chromium. Run: sudo apt-get install chromium fonts-noto-color-emoji"; \
	    exit 1; \
	  fi; }

# The fault tests (tests/test_faults.py, issue 28) start a Redis of their own to stop and freeze.
redis:
	@command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing redis-server for the fault tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; \
	  else \
	    echo "make test: the fault tests need redis-server. Run: sudo apt-get install redis-server"; \
	    exit 1; \
	  fi; }

test: install browser redis translations
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

golden: install
	$(BIN)/python -m tests.engines.golden_playthrough

# The long fuzz of issue 7: hypothesis on every engine, schemathesis on the whole JSON API (in-process,
# on SQLite or on DATABASE_URL), and hypothesis on every page's URLs, queries and forms (issue 41).
# `make test` runs the same files with a small budget. ~8 min.
FUZZ_EXAMPLES ?= 500
HOSTILE_EXAMPLES ?= 1000
fuzz: install
	HYPOTHESIS_PROFILE=fuzz FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) HOSTILE_EXAMPLES=$(HOSTILE_EXAMPLES) \
		$(BIN)/pytest tests/engines/test_hostile_sequences.py tests/api/test_fuzz_api.py \
		tests/web/test_fuzz_pages.py -q $(PYTEST_ARGS)

# The performance budget of issue 7 (gunicorn on PostgreSQL, then SQLite), then the history pages
# of one group at 100 and 2,000 plays and among 1,000 groups of 200 (bench/history.py); ~6 min.
bench: install
	$(BIN)/python bench/run.py $(BENCH_ARGS)
	$(BIN)/python bench/history.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 .pytest_cache
