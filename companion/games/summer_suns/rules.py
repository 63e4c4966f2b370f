"""62 Summer Suns rules (seeds/004_b98f446983374c93.txt, rulings SS-1..SS-13 in RULINGS.md).

A roll-and-write: every seat has its own score sheet (sheet.py), the three dice of a round are
shared. A round: one `roll` action carries the dice; then every seat, in any order, sends one
`place` (one die picks an empty slot by its pearl, another die is written there, the third feeds
the seat's sun row) or, only when no placement is legal, a `pass` (one die feeds the sun row).
Crab copies, sun hats and the sun row's bonuses come with the same action.

Phases: "roll" -> "place" -> (every seat placed or passed) the next round's "roll", or "over"
after the round in which a sun total reached 62, or after round 20 (SS-12).

The zone rules and the legal-move search live in legal.py; the state holds each seat's written
cells, so the sheet itself never enters the state (only its name).
"""

from __future__ import annotations

import random

from companion.games.words import _, gettext_noop, ngettext

from ..base import (
    BadAction,
    Field,
    Rolled,
    RuleViolation,
    and_join,
    check_players,
    check_seat,
    check_shape,
    check_turn,
    checked,
    declared_fields,
    fresh_copy,
    is_int,
    require,
    shown,
)
from ..turns import Phase, Said, Turned, Turns
from .legal import crab_dead, crab_targets, dead_after, fillable, first_placement, placements, zone_problem
from .sheet import SHEETS, Sheet

LAST_ROUND = 20  # SS-12
SUN_GOAL = 62  # SS-12
SHELL_BONUS = 5  # SS-8
DIE_WORDS = (gettext_noop("first"), gettext_noop("second"), gettext_noop("third"))  # said at use


# ---------------------------------------------------------------------------------------------
# Helpers


def sheet_of(state: dict) -> Sheet:
    name = state["sheet"]
    if name not in SHEETS:
        raise RuleViolation(
            "unknown_sheet",
            _("This table uses the sheet {shown}, which is not installed (SS-2).").format(shown=shown(name)),
            "SS-2",
        )
    return SHEETS[name]


def last_round(sheet: Sheet) -> int:
    # SS-N1: a sheet with fewer than 20 suns ends after the round that fills its last sun.
    return min(LAST_ROUND, sheet.suns)


def sun_total(seat: dict) -> int:
    return seat["sun"][-1] if seat["sun"] else 0


def die_index(value, field: str) -> int:
    require(
        is_int(value) and 0 <= value <= 2,
        lambda: _("'{field}' must be a die index 0, 1 or 2, not {shown}.").format(
            field=field, shown=shown(value)
        ),
    )
    return value


def die_value(value, field: str) -> int:
    require(
        is_int(value) and 1 <= value <= 6,
        lambda: _("'{field}' must be a whole number from 1 to 6, not {shown}.").format(
            field=field, shown=shown(value)
        ),
    )
    return value


def slot_id(sheet: Sheet, value, field: str) -> str:
    require(
        isinstance(value, str),
        lambda: _("'{field}' must be a slot id string, not {shown}.").format(field=field, shown=shown(value)),
    )
    require(
        value in sheet.slots,
        lambda: _("The sheet {shown} has no slot {shown2} ('{field}').").format(
            shown=shown(sheet.name), shown2=shown(value), field=field
        ),
    )
    return value


def parse_dice(value) -> list[int]:
    require(
        isinstance(value, list) and len(value) == 3 and all(is_int(v) and 1 <= v <= 6 for v in value),
        lambda: _(
            "'dice' must be a list of three whole numbers from 1 to 6, e.g. [3, 5, 5], not {shown}."
        ).format(shown=shown(value)),
    )
    return list(value)


def parse_chain(sheet: Sheet, value) -> list[str]:
    if value is None:
        return []
    require(
        isinstance(value, list),
        lambda: _("'crab' must be a list of slot ids, e.g. [\"k3\"], not {shown}.").format(
            shown=shown(value)
        ),
    )
    return [slot_id(sheet, s, "crab") for s in value]


