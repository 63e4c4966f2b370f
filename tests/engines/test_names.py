"""Names people type, in one form (companion/games/names.py, issue 28): composed, spaces collapsed,
and nothing a person cannot see or that turns the text around; emoji kept whole."""

import pytest

from companion.games.names import hidden, tidy


def test_a_name_typed_two_ways_is_written_one_way():
    composed, decomposed = "Ren\u00e9", "Rene\u0301"
    assert composed != decomposed and tidy(decomposed) == tidy(composed) == "Ren\u00e9"
    assert tidy("  Ann \t  Marie\u00a0 ") == "Ann Marie"


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("An\u200bn", "U+200B"),  # zero-width space
        ("Ann\u200d", "U+200D"),  # a joiner that joins no emoji
        ("\u202eAnn", "U+202E"),  # right-to-left override
        ("Ann\u200f", "U+200F"),  # right-to-left mark
        ("\u2067Ann\u2069", "U+2067"),  # isolates
        ("\ufeffAnn", "U+FEFF"),  # byte order mark
        ("An\u00adn", "U+00AD"),  # soft hyphen
        ("Ann\x00", "U+0000"),  # NUL, which PostgreSQL cannot keep
        ("Ann\ud800", "U+D800"),  # a lone surrogate
        ("Ann\u3164", "U+3164"),  # the Hangul filler draws as blank space
        ("Ann\ufe0f", "U+FE0F"),  # a variation selector after a letter changes nothing one sees
    ],
)
def test_a_character_nobody_sees_is_named(name, char):
    assert hidden(tidy(name)) == char


@pytest.mark.parametrize(
    "name",
    [
        "Zo\u00eb",
        "\u0421\u0430\u0448\u0430",  # Саша
        "\u05d3\u05e0\u05d4",  # דנה: right-to-left letters are letters, not controls
        "\u674e\u660e",
        "\U0001f468\u200d\U0001f469\u200d\U0001f467 family",  # a family emoji: joiners between emoji
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # the rainbow flag
        "\u2764\ufe0f Sam",
        "Team 1\ufe0f\u20e3",  # a keycap digit
        "\U0001f44b\U0001f3fd Kim",  # a skin tone
    ],
)
def test_names_people_type_are_clean(name):
    assert hidden(tidy(name)) is None
