"""Every registered game's golden playthrough (its folder's golden.py) still reads as its golden.txt:
a change of the rules shows as a diff of that file, reviewed on purpose."""

from __future__ import annotations

import pytest

from companion.games import registry

from .golden_playthrough import every_golden, golden_path, render_slug


@pytest.mark.parametrize("slug, name", every_golden())
def test_the_golden_playthrough_is_unchanged(slug, name):
    expected = golden_path(slug, name).read_text(encoding="utf-8")
    assert render_slug(slug, name) == expected, (
        f"The {registry.get(slug).name} playthrough {name} changed. If the change is intended, run "
        f"`python -m tests.engines.golden_playthrough {slug}` and review the diff of its golden file."
    )