def parse_bonus(sheet: Sheet, value) -> dict | None:
    if value is None:
        return None
    require(
        isinstance(value, dict) and set(value) == {"slot", "value"},
        lambda: _('\'bonus\' must be an object {{"slot": id, "value": 1-6}}, not {shown}.').format(
            shown=shown(value)
        ),
    )
    return {
        "slot": slot_id(sheet, value["slot"], "bonus.slot"),
        "value": die_value(value["value"], "bonus.value"),
    }


def check_seat_number(value) -> None:
    require(is_int(value), lambda: _("'seat' must be a seat number, not {shown}.").format(shown=shown(value)))


def on_sheet(check):
    """A field whose values the table's sheet decides (its slot ids)."""
    return lambda value, state: check(sheet_of(state), value)


def die_field(name: str, missing: str) -> Field:
    return checked(lambda value: die_index(value, name), missing=missing)


SEAT = checked(check_seat_number, missing=gettext_noop("A {kind} needs 'seat': the seat that plays."))
PLACE_NEEDS = gettext_noop("A place needs '{field}'.")
BONUS = Field(required=False, check=on_sheet(parse_bonus))
# The actions' shapes, checked by base.play before apply (and by bonus_choices for the screens).
SHAPES = {
    "roll": {"dice": checked(parse_dice, judges_null=True)},
    "place": {
        "seat": SEAT,
        "slot_die": die_field("slot_die", PLACE_NEEDS),
        "write_die": die_field("write_die", PLACE_NEEDS),
        "slot": Field(
            missing=PLACE_NEEDS, check=on_sheet(lambda sheet, value: slot_id(sheet, value, "slot"))
        ),
        "crab": Field(required=False, check=on_sheet(parse_chain)),
        "sun": checked(lambda value: die_value(value, "sun"), required=False),
        "bonus": BONUS,
    },
    "pass": {
        "seat": SEAT,
        "sun_die": die_field(
            "sun_die", gettext_noop("A pass needs 'sun_die': the die added to the sun row.")
        ),
        "bonus": BONUS,
    },
}


def earned(sheet: Sheet, slot: str, value: int) -> list[str]:
    """What filling `slot` with `value` earns: its pearl (SS-6) and its shell (SS-8)."""
    return (["pearl"] if sheet.pearl[slot] == value else []) + (["shell"] if slot in sheet.shells else [])


def check_chain(sheet: Sheet, cells: dict, slot: str, value: int, chain: list[str]) -> None:
    """SS-7: each copy goes next to the previous filled slot, which has a crab, into an empty slot
    that can take the value given everything written so far this turn. Writes the copies to `cells`."""
    source = slot
    named = sheet.named
    for target in chain:
        if source not in sheet.crabs:
            raise RuleViolation(
                "crab_none",
                _("{named} has no crab: no crab copy can be made from it (SS-7).").format(
                    named=named(source)
                ),
                "SS-7",
            )
        if target not in sheet.adjacent[source]:
            raise RuleViolation(
                "crab_target",
                _(
                    "{named} is not next to {named2}: a crab copy goes to an empty slot "
                    "right beside the crab, above, below, left or right (SS-7)."
                ).format(named=named(target), named2=named(source)),
                "SS-7",
            )
        if target in cells:
            raise RuleViolation(
                "crab_target",
                _(
                    "{named} is already written: a crab copy goes to an empty slot next to {named2} (SS-7)."
                ).format(named=named(target), named2=named(source)),
                "SS-7",
            )
        problem = zone_problem(sheet, cells, target, value)
        if problem:
            raise RuleViolation(
                "crab_value",
                _("The crab copy of {value} cannot go to {named} (SS-7): {problem}.").format(
                    value=value, named=named(target), problem=problem
                ),
                "SS-7",
            )
        cells[target] = value
        source = target


# ---------------------------------------------------------------------------------------------
# The engine


