"""Yahtzee rules (RULES.md, YZ-1..YZ-9): one entry a turn, the five dice as they lie after the
last throw and the box they fill. `choices` is the one source of what may fill which box now and
why not: apply refuses by it, and the screen shows it before the tap."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.base import (
    RuleViolation,
    check_players,
    check_turn,
    declared_fields,
    fresh_copy,
    one_of,
    seat_field,
    whole_numbers,
)
from companion.games.turns import Phase, Said, Turned, Turns
from companion.games.words import _, gettext_noop

from .boxes import (
    BOXES,
    DICE,
    FACES,
    JOKER,
    LOWER,
    SHEET,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    YAHTZEE_BONUS,
    label,
    place,
    points,
    rows_of,
)

ROUNDS = len(BOXES)  # every box once: thirteen rounds (YZ-9)


@dataclass(frozen=True)
class Choice:
    """One box for a throw: the points it would take, or the refusal that says why not."""

    box: str
    points: int
    refusal: RuleViolation | None = None
    joker: bool = False
    bonus: bool = False  # a further Yahtzee earns YZ-7's 100 wherever it goes


def box_name(box: str) -> str:
    return label(box)


def choices(seat: dict, dice: list[int]) -> list[Choice]:
    """Every box of `seat`'s sheet for `dice`, in the sheet's order (YZ-3, YZ-7, YZ-8): the
    sheet's joker (the kit's yahtzee-joker) says which boxes a further Yahtzee may fill."""
    boxes, rows = seat["boxes"], rows_of(seat["boxes"])
    allowed = JOKER.boxes(SHEET, rows, dice)  # None unless a further Yahtzee
    bonus = JOKER.bonus(SHEET, rows, dice) > 0
    found = []
    for box in BOXES:
        if boxes[box] is not None:
            refusal = _filled(box)
        elif allowed is not None and place(box) not in allowed:
            refusal = _joker_refusal(rows, dice)
        else:
            refusal = None
        joker = allowed is not None and box in LOWER
        found.append(Choice(box, points(box, dice, joker=joker), refusal, joker and refusal is None, bonus))
    return found


def _filled(box: str) -> RuleViolation:
    return RuleViolation(
        "box_filled",
        _("{box} is already filled on this sheet: a filled box never changes (YZ-3).").format(
            box=box_name(box)
        ),
        "YZ-3",
    )


def _joker_refusal(rows: dict, dice: list[int]) -> RuleViolation:
    return RuleViolation("joker", f"{JOKER.refusal(SHEET, rows, dice)} (YZ-8).", "YZ-8")


def upper_total(seat: dict) -> int:
    return sum(seat["boxes"][box] or 0 for box in UPPER)


def seat_score(seat: dict) -> dict:
    upper = upper_total(seat)
    breakdown = {
        "upper": upper,
        "bonus": UPPER_BONUS if upper >= UPPER_BONUS_AT else 0,  # YZ-5
        "lower": sum(seat["boxes"][box] or 0 for box in LOWER),
        "yahtzee_bonus": YAHTZEE_BONUS * seat["yahtzee_bonuses"],  # YZ-7
    }
    return {"total": sum(breakdown.values()), "breakdown": breakdown}


def any_box_open(state: dict) -> bool:
    """Whether a box of a sheet is still empty: the game ends once every box is written (YZ-9)."""
    return any(value is None for seat in state["seats"] for value in seat["boxes"].values())


class Yahtzee(Turned):
    slug = "yahtzee"
    name = "Yahtzee"  # a game's name is its own in every language
    bgg_id = 2243  # BoardGameGeek's: an imported Yahtzee is this game (history/same_game.py)
    min_players = 1
    max_players = 10
    options: dict = {}
    action_types = ("score",)
    action_shapes = {
        "score": {
            "seat": seat_field(),
            "dice": whole_numbers(
                DICE, 1, 6, gettext_noop("the five dice, each 1 to 6, e.g. [6, 6, 6, 2, 2]")
            ),
            "box": one_of(BOXES, gettext_noop('one of the thirteen boxes, e.g. "full_house"')),
        }
    }
    action_fields = declared_fields(action_shapes)
    end_rule = "YZ-9"
    players_rule = "YZ-1"
    faces = FACES
    boxes = BOXES
    upper_bonus_at = UPPER_BONUS_AT

    def setup(self, players: int, options: dict) -> dict:
        check_players(self, players)
        return {
            "round": 1,
            "turn": 0,
            "seats": [{"boxes": dict.fromkeys(BOXES), "yahtzee_bonuses": 0} for _ in range(players)],
            "last": None,
        }

    # The turn structure (turns.py): each seat in turn scores one throw (YZ-2), thirteen rounds.
    turns = Turns(
        phase_of=lambda state: "turn" if any_box_open(state) else "over",
        phases={
            "turn": Phase(
                ("score",),
                seats=lambda self, state: [state["turn"]],
                # Every turn is a score: only the end refuses one, and check_turn says the end first.
                not_now=Said("unexpected_action", gettext_noop("No entry is expected now (YZ-9)."), "YZ-9"),
                not_yours=Said(
                    "not_your_turn",
                    gettext_noop(
                        "It is Seat {turn}'s turn, not Seat {seat}'s: turns go in seat order (YZ-2)."
                    ),
                    "YZ-2",
                    lambda self, state, kind, seat: {"turn": state["turn"], "seat": seat},
                ),
                then=("turn", "over"),
            ),
            "over": Phase(),
        },
    )

    def choices(self, state: dict, seat: int, dice: list[int]) -> list[Choice]:
        return choices(state["seats"][seat], dice)

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)
        seat, dice, box = action["seat"], sorted(action["dice"], reverse=True), action["box"]
        check_turn(self, state, "score", seat)
        chosen = next(choice for choice in choices(state["seats"][seat], dice) if choice.box == box)
        if chosen.refusal is not None:
            raise chosen.refusal
        sheet = state["seats"][seat]
        sheet["boxes"][box] = chosen.points
        sheet["yahtzee_bonuses"] += chosen.bonus
        state["last"] = {
            "seat": seat,
            "dice": dice,
            "box": box,
            "points": chosen.points,
            "joker": chosen.joker,
            "bonus": chosen.bonus,
        }
        state["turn"] = (seat + 1) % len(state["seats"])
        if state["turn"] == 0 and state["round"] < ROUNDS:
            state["round"] += 1
        return state

    def scores(self, state: dict) -> list[dict]:
        return [{"seat": i, **seat_score(seat)} for i, seat in enumerate(state["seats"])]

    def result(self, state: dict) -> dict | None:
        if any_box_open(state):
            return None
        totals = [score["total"] for score in self.scores(state)]
        best = max(totals)
        return {"winners": [i for i, total in enumerate(totals) if total == best], "end_reason": "all_filled"}

    def describe(self, before: dict, action: dict, after: dict, names: list[str]) -> str:
        last = after["last"]
        said = {
            "name": names[last["seat"]],
            "dice": " ".join(map(str, last["dice"])),
            "points": last["points"],
            "box": box_name(last["box"]),
        }
        if last["bonus"]:
            return _("{name} threw {dice}: {points} in {box}, and a Yahtzee bonus of {bonus} (YZ-7).").format(
                bonus=YAHTZEE_BONUS, **said
            )
        if last["joker"]:
            return _("{name} threw {dice}: {points} in {box}, as a joker (YZ-8).").format(**said)
        if last["points"] == 0:
            return _("{name} threw {dice}: {box} scratched with 0.").format(**said)
        return _("{name} threw {dice}: {points} in {box}.").format(**said)

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        seat = state["turn"]
        if rng.random() < 0.15:
            dice = [rng.choice(FACES)] * DICE  # Yahtzees are rare by chance: the bonus and joker need them
        else:
            dice = [rng.choice(FACES) for _ in range(DICE)]
        every = choices(state["seats"][seat], dice)
        # After the end nothing is open: a well-formed entry still, for tests that expect its refusal.
        open_choices = [choice for choice in every if choice.refusal is None] or every
        scoring = [choice for choice in open_choices if choice.points] or open_choices
        box = rng.choice(scoring if rng.random() < 0.8 else open_choices).box
        return {"type": "score", "seat": seat, "dice": dice, "box": box}
