"""{{ engine.name|said }}: a word an engine marked for the catalog (words.gettext_noop), said in the
page's language where it is used (issue 17). A game's own name is the same in every language."""

from django import template
from django.utils.translation import gettext

register = template.Library()


@register.filter
def said(value: str) -> str:
    return gettext(value) if value else ""
