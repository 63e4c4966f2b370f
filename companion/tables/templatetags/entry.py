"""{{ mapping|lookup:key }}: one entry of a dict the screen built, by a key the template holds in a
variable (a card entry's field prefix). Nothing there is an empty dict, so its fields read as empty."""

from django import template

register = template.Library()


@register.filter
def lookup(mapping, key):
    return mapping.get(key, {}) if isinstance(mapping, dict) else {}
