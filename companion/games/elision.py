"""French elision where a sentence meets a name (issue 43): "la feuille de {name}" is "de Ben" but
"d'Ann", "le {kind}" is "le chat" but "l'ours". A translator cannot write it: the word after "de"
is known only once the sentence is said. Pure Python, so engines and templates share it.

French drops the vowel of de, que, le, la (and jusque, lorsque, puisque) before a word that starts
with a vowel sound. Left alone: a word starting with h (h aspiré or not: "de Hang Four" and many
names keep their "de"), y before a vowel ("de Yahtzee", "de Yann"), and the words that refuse
elision (onze, oui).
"""

from __future__ import annotations

import re

VOWELS = "aeiouàâäéèêëîïôöùûüæœ"
NEVER_ELIDED = ("onze", "onzième", "oui", "ouistiti", "yaourt")
# Tags between the two words are kept where they are ("de <strong>Ann</strong>").
WORD_BEFORE = r"(?<![\w'’-])(de|que|jusque|lorsque|puisque|le|la)"
ELIDABLE = re.compile(WORD_BEFORE + r"\s+((?:<[^<>]*>)*)(?=\w)", re.IGNORECASE)


def starts_with_vowel_sound(word: str) -> bool:
    lowered = word.lower()
    if not lowered or lowered.startswith(NEVER_ELIDED):
        return False
    if lowered[0] == "y":  # a consonant before a vowel (Yann), a vowel before a consonant (Yves)
        return len(lowered) > 1 and lowered[1] not in VOWELS
    return lowered[0] in VOWELS


def _elided(word: str) -> str:
    return word[:-1] + "'"


def elide_text(text: str) -> str:
    """Every elision `text` misses: for a French sentence with the names already in it."""

    def fix(match: re.Match) -> str:
        after = text[match.end() :]
        if not starts_with_vowel_sound(after):
            return match.group(0)
        return _elided(match.group(1)) + match.group(2)

    return ELIDABLE.sub(fix, text)


ENDS_ELIDABLE = re.compile(WORD_BEFORE + r" $", re.IGNORECASE)


def elide_before(text: str, value: str) -> str:
    """`text`, about to be followed by `value`, with its last word elided if `value` asks for it
    ("la règle de " + "Ann" -> "la règle d'"): for a value put in after the sentence was said (a
    seat's name, base.name_seats)."""
    match = ENDS_ELIDABLE.search(text)
    if match is None or not starts_with_vowel_sound(value):
        return text
    return text[: match.start()] + _elided(match.group(1))


PLACEHOLDER = re.compile(WORD_BEFORE + r" \{(\w*)([^{}]*)\}", re.IGNORECASE)


def elide_template(template: str, args: tuple, values: dict) -> str:
    """`template` (str.format's) with the elisions its values ask for, before they go in: only
    where the sentence meets a value, so a word of a name is never touched."""

    def fix(match: re.Match) -> str:
        field = match.group(2)  # by name or by number; an unnumbered {} is left as it is
        if field.isdigit():
            value = args[int(field)] if int(field) < len(args) else None
        else:
            value = values.get(field)
        before = match.group(1) + " "
        said = elide_before(before, value) if isinstance(value, str) else before
        return f"{said}{{{field}{match.group(3)}}}"

    return PLACEHOLDER.sub(fix, template)


class Phrase(str):
    """A sentence from the catalog whose .format() elides where a value meets it."""

    __slots__ = ()

    def format(self, *args, **values) -> str:
        return str.format(elide_template(self, args, values), *args, **values)
