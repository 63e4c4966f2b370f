"""Renders and requests that leave no reference cycle behind (issue 33).

Django's own leave one each, which only the cyclic collector frees, and at 500 live tables a
collection's pause is what the slowest page updates wait for:

- a render: make_context pushes the view's dict as a ContextDict, which points back at its
  Context, so the whole context (a table's state, its log, the screen's lists: ~1,000 objects)
  outlives the render until a collection finds it;
- a request: its user (a lazy object whose function holds the request), its messages' storage,
  its htmx details and its CSP nonce each point back at it.

Emptying them once they are done lets reference counting free them at once.
"""

from __future__ import annotations

from django.core.handlers.wsgi import WSGIHandler
from django.template import TemplateDoesNotExist
from django.template.backends import django as django_backend


class Template(django_backend.Template):
    def render(self, context=None, request=None):
        made = django_backend.make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            return self.template.render(made)
        except TemplateDoesNotExist as exc:
            django_backend.reraise(exc, self.backend)
        finally:
            made.dicts.clear()


class DjangoTemplates(django_backend.DjangoTemplates):
    """Django's backend whose templates are the Template above. settings.TEMPLATES names it with
    NAME "django", so that template_partials still wraps its loaders."""

    def from_string(self, template_code):
        return Template(self.engine.from_string(template_code), self)

    def get_template(self, template_name):
        try:
            return Template(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            django_backend.reraise(exc, self)


class WSGIHandlerWithoutCycles(WSGIHandler):
    """Django's WSGI handler; a request is emptied when its response closes (after the middleware
    saved the session and the messages, before request_finished)."""

    def get_response(self, request):
        response = super().get_response(request)
        response._resource_closers.append(request.__dict__.clear)
        return response
