"""{{ text|rule_links:game }}: the ruling ids in a sentence become links to their text on the game's
rules page (issue 15: the rule, one tap away). Ids the game's rules do not hold stay plain text."""

import functools

from django import template
from django.urls import get_script_prefix, reverse
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from companion.games import registry, rulebook

register = template.Library()


@functools.cache
def _rules_page(slug: str, _prefix: str) -> str:
    """A game's rules page: asked for each sentence of a page, reversed once."""
    return reverse("tables:rules", args=[slug])


@register.filter
def rule_links(text, slug: str):
    if slug not in registry.GAMES:
        return text
    known = rulebook.rules(slug).ids()
    page = _rules_page(slug, get_script_prefix())

    def link(match) -> str:
        ruling = match.group(1)
        if ruling not in known:
            return ruling
        title = escape(gettext("Read rule {ruling}").format(ruling=ruling))
        return f'<a class="rule-link" href="{page}#{ruling}" title="{title}">{ruling}</a>'

    # A sentence already made safe (a translation with its names escaped) is not escaped twice.
    return mark_safe(rulebook.RULING_ID.sub(link, str(conditional_escape(text))))
