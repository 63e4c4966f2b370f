"""What a file is, said plainly when it is not what the member chose (issue 42: a UTF-16 file,
BoardGameGeek's HTML error page, XML sent as a BG Stats file), and the days a play may fall on."""

from __future__ import annotations

import codecs
import datetime as dt

from django.utils.translation import gettext as _

from companion.history.history_file import ImportRefused

from .records import PlayProblem

FIRST_YEAR = 1900  # a play before this is a typing mistake (issue 42)


def text_of(raw: bytes) -> str:
    """The file's text: UTF-8 (with or without its mark), or UTF-16/32 when it starts with their
    mark (Windows' Notepad saves so)."""
    for mark, encoding in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if raw.startswith(mark):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError as error:
                raise ImportRefused(_("The file says it is UTF-16 text but is not.")) from error
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportRefused(
            _("The file is not text (UTF-8 or UTF-16): it is not a BG Stats or BoardGameGeek file.")
        ) from error


def is_web_page(text: str) -> bool:
    start = text.lstrip()[:200].casefold()
    return start.startswith("<!doctype html") or start.startswith("<html") or "<html" in start


def xml_not_json(text: str) -> str:
    if is_web_page(text):
        return web_page()
    return _(
        "This is an XML file, not a BG Stats export: a BoardGameGeek plays file? Choose BoardGameGeek for it."
    )


def web_page() -> str:
    return _(
        "This is a web page (HTML), not a plays file: BoardGameGeek answers an error page so when a "
        "request fails. Save the plays XML itself, then bring that file."
    )


def json_not_xml() -> str:
    return _("This is a JSON file, not BoardGameGeek's plays XML: a BG Stats export? Choose BG Stats for it.")


def check_day(day: dt.date, where: str) -> None:
    """A play's day between 1900 and tomorrow (a later one is a typing mistake: it is left out,
    with a warning, rather than kept where every figure would count it)."""
    tomorrow = dt.date.today() + dt.timedelta(days=1)
    if not (dt.date(FIRST_YEAR, 1, 1) <= day <= tomorrow):
        message = _("{where}: its date {date} is before 1900 or after tomorrow: left out.")
        raise PlayProblem(message.format(where=where, date=day.isoformat()))
