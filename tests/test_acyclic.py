"""companion/acyclic.py: a render and a page's request leave nothing for the cyclic collector
(issue 33), where Django's own leave their context and their request in cycles."""

import contextlib
import gc

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.template import Context
from django.template.backends import django as django_backend
from django.test import RequestFactory

from companion import acyclic, tokens
from companion.acyclic import WSGIHandlerWithoutCycles
from companion.tables import access, live_cache, services, views

pytestmark = pytest.mark.django_db(transaction=True)


@contextlib.contextmanager
def garbage_in_cycles():
    """The objects that only the cyclic collector would have freed while the block ran."""
    gc.collect()
    found: list = []
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def of_type(objects: list, kind: type) -> list:
    return [thing for thing in objects if issubclass(type(thing), kind)]  # type(): no lazy object wakes


def phone_at_a_table():
    """A Hang Four table a roll in, and a request of a phone that joined it by its edit link."""
    table = services.create_table("hang-four", ["Ann", "Bo", "Cy"], {})
    services.play_action(table.id, {"type": "roll", "face": 3}, table.version)
    table.refresh_from_db()
    request = RequestFactory().get(f"/t/{table.id}/")
    request.session = SessionStore()
    access.grant(request, table, tokens.EDIT)
    return table, request


def render_live_region(table, request) -> str:
    """The table's live region as its stream pushes it (views.shared_region), rendered afresh."""
    live_cache.clear()
    return views.shared_region(request, table, tokens.EDIT, False)[1]


def test_a_render_leaves_no_context_in_a_cycle():
    table, request = phone_at_a_table()
    render_live_region(table, request)  # the first render loads what lives as long as the process
    with garbage_in_cycles() as garbage:
        html = render_live_region(table, request)
    assert 'data-version="1"' in html
    assert garbage == []


def test_django_s_own_render_does_leave_one(monkeypatch):
    """What the check above would see without companion.acyclic (so it can fail)."""
    monkeypatch.setattr(acyclic.Template, "render", django_backend.Template.render)
    table, request = phone_at_a_table()
    render_live_region(table, request)
    with garbage_in_cycles() as garbage:
        render_live_region(table, request)
    assert len(of_type(garbage, Context)) == 1  # and with it the table's state, the screen's lists


def page(handler: WSGIHandler, path: str) -> int:
    """One page through the handler as PooledWSGI runs it; its status."""
    environ = RequestFactory()._base_environ(PATH_INFO=path, REQUEST_METHOD="GET")
    status = []
    answer = handler(environ, lambda line, headers, exc_info=None: status.append(int(line[:3])))
    try:
        b"".join(answer)
    finally:
        answer.close()
    return status[0]


def test_a_page_s_request_is_freed_without_the_collector():
    handler = WSGIHandlerWithoutCycles()
    page(handler, "/")  # the first request loads what lives as long as the process
    with garbage_in_cycles() as garbage:
        assert page(handler, "/") == 200
    assert garbage == []


def test_django_s_own_handler_leaves_the_request_in_a_cycle():
    handler = WSGIHandler()
    page(handler, "/")
    with garbage_in_cycles() as garbage:
        assert page(handler, "/") == 200
    assert len(of_type(garbage, WSGIRequest)) == 1
