"""The turn structure a game declares once (issue 44): its phases, who acts in each, which action
types each takes, what may follow, and the sentence that refuses the rest. `expect`, `not_now` and
`not_your_turn` come from the declaration (the `Turned` mixin), so no game writes them by hand and
base.check_turn refuses by what the game declared.

A refusal is declared as `Said` (a code, a sentence marked with gettext_noop, its ruling, and the
state's values the sentence names) or, where the words are computed (a Hang Four purse, a roll-and-
write's own rule), as a function `(engine, state, kind, seat) -> RuleViolation`. Every callable of
a declaration takes the engine first, so a phase may name the engine's own methods.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import RuleViolation, turn_refusal
from companion.games.words import _

Refusal = Callable[[Any, dict, str, "int | None"], RuleViolation]


def no_values(engine: Any, state: dict, kind: str, seat: int | None) -> dict:
    return {}


@dataclass(frozen=True)
class Said:
    """A refusal said once: `sentence` is marked with gettext_noop and formatted, in the language
    chosen, with what `values(engine, state, kind, seat)` reads from the state."""

    code: str
    sentence: str
    rule: str
    values: Callable[[Any, dict, str, int | None], dict] = no_values

    def __call__(self, engine: Any, state: dict, kind: str, seat: int | None = None) -> RuleViolation:
        return RuleViolation(
            self.code, _(self.sentence).format(**self.values(engine, state, kind, seat)), self.rule
        )


def said_seat(engine: Any, state: dict, kind: str, seat: int | None) -> dict:
    """The refused seat, for a sentence that names it ("Seat {seat} may not act now")."""
    return {"seat": seat}


def anyone(engine: Any, state: dict) -> list[int]:
    """No seat is named: anyone at the table enters for everyone (API.md: empty seats)."""
    return []


def nothing(engine: Any, state: dict) -> dict:
    return {}


@dataclass(frozen=True)
class Phase:
    """One phase of a game: the action types it takes (fixed, or `(engine, state) -> list` where
    the state decides), the seats that may act (`(engine, state) -> list`, empty for the whole
    table), the refusal of any other type (`not_now`, or one per refused type in `refuses`), the
    refusal of a seat not listed, what `expect` tells besides (`facts`), and the phases that may
    follow it (`then`, checked by the conformance test)."""

    actions: tuple[str, ...] | Callable[[Any, dict], list[str]] = ()
    seats: Callable[[Any, dict], list[int]] = anyone
    not_now: Refusal | None = None
    refuses: Mapping[str, Refusal] = field(default_factory=dict)
    not_yours: Refusal | None = None
    facts: Callable[[Any, dict], dict] = nothing
    then: tuple[str, ...] = ()

    def accepted(self, engine: Any, state: dict) -> list[str]:
        return list(self.actions(engine, state) if callable(self.actions) else self.actions)


@dataclass(frozen=True)
class Turns:
    """A game's phases by name, and how a state says which one it is in (`phase_of`: its "phase"
    field unless the game says otherwise). The phase `over` takes nothing: the game has ended
    (base.check_turn refuses by the end first)."""

    phases: Mapping[str, Phase]
    phase_of: Callable[[dict], str] = lambda state: state["phase"]  # most states say it themselves
    over: str = "over"

    def __post_init__(self):
        unknown = {name for phase in self.phases.values() for name in phase.then} - set(self.phases)
        if unknown or self.over not in self.phases:
            raise ValueError(
                f"phases that are not declared: {sorted(unknown | ({self.over} - set(self.phases)))}"
            )

    def phase(self, state: dict) -> Phase:
        return self.phases[self.phase_of(state)]


class Turned:
    """The Engine's expect, not_now and not_your_turn, from the class's declared `turns`."""

    turns: Turns

    def expect(self, state: dict) -> dict:
        """{"actions": [types accepted now], "seats": [seats that may or must act], ...the phase's
        facts}; no actions once the game is over."""
        phase = self.turns.phase(state)
        return {
            "actions": phase.accepted(self, state),
            "seats": phase.seats(self, state),
            **phase.facts(self, state),
        }

    def not_now(self, state: dict, kind: str, seat: int | None = None) -> RuleViolation:
        """The refusal of a well-formed `kind` the phase does not take now, citing its ruling (G-1)."""
        phase = self.turns.phase(state)
        refuse = phase.refuses.get(kind, phase.not_now)
        if refuse is None:
            raise LookupError(
                f"{self.slug}: phase {self.turns.phase_of(state)!r} declares no refusal of {kind!r}"
            )
        return refuse(self, state, kind, seat)

    def not_your_turn(self, state: dict, kind: str, seat: int) -> RuleViolation:
        """The refusal of `seat` acting now: whose turn it is, and the ruling (G-1)."""
        phase = self.turns.phase(state)
        if phase.not_yours is None:
            raise LookupError(f"{self.slug}: phase {self.turns.phase_of(state)!r} declares no seat's refusal")
        return phase.not_yours(self, state, kind, seat)

    def entries(self, state: dict, seat: int) -> dict:
        """What `seat` may enter now, by type, and the refusal of each type it may not, in the
        order apply refuses (base.turn_refusal): {"allowed": [types], "refused": {type: {"code",
        "message", "rule"}}}: what the turn lets the seat enter (which entries of a type the rules
        then accept is the game's own listing, that base.legal adds: placements, marks)."""
        allowed, refused = [], {}
        for kind in self.action_types:
            # An entry that names no seat is the table's, whoever's phone enters it (the roll of
            # the player in turn): apply judges it without a seat, and so does this.
            names_seat = "seat" in self.action_shapes.get(kind, {})
            refusal = turn_refusal(self, state, kind, seat if names_seat else None)
            if refusal is None:
                allowed.append(kind)
            else:
                refused[kind] = refusal.as_dict()
        return {"allowed": allowed, "refused": refused}
