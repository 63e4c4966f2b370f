from django import template

register = template.Library()


@register.filter
def percent(fraction) -> str:
    """0.6667 -> "67%"; no plays (None) -> "–"."""
    if fraction is None:
        return "–"
    return f"{round(fraction * 100)}%"
