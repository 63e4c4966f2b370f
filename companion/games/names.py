"""Names people type (players, groups, a pad's game and its categories): one way to write one name.

A name is kept in Unicode's composed form (NFC) with its spaces collapsed, so that "René" typed
with "é" or with "e" and a combining accent is one person (issue 28). A name may not hold what a
person cannot see or what turns the text around: control and format characters (zero-width
spaces, direction marks, overrides and isolates, the byte order mark), lone surrogates, and the
letters that draw as blank space. The zero-width joiner and the variation selectors stay where an
emoji needs them ("👨‍👩‍👧", "❤️"), which is where a phone's keyboard puts them.

Pure Python: the engines use it (the pad's names), and so do the app's forms and API.
"""

from __future__ import annotations

import unicodedata

REFUSED = {"Cc", "Cf", "Cs"}  # control, format, surrogate
BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}  # Hangul fillers, the blank braille cell
ZERO_WIDTH_JOINER = "\u200d"
KEYCAP = "\u20e3"


def tidy(raw: str) -> str:
    """The name in its one form: composed, spaces collapsed (not yet checked: see hidden)."""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def hidden(name: str) -> str | None:
    """The first character a name may not hold, as U+XXXX, or None when the name is clean."""
    for index, char in enumerate(name):
        if char in BLANK_LETTERS or _refused(name, index, char):
            return f"U+{ord(char):04X}"
    return None


def _refused(name: str, index: int, char: str) -> bool:
    if is_variation_selector(char):
        return not _after_emoji(name, index)
    if unicodedata.category(char) not in REFUSED:
        return False
    if char == ZERO_WIDTH_JOINER:  # joins two emoji into one (a family, a flag): kept there only
        after = name[index + 1 : index + 2]
        return not (_after_emoji(name, index) and after and unicodedata.category(after) == "So")
    return True


def is_variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def _after_emoji(name: str, index: int) -> bool:
    """What comes before `index` is an emoji (a symbol, a skin tone, an emoji's own selector) or a
    keycap's digit."""
    before = name[index - 1 : index]
    if not before:
        return False
    keycap = before in "0123456789#*" and name[index + 1 : index + 2] == KEYCAP
    return keycap or unicodedata.category(before) in ("So", "Sk") or is_variation_selector(before)
