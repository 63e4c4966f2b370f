"""How gunicorn serves the app, read from this folder by every start: `make run`, the Procfile, the
tests' app servers and the benchmark. One place, so that no start trusts what another does not.

FORWARDED_ALLOW_IPS names the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are
believed (addresses or networks, comma-separated; "*" only where nothing but the proxy can reach
the app, as behind a PaaS router). By default nobody: a client that sends X-Forwarded-For cannot
choose the address its rate limits count against (issue 28). uvicorn applies it (its
ProxyHeadersMiddleware): the client address is the first one from the right not named here.
"""

import gc
import importlib
import os
import shutil
import sys
import tempfile

worker_class = "uvicorn_worker.UvicornWorker"  # ASGI: companion/asgi.py
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
graceful_timeout = 5
accesslog = "-"
logger_class = "companion.gunicorn_logging.TokenFreeLogger"  # no share link's token in a log line
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "")
# No control socket (gunicornc): nothing here uses one, and gunicorn makes it at one path per user
# ($XDG_RUNTIME_DIR or ~/.gunicorn/gunicorn.ctl), so two servers of one user took it from each other
# and stopping one removed the other's (issue 41).
control_socket_disable = True
# The master loads the app (and on_starting its URLs) before it opens the socket, and the workers
# fork from it ready: a (re)starting server answered its first connection 1.3-1.5 s after accepting
# it, while each worker imported Django (the audit saw ~5 s on a loaded machine); now 0.13-0.26 s
# (issue 41). Loading opens no connection and starts no thread (the pools of asgi.py, fanout.py and
# live_push.py start theirs at their first task); pre_fork closes a connection all the same. New
# code takes a restart (a HUP reloads the workers from the master's loaded app).
preload_app = True

# The collector (issue 33): a worker holding 750 phones' streams has a large heap, and a full
# collection walks all of it, holding the event loop 100-200 ms at 500 tables. What the app built
# while loading (Django, its templates, the games) lives as long as the worker: frozen, it is never
# walked. The rest, measured by the pauses at 500 tables (gc callbacks in both workers): Python's
# own thresholds made a full collection every ~6 s (12 in a step, 100-210 ms each); 10,000 young
# objects a collection made each young one slow (up to 90 ms) and the middle one up to 110 ms;
# at (2,000, 10, 100) the longest pause was 38-76 ms, with a full collection every few minutes at
# 500 tables (the cycles it frees, of streams closed meanwhile, wait that long).
GC_THRESHOLDS = (2_000, 10, 100)  # Python's own: (700, 10, 10)
# A thread that waits for the interpreter (a view back from a query, a render back from a read)
# waits at most this long for the one holding it: at Python's own 5 ms, a write took the lock of
# SQLite (or a row of PostgreSQL) and then waited its turn several times while holding it. At
# 500 tables, interleaved runs, p99 of an entry to the other phones: SQLite 188 -> 145 ms,
# PostgreSQL 249 -> 74 ms (0.5 ms, one run before the shared render, was worse).
SWITCH_INTERVAL = 0.002


def pre_fork(server, worker):
    if server.cfg.preload_app:
        # A database connection the master had opened would be one socket shared by every worker.
        from django.db import connections

        connections.close_all()


def post_worker_init(worker):
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
    # On SQLite, a thread checkpoints the log so that no write waits for it (issue 33).
    from companion.sqlite_writer import checkpoints

    checkpoints.start_for_default_database()


# The workers of one start share a directory in memory (/dev/shm where the system has it): a
# table's live region, pushed in its phones' streams, is rendered there by one worker for all
# (companion/tables/live_share.py, issue 33). Each start its own: no server reads another's.
LIVE_DIR_ENV = "COMPANION_LIVE_DIR"


def on_starting(server):
    memory = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    os.environ[LIVE_DIR_ENV] = tempfile.mkdtemp(prefix="companion-live-", dir=memory)
    if server.cfg.preload_app:
        # Still before the socket opens: the URLs' modules (the views, the API) load once here, not
        # in each worker at its first request (0.3 s of it).
        from django.conf import settings

        importlib.import_module(settings.ROOT_URLCONF)


def on_exit(server):
    shutil.rmtree(os.environ.pop(LIVE_DIR_ENV, ""), ignore_errors=True)
