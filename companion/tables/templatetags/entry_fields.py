"""{% entry_fields %}: the fields every form that writes to a table carries: the CSRF token, the
version the phone saw (a stale one is refused, not applied twice) and the idempotency key (a form
sent twice is applied once).

A tag rather than an included template: a region holds up to ~40 such forms (a sheet's lit
cells), and a tag skips an include's context and lookup for each (issue 45; measured with
bench/region_render.py --against, a region renders in 0.95-1.00 of the time it took)."""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import format_html

register = template.Library()
_CSRF_TOKEN = CsrfTokenNode()  # Django's {% csrf_token %}, word for word


@register.simple_tag(takes_context=True)
def entry_fields(context) -> str:
    table = context.get("table")
    return format_html(
        '{}\n<input type="hidden" name="expected_version" value="{}">\n'
        '<input type="hidden" name="idempotency_key" value="{}">\n',
        _CSRF_TOKEN.render(context),
        "" if table is None else table.version,
        context.get("form_key", ""),
    )