def must_place(sheet, cells: dict, dice: list[int]) -> RuleViolation | None:
    """SS-11: the refusal of a pass on a sheet where the dice fit a slot, with one example."""
    found = first_placement(sheet, cells, dice)
    if found is None:
        return None
    _found, fj, fslot = found
    return RuleViolation(
        "must_place",
        _(
            "A placement is possible (e.g. {value} in {named}): passing is only allowed when none is (SS-11)."
        ).format(value=dice[fj], named=sheet.named(fslot)),
        "SS-11",
    )


def round_said(engine, state: dict, kind: str, seat: int | None) -> dict:
    return {"n": state["round"]}


def round_facts(engine, state: dict) -> dict:
    """What expect tells besides the actions and seats: the phase, the round and its dice."""
    return {"phase": state["phase"], "round": state["round"], "dice": state["dice"]}


class SummerSuns(Turned):
    slug = "summer-suns"
    name = "62 Summer Suns"  # a game's name is its own in every language
    min_players = 1
    max_players = 8
    options = {"sheet": "default"}
    option_choices = {"sheet": sorted(SHEETS)}
    option_labels = {"sheet": gettext_noop("Score sheet")}
    action_types = ("roll", "place", "pass")
    action_shapes = SHAPES
    action_fields = declared_fields(SHAPES)
    end_rule = "SS-12"
    players_rule = "SS-1"

    # --- setup and questions ----------------------------------------------------------------

    def setup(self, players: int, options: dict) -> dict:
        check_players(self, players)
        options = {**self.options, **(options or {})}
        name = options["sheet"]
        if name not in SHEETS:
            known = ", ".join(sorted(SHEETS))
            raise BadAction(
                "bad_option",
                _("There is no sheet {shown} (known: {known}).").format(shown=shown(name), known=known),
            )
        return {
            "sheet": name,
            "round": 1,
            "dice": None,
            "phase": "roll",
            "end_reason": None,
            "seats": [
                {
                    "cells": {},
                    "sun": [],
                    "pearls": 0,
                    "shells": 0,
                    "sun_starfish": 0,
                    "placed": False,
                    "marks": {},
                    "last": None,
                }
                for _ in range(players)
            ],
        }

    def rolled(self, state: dict, action: dict) -> Rolled | None:
        """The table's three dice of a round, shared by every sheet (SS-1)."""
        dice = action.get("dice") if action.get("type") == "roll" else None
        faces = tuple(die for die in dice if is_int(die)) if isinstance(dice, list) else ()
        return Rolled(None, faces, 3.5) if faces else None

    def _able_to_place(self, state: dict, waiting: list[int]) -> list[int]:
        """The waiting seats the round's dice give a placement (SS-11: they may not pass)."""
        sheet = sheet_of(state)
        return [i for i in waiting if first_placement(sheet, state["seats"][i]["cells"], state["dice"])]

    def _placing(self, state: dict) -> list[str]:
        """Only what someone still to write may do (issue 31): a pass where no placement fits (SS-11)."""
        waiting = self._waiting(state)
        able = self._able_to_place(state, waiting)
        return (["place"] if able else []) + (["pass"] if len(able) < len(waiting) else [])

    def _waiting(self, state: dict) -> list[int]:
        return [i for i, seat in enumerate(state["seats"]) if not seat["placed"]]

    # The turn structure (turns.py): a round's three dice are entered (SS-3), then every seat
    # writes them or passes (SS-11), in any order, then the next round's dice, until the end.
    turns = Turns(
        phases={
            "roll": Phase(
                ("roll",),
                not_now=Said(
                    "unexpected_action",
                    gettext_noop("Enter the three dice of round {n} first (SS-3)."),
                    "SS-3",
                    round_said,
                ),
                facts=round_facts,
                then=("place",),
            ),
            "place": Phase(
                _placing,
                seats=_waiting,
                not_now=lambda self, state, kind, seat: self._not_now_placing(state, kind, seat),
                refuses={
                    "roll": Said(
                        "unexpected_action",
                        gettext_noop(
                            "Round {n}'s dice are already entered: every player writes "
                            "before the next roll (SS-3)."
                        ),
                        "SS-3",
                        round_said,
                    )
                },
                not_yours=lambda self, state, kind, seat: self._already_written(state, kind, seat),
                facts=round_facts,
                then=("place", "roll", "over"),
            ),
            "over": Phase(facts=round_facts),
        },
    )

    def scores(self, state: dict) -> list[dict]:
        sheet = sheet_of(state)
        most = max(seat["shells"] for seat in state["seats"])
        scores = []
        for i, seat in enumerate(state["seats"]):
            cells = seat["cells"]
            breakdown = {
                z: sheet.zones[z]["starfish"] if all(s in cells for s in sheet.zone_slots[z]) else 0
                for z in sheet.zone_ids
            }
            breakdown["pearls"] = seat["pearls"]  # SS-6
            breakdown["sun"] = seat["sun_starfish"]  # SS-10
            # SS-8: the most shells, at least one; tied seats all get it.
            breakdown["shell_bonus"] = SHELL_BONUS if most >= 1 and seat["shells"] == most else 0
            scores.append({"seat": i, "total": sum(breakdown.values()), "breakdown": breakdown})
        return scores

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        totals = [score["total"] for score in self.scores(state)]
        top = max(totals)
        winners = [i for i, total in enumerate(totals) if total == top]  # SS-13
        return {"winners": winners, "end_reason": state["end_reason"]}

    def _seat(self, state: dict, seat) -> int:
        require(
            is_int(seat), lambda: _("'seat' must be a seat number, not {shown}.").format(shown=shown(seat))
        )
        check_seat(self, state, seat)
        return seat

    def _not_now_placing(self, state: dict, kind: str, seat: int | None) -> RuleViolation:
        """SS-11 for the type expect leaves out: a pass while every seat still to write can place,
        a place when none can; said for the action's seat where it may still write."""
        if seat is not None and 0 <= seat < len(state["seats"]) and state["seats"][seat]["placed"]:
            return self._already_written(state, kind, seat)
        if kind == "pass":
            waiting = [i for i, other in enumerate(state["seats"]) if not other["placed"]]
            cells = state["seats"][waiting[0] if seat is None else seat]["cells"]
            return must_place(sheet_of(state), cells, state["dice"])
        return RuleViolation(
            "nothing_fits",
            _(
                "No slot fits these dice for anyone still to write: each passes and adds one "
                "die to their sun row (SS-11)."
            ),
            "SS-11",
        )

    def _already_written(self, state: dict, kind: str, seat: int) -> RuleViolation:
        """G-1: a seat writes once a round (SS-3); the round ends when every seat has (SS-11)."""
        waiting = [i for i, other in enumerate(state["seats"]) if not other["placed"]]
        who = and_join([_("Seat {i}").format(i=i) for i in waiting])
        return RuleViolation(
            "already_placed",
            _(
                "Seat {seat} has already written this round: the round goes on once "
                "{who} {value} written too (SS-3)."
            ).format(seat=seat, who=who, value=_("has") if len(waiting) == 1 else _("have")),
            "SS-3",
        )

    def legal(self, state: dict, seat: int) -> dict:
        """Every legal placement of the current dice for `seat` (see legal.placements), whether it
        may pass (SS-11), and what each first crab copy would leave dead (legal.crab_dead, SS-5).
        Nothing is legal when the seat may not act now."""
        self._seat(state, seat)
        if state["phase"] != "place" or state["seats"][seat]["placed"]:
            return {"placements": [], "pass_allowed": False, "crab_dead": []}
        sheet, cells = sheet_of(state), state["seats"][seat]["cells"]
        found = placements(sheet, cells, state["dice"])
        return {"placements": found, "pass_allowed": not found, "crab_dead": crab_dead(sheet, cells, found)}

    def crab_next(self, state: dict, seat: int, slot: str, value: int, chain: list[str]) -> list[str]:
        """The next crab copy targets after writing `value` in `slot` and copying it to `chain`
        (SS-7). An impossible slot, value or chain raises BadAction/RuleViolation as apply would."""
        return [offer["slot"] for offer in self.crab_offers(state, seat, slot, value, chain)]

    def crab_offers(self, state: dict, seat: int, slot: str, value: int, chain: list[str]) -> list[dict]:
        """crab_next's targets as {"slot", "dead"}: the slots each copy would leave impossible to
        fill (SS-5 revised), so the sheet can warn before the tap."""
        sheet = sheet_of(state)
        self._seat(state, seat)
        slot = slot_id(sheet, slot, "slot")
        value = die_value(value, "value")
        chain = parse_chain(sheet, chain)
        cells = dict(state["seats"][seat]["cells"])
        self._check_write(sheet, cells, slot, value)
        cells[slot] = value
        check_chain(sheet, cells, slot, value, chain)
        return [
            {"slot": target, "dead": dead_after(sheet, cells, target, value)}
            for target in crab_targets(sheet, cells, chain[-1] if chain else slot, value)
        ]

    @staticmethod
    def third_die(slot_die: int, write_die: int) -> int:
        """SS-3, SS-9: the die that is neither the slot die nor the write die (dice 0, 1 and 2)."""
        return 3 - slot_die - write_die

    def write_problem(self, state: dict, seat: int, slot: str, value: int) -> tuple[str, str] | None:
        """Why `value` cannot be written in `slot` of `seat`'s sheet now: the clause (ending in its
        ruling) and the ruling id; None when it can be (SS-3, SS-4)."""
        cells = state["seats"][seat]["cells"]
        if slot in cells:
            return _("{named} is already written (SS-3)").format(named=sheet_of(state).named(slot)), "SS-3"
        problem = zone_problem(sheet_of(state), cells, slot, value)
        return (problem, "SS-4") if problem else None

    def sun_choice_needed(self, state: dict, slot: str, chain: list[str]) -> bool:
        """SS-9: a sun hat among the slots filled this turn (not a bonus number's slot)."""
        hats = sheet_of(state).hats
        return slot in hats or any(s in hats for s in chain or [])

    def bonus_choices(self, state: dict, seat: int, action: dict) -> dict | None:
        """For a place/pass action without its bonus: None when the new sun total gives no bonus
        number, else {"total", "choices": {slot: [values]}, "dead": {slot: {value: [slots]}}} after
        this turn's writes (SS-10); empty choices mean the bonus number is lost. `dead` names the
        slots each bonus write would leave impossible to fill (SS-5 revised)."""
        require(isinstance(action, dict), lambda: _("The action must be an object."))
        action = {key: value for key, value in action.items() if key != "bonus"}
        kind = action.get("type")
        require(kind in ("place", "pass"), lambda: _("Only a place or a pass is a seat's turn."))
        action = {**action, "seat": seat}
        check_shape(SHAPES, kind, action, state)  # not through base.play: a screen's question
        turn = self._turn(fresh_copy(state), action, decide_bonus=False)
        if turn["bonus_kind"] != "number":
            return None
        sheet, cells = sheet_of(state), turn["cells"]
        dead = {
            slot: {value: dead_after(sheet, cells, slot, value) for value in values}
            for slot, values in turn["choices"].items()
        }
        return {"total": turn["total"], "choices": turn["choices"], "dead": dead}

    # --- actions ----------------------------------------------------------------------------

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)  # a refusal must leave the caller's state untouched
        kind = action["type"]  # base.play checked its shape: the one door into the engine
        if kind == "roll":
            check_turn(self, state, kind)
            state.update(dice=list(action["dice"]), phase="place")
            return state
        turn = self._turn(state, action)
        self._commit(state, turn)
        return state

    def _check_write(self, sheet: Sheet, cells: dict, slot: str, value: int) -> None:
        if slot in cells:
            raise RuleViolation(
                "slot_written",
                _("{named} is already written: write in an empty slot (SS-3).").format(
                    named=sheet.named(slot)
                ),
                "SS-3",
            )
        problem = zone_problem(sheet, cells, slot, value)
        if problem:
            raise RuleViolation(
                "zone_rule",
                _("Cannot write {value} in {named}: {problem}.").format(
                    value=value, named=sheet.named(slot), problem=problem
                ),
                "SS-4",
            )

    def _turn(self, state: dict, action: dict, decide_bonus: bool = True) -> dict:
        """Check a place or pass completely and return what it writes and earns (state unchanged)."""
        sheet = sheet_of(state)
        shape = self._turn_shape(sheet, action, decide_bonus)  # shapes first (BadAction), then the rules
        seat = shape["seat"]
        check_turn(self, state, shape["kind"], seat)
        player = state["seats"][seat]
        dice, cells = state["dice"], dict(player["cells"])
        if shape["kind"] == "place":
            placed = self._placement(state, sheet, cells, dice, shape)
        else:
            placed = self._pass(sheet, cells, dice, shape["sun_die"])
        # SS-10: the new total fills the next sun; an exact bonus total earns the bonus.
        total = sun_total(player) + placed["sun_value"]
        bonus_kind, amount = sheet.bonuses.get(total, (None, 0))
        turn = {
            "seat": seat,
            **placed,
            "total": total,
            "bonus_kind": bonus_kind,
            "amount": amount,
            "bonus": None,
            "bonus_lost": False,
            "choices": fillable(sheet, cells) if bonus_kind == "number" else None,
            "cells": cells,  # everything written this turn, before a bonus number
        }
        if decide_bonus:
            self._decide_bonus(sheet, turn, shape["bonus"])
        return turn

    def _turn_shape(self, sheet, action: dict, decide_bonus: bool) -> dict:
        """A place's or a pass's fields, read: their shapes are checked (SHAPES) but for the one
        that spans two fields, the two dice a placement uses."""
        kind = action["type"]
        shape = {"kind": kind, "seat": action["seat"]}
        if kind == "place":
            i, j = action["slot_die"], action["write_die"]
            require(i != j, lambda: _("'slot_die' and 'write_die' must be two different dice."))
            shape.update(i=i, j=j, slot=action["slot"], chain=list(action.get("crab") or []))
            shape["sun"] = action.get("sun")
        else:
            shape["sun_die"] = action["sun_die"]
        shape["bonus"] = action.get("bonus") if decide_bonus else None
        return shape

    def _placement(self, state: dict, sheet, cells: dict, dice: list[int], shape: dict) -> dict:
        """SS-3..SS-9: the slot die picks the slot by its pearl, the write die is written (and a crab's
        copies), the third die or a sun hat's chosen value goes to the sun row. Writes into `cells`."""
        i, j, slot, chain, sun = shape["i"], shape["j"], shape["slot"], shape["chain"], shape["sun"]
        value, picked = dice[j], dice[i]
        if slot in cells:
            raise RuleViolation(
                "slot_written",
                _("{named} is already written: write in an empty slot (SS-3).").format(
                    named=sheet.named(slot)
                ),
                "SS-3",
            )
        if sheet.pearl[slot] != picked:  # SS-3: the slot die selects the slot by its pearl
            word = _(DIE_WORDS[i])
            if any(s not in cells for s in sheet.by_pearl[picked]):
                message = _("The {picked} on the {word} die selects a slot with pearl {picked}: ").format(
                    picked=picked, word=word
                )
            else:
                message = _("The {picked} on the {word} die matches no empty slot's pearl: ").format(
                    picked=picked, word=word
                )
            raise RuleViolation(
                "pearl_mismatch",
                message
                + _("the pearl of {named} is {value} (SS-3).").format(
                    named=sheet.named(slot), value=sheet.pearl[slot]
                ),
                "SS-3",
            )
        self._check_write(sheet, cells, slot, value)
        cells[slot] = value
        check_chain(sheet, cells, slot, value, chain)
        placed = {
            "slot": slot,
            "value": value,
            "crab": chain,
            "writes": [(slot, value)] + [(t, value) for t in chain],
        }
        if self.sun_choice_needed(state, slot, chain):  # SS-9
            if sun is None:
                raise RuleViolation(
                    "sun_required", _("A sun hat was filled: choose the sun value 1-6 (SS-9)."), "SS-9"
                )
            return {**placed, "hat": True, "sun_value": sun}
        third = dice[self.third_die(i, j)]
        if sun is not None:
            raise RuleViolation(
                "sun_refused",
                _("No sun hat was filled: the {value} die ({third}) goes to the sun row (SS-9).").format(
                    value=_(DIE_WORDS[self.third_die(i, j)]), third=third
                ),
                "SS-9",
            )
        return {**placed, "hat": False, "sun_value": third}

    def _pass(self, sheet, cells: dict, dice: list[int], sun_die: int) -> dict:
        """SS-11: a seat with no legal placement passes and adds one die to the sun row."""
        refusal = must_place(sheet, cells, dice)
        if refusal is not None:  # SS-11: a seat with a legal placement must place
            raise refusal
        return {
            "slot": None,
            "value": None,
            "crab": [],
            "writes": [],
            "hat": False,
            "sun_value": dice[sun_die],
        }

    def _decide_bonus(self, sheet, turn: dict, bonus: dict | None) -> None:
        """SS-10: a bonus number is written where the zone rules allow, or lost when none can take it."""
        total, cells = turn["total"], turn["cells"]
        if turn["bonus_kind"] != "number":
            if bonus is not None:
                raise RuleViolation(
                    "bonus_refused",
                    _("The total {total} gives no bonus number: there is nothing to write (SS-10).").format(
                        total=total
                    ),
                    "SS-10",
                )
            return
        if not turn["choices"]:
            if bonus is not None:
                raise RuleViolation(
                    "bonus_refused",
                    _(
                        "The total {total} gives a bonus number, but no empty slot can take "
                        "any value: it is lost (SS-10)."
                    ).format(total=total),
                    "SS-10",
                )
            turn["bonus_lost"] = True
            return
        if bonus is None:
            raise RuleViolation(
                "bonus_required",
                _("The total {total} gives a bonus number: write it in a slot (SS-10).").format(total=total),
                "SS-10",
            )
        target, number = bonus["slot"], bonus["value"]
        if target in cells:
            raise RuleViolation(
                "bonus_slot",
                _("The bonus number cannot go to {named}: it is already written (SS-10).").format(
                    named=sheet.named(target)
                ),
                "SS-10",
            )
        problem = zone_problem(sheet, cells, target, number)
        if problem:
            raise RuleViolation(
                "bonus_value",
                _("The bonus number {number} cannot go to {named} (SS-10): {problem}.").format(
                    number=number, named=sheet.named(target), problem=problem
                ),
                "SS-10",
            )
        turn["bonus"] = {"slot": target, "value": number}

    def _commit(self, state: dict, turn: dict) -> None:
        sheet = sheet_of(state)
        player = state["seats"][turn["seat"]]
        writes = [(slot, value, "crab" if n else None) for n, (slot, value) in enumerate(turn["writes"])]
        if turn["bonus"]:
            writes.append((turn["bonus"]["slot"], turn["bonus"]["value"], "bonus"))
        for slot, value, mark in writes:
            player["cells"][slot] = value
            if mark:
                player["marks"][slot] = mark
            player["pearls"] += sheet.pearl[slot] == value  # SS-6 (copies and bonus numbers too)
            player["shells"] += slot in sheet.shells  # SS-8
        player["sun"].append(turn["total"])
        if turn["bonus_kind"] == "starfish":
            player["sun_starfish"] += turn["amount"]
        player["placed"] = True
        player["last"] = {
            "round": state["round"],
            "pass": turn["slot"] is None,
            "slot": turn["slot"],
            "value": turn["value"],
            "crab": list(turn["crab"]),
            "sun_value": turn["sun_value"],
            "sun_total": turn["total"],
            "bonus": turn["bonus"],
            "bonus_kind": turn["bonus_kind"],
            "bonus_lost": turn["bonus_lost"],
        }
        if all(seat["placed"] for seat in state["seats"]):
            self._end_round(state, sheet)

    def _end_round(self, state: dict, sheet: Sheet) -> None:
        # SS-12: after the round in which a total reached 62 (SS-N2: that reason wins in round 20).
        if any(sun_total(seat) >= SUN_GOAL for seat in state["seats"]):
            state.update(phase="over", end_reason="sun_62")
        elif state["round"] >= last_round(sheet):
            state.update(
                phase="over", end_reason="round_20" if state["round"] >= LAST_ROUND else "sun_row_full"
            )
        else:
            state.update(round=state["round"] + 1, dice=None, phase="roll")
            for seat in state["seats"]:
                seat["placed"] = False

    # --- log and random play ----------------------------------------------------------------

    def describe(self, state_before: dict, action: dict, after: dict, names: list[str]) -> str:
        sheet = sheet_of(state_before)

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat)

        def gains(slot: str, value: int) -> str:
            parts = earned(sheet, slot, value)
            said = {"pearl": _("pearl"), "shell": _("shell")}
            return f" ({', '.join(said[part] for part in parts)})" if parts else ""

        if action["type"] == "roll":
            return _("The dice: ") + ", ".join(map(str, after["dice"])) + "."
        seat = action["seat"]
        last = after["seats"][seat]["last"]
        if last["pass"]:
            text = _("{name} passed; sun +{sun_value}").format(name=name(seat), sun_value=last["sun_value"])
        else:
            slot, value = last["slot"], last["value"]
            text = _("{name} wrote {value} in {named}{gains}").format(
                name=name(seat), value=value, named=sheet.named(slot), gains=gains(slot, value)
            )
            if last["crab"]:
                copies = ", ".join(f"{sheet.named(t)}{gains(t, value)}" for t in last["crab"])
                said = ngettext(", crab copy to {copies}", ", crab copies to {copies}", len(last["crab"]))
                text += said.format(copies=copies)
            hat = _(" (hat)") if self.sun_choice_needed(state_before, slot, last["crab"]) else ""
            text += _("; sun +{sun_value}{hat}").format(sun_value=last["sun_value"], hat=hat)
        text += f" = {last['sun_total']}"
        kind, amount = sheet.bonuses.get(last["sun_total"], (None, 0))
        if kind == "starfish":
            text += _(": {amount} starfish").format(amount=amount)
        elif kind == "number":
            if last["bonus"]:
                b = last["bonus"]
                text += _(": bonus number {value} in {named}{gains}").format(
                    value=b["value"], named=sheet.named(b["slot"]), gains=gains(b["slot"], b["value"])
                )
            else:
                text += _(": a bonus number, lost (no empty slot can take one)")
        parts = [text + "."]
        if after["phase"] == "over" or after["round"] != state_before["round"]:
            parts.append(_("Round {round} is over.").format(round=state_before["round"]))
        result = self.result(after)
        if result:
            top = max(score["total"] for score in self.scores(after))
            who = and_join([name(s) for s in result["winners"]])
            verb = _("wins") if len(result["winners"]) == 1 else _("share the win")
            parts.append(
                _("Game over: {who} {verb} with {top} starfish.").format(who=who, verb=verb, top=top)
            )
        return " ".join(parts)

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        if state["phase"] == "roll":
            return {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        seat = rng.choice(self.expect(state)["seats"])
        found = self.legal(state, seat)["placements"]
        if found:
            pick = rng.choice(found)
            action = {
                "type": "place",
                "seat": seat,
                "slot_die": pick["slot_die"],
                "write_die": pick["write_die"],
                "slot": pick["slot"],
            }
            chain, targets = [], pick["crab"]
            while targets and rng.random() < 0.7:
                chain.append(rng.choice(targets))
                targets = self.crab_next(state, seat, pick["slot"], pick["value"], chain)
            if chain:
                action["crab"] = chain
            if self.sun_choice_needed(state, pick["slot"], chain):
                action["sun"] = rng.randint(1, 6)
        else:
            action = {"type": "pass", "seat": seat, "sun_die": rng.randrange(3)}
        choices = self.bonus_choices(state, seat, action)
        if choices and choices["choices"]:
            slot = rng.choice(sorted(choices["choices"]))
            action["bonus"] = {"slot": slot, "value": rng.choice(choices["choices"][slot])}
        return action
