"""The words engines speak, in whatever language the app has chosen (issue 17).

Engines stay free of Django: they call these functions, which speak English until the app plugs
in its own (Django's gettext, by companion.tables.apps), so a test without Django reads English
and a test can plug in any catalog. The names are gettext's own, so `makemessages` finds every
sentence an engine says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .elision import Phrase


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


def _english_context(context: str, message: str) -> str:
    return message


ENGLISH = {"gettext": _english, "ngettext": _english_plural, "pgettext": _english_context}
_plugged: dict[str, Callable] = dict(ENGLISH)
# A language spoken for a while (speaking()), in this context only: a write says its log sentence
# in each language without touching the request's.
_speaking: ContextVar[dict | None] = ContextVar("speaking", default=None)


@contextmanager
def speaking(functions: dict[str, Callable]) -> Iterator[None]:
    """Say every sentence with `functions` (gettext, ngettext and pgettext; ENGLISH for the
    msgids themselves) until the block ends."""
    token = _speaking.set(functions)
    try:
        yield
    finally:
        _speaking.reset(token)


def plug(gettext: Callable, ngettext: Callable, pgettext: Callable) -> None:
    """The app's translation functions, used from now on by every engine."""
    _plugged.update(gettext=gettext, ngettext=ngettext, pgettext=pgettext)


def unplug() -> None:
    """English again (for tests)."""
    _plugged.update(ENGLISH)


# Each sentence is a Phrase: its .format() makes the elisions its values ask for ("d'Ann").
def gettext(message: str) -> str:
    return Phrase((_speaking.get() or _plugged)["gettext"](message))


def ngettext(singular: str, plural: str, number: int) -> str:
    return Phrase((_speaking.get() or _plugged)["ngettext"](singular, plural, number))


def pgettext(context: str, message: str) -> str:
    return Phrase((_speaking.get() or _plugged)["pgettext"](context, message))


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 11th ... in English; 1er, 2e ... where the catalog says so."""
    if number == 1:
        return pgettext("ordinal", "1st")
    last, tens = number % 10, number % 100
    if last == 1 and tens != 11:
        form = pgettext("ordinal", "{n}st")
    elif last == 2 and tens != 12:
        form = pgettext("ordinal", "{n}nd")
    elif last == 3 and tens != 13:
        form = pgettext("ordinal", "{n}rd")
    else:
        form = pgettext("ordinal", "{n}th")
    return form.format(n=number)


def gettext_noop(message: str) -> str:
    """Marks a sentence for the catalog where it is defined; it is translated where it is said."""
    return message


_ = gettext


def language() -> str:
    """The language the words speak now, "en" or "fr": for a sheet's own names, which come in
    both (a rules sheet's rows and dice, issue 44). The French catalog says "fr" here."""
    return "fr" if str(pgettext("language code", "en")) == "fr" else "en"


def said(names: dict) -> str:
    """A sheet's {"en": ..., "fr": ...} name in the language spoken now."""
    return names[language()]
