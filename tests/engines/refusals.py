"""The one way the engine tests check a refusal: the right error, code and ruling, a sentence, and
the state left exactly as it was."""

from __future__ import annotations

import copy

import pytest

from companion.games.base import RuleViolation, play

from .wording import wording_problems


def refuser(engine):
    """refuse(state, action, error, code, rule) for one engine's tests."""

    def refuse(state: dict, action, error=RuleViolation, code: str | None = None, rule: str | None = None):
        """The action is refused with `error` (and `code`, `rule`), and the state is left as it was."""
        before = copy.deepcopy(state)
        with pytest.raises(error) as info:
            play(engine, state, action)
        assert state == before
        if code:
            assert info.value.code == code
        if rule:
            assert info.value.rule == rule
        assert info.value.message.endswith(".")
        assert not wording_problems(info.value), wording_problems(info.value)  # G-1, G-2
        return info.value

    return refuse
