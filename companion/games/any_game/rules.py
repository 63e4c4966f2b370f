"""The score pad's rules (RULINGS AG-1..AG-6): rounds or categories, whole points, the end, the win.

Rounds mode: a `score` entry is one round, points for every seat (AG-3); the table ends the pad with
`finish`, or a target ends it at once (AG-5). Categories mode: a `score` entry is one category,
points for one or more seats, each cell written once (AG-4); the pad ends when every cell is
written. The highest total wins, or the lowest; tied totals share the win (AG-6).
"""

from __future__ import annotations

import random

from companion.games.words import _, gettext_noop, ngettext

from ..base import (
    BadAction,
    PlayedGame,
    RuleViolation,
    and_join,
    check_players,
    check_seat,
    check_turn,
    fresh_copy,
    is_int,
    is_seat_key,
    require,
    shown,
)
from ..names import tidy
from .setup_options import checked_options

POINTS_MAX = 9999  # AG-2: points from -9999 to 9999


def points_said(points: dict[int, int], names: list[str]) -> str:
    """{0: 12, 1: -3} -> "Ann 12, Ben -3", in seat order (the log and the screen's story strip)."""
    return ", ".join(
        f"{names[seat] if seat < len(names) else f'Seat {seat}'} {points[seat]}" for seat in sorted(points)
    )


def parse_points(value) -> dict[int, int]:
    """{"0": 12, "1": -3} -> {0: 12, 1: -3}: the shape only (seats and range are rules)."""
    require(isinstance(value, dict), lambda: _("A score needs 'points': an object of seat -> points."))
    points = {}
    for key, item in value.items():
        require(
            is_seat_key(key),
            _("A key of 'points' is a seat number, not {shown}.").format(shown=shown(key)),
        )
        require(
            is_int(item),
            _("Seat {key}'s points must be a whole number, not {shown} (AG-2).").format(
                key=key, shown=shown(item)
            ),
        )
        points[int(key)] = item
    return points


class AnyGame:
    slug = "any-game"
    name = gettext_noop("Any other game")
    new_table_heading = gettext_noop(
        "A score pad for any other game"
    )  # "New Any other game table" read badly
    min_players = 1
    max_players = 20
    options = {
        "game_name": "",
        "bgg_id": 0,
        "mode": "rounds",
        "categories": [],
        "lowest_wins": False,
        "target": 0,
    }
    option_labels = {
        "game_name": gettext_noop("The game"),
        "bgg_id": gettext_noop("BoardGameGeek id (optional, for BG Stats)"),
        "mode": gettext_noop("The score sheet"),
        "categories": gettext_noop("Categories, one per line"),
        "lowest_wins": gettext_noop("The lowest total wins"),
        "target": gettext_noop("End the game when a total reaches (optional)"),
    }
    option_choices = {
        "mode": [
            ("rounds", gettext_noop("A row of points per round")),
            ("categories", gettext_noop("Named categories (like 7 Wonders)")),
        ]
    }
    option_help = {
        "categories": gettext_noop(
            "Only for named categories: each player's points are written once per category."
        ),
        "target": gettext_noop(
            "Only for rounds, 0 for none: the round that brings a total to it ends the game."
        ),
    }
    action_types = ("score", "finish")
    action_fields = {"score": {"type", "points", "category"}, "finish": {"type"}}
    end_rule = "AG-5"
    players_rule = "AG-1"

    # --- setup and questions ----------------------------------------------------------------

    def setup(self, players: int, options: dict) -> dict:
        check_players(self, players)
        return {
            **checked_options({**self.options, **(options or {})}),
            "rounds": [],
            "cells": {},
            "end_reason": None,
            "seats": [{"total": 0} for _ in range(players)],
        }

    def played_game(self, options: dict) -> PlayedGame:
        """The history keeps each game's name as a game of its own (issue 14)."""
        return PlayedGame(
            title=" ".join(str(options.get("game_name", "")).split()),
            bgg_id=options.get("bgg_id") or 0,
            highest_wins=not options.get("lowest_wins"),
        )

    def open_cells(self, state: dict) -> dict[str, list[int]]:
        """Categories mode: per category, the seats whose cell is still empty (complete ones left out)."""
        players = range(len(state["seats"]))
        open_cells = {
            category: [seat for seat in players if str(seat) not in state["cells"].get(category, {})]
            for category in state["categories"]
        }
        return {category: seats for category, seats in open_cells.items() if seats}

    def expect(self, state: dict) -> dict:
        info = {"mode": state["mode"]}
        if state["mode"] == "rounds":
            info["round"] = len(state["rounds"]) + 1
        else:
            info["open"] = self.open_cells(state)
        if state["end_reason"] is not None:
            return {"actions": [], "seats": [], **info}
        actions = ["score", "finish"] if state["mode"] == "rounds" and state["rounds"] else ["score"]
        return {"actions": actions, "seats": [], **info}

    def scores(self, state: dict) -> list[dict]:
        if state["mode"] == "rounds":
            parts = [
                {str(n): points[str(seat)] for n, points in enumerate(state["rounds"], 1)}
                for seat in range(len(state["seats"]))
            ]
        else:
            parts = [
                {
                    category: state["cells"][category][str(seat)]
                    for category in state["categories"]
                    if str(seat) in state["cells"].get(category, {})
                }
                for seat in range(len(state["seats"]))
            ]
        return [
            {"seat": seat, "total": totals["total"], "breakdown": parts[seat]}
            for seat, totals in enumerate(state["seats"])
        ]

    def result(self, state: dict) -> dict | None:
        if state["end_reason"] is None:
            return None
        return {"winners": self.leaders(state), "end_reason": state["end_reason"]}

    def leaders(self, state: dict) -> list[int]:
        """AG-6: the seats with the best total, highest or lowest; a tie shares it."""
        totals = [seat["total"] for seat in state["seats"]]
        best = min(totals) if state["lowest_wins"] else max(totals)
        return [seat for seat, total in enumerate(totals) if total == best]

    # --- actions ----------------------------------------------------------------------------

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)  # a refusal must leave the caller's state untouched
        kind = action["type"]  # base.play checked its shape: the one door into the engine
        if kind == "finish":
            check_turn(self, state, kind)
            state["end_reason"] = "finished"
            return state
        require("points" in action, lambda: _("A score needs 'points': an object of seat -> points."))
        points = parse_points(action["points"])
        category = action.get("category")  # JSON null is the field left out (G-2)
        require(category is None or isinstance(category, str), lambda: _("'category' must be a text."))
        check_turn(self, state, kind)
        for seat in points:
            check_seat(self, state, seat)
        for seat, value in points.items():
            if abs(value) > POINTS_MAX:
                raise RuleViolation(
                    "points_out_of_range",
                    _(
                        "Seat {seat} scored {value}: points go from -{POINTS_MAX} to {POINTS_MAX} (AG-2)."
                    ).format(seat=seat, value=value, POINTS_MAX=POINTS_MAX),
                    "AG-2",
                )
        if state["mode"] == "rounds":
            self._round(state, points, category)
        else:
            self._category(state, points, category)
        return state

    def _round(self, state: dict, points: dict[int, int], category: str | None) -> None:
        if category is not None:
            raise RuleViolation(
                "no_categories",
                _(
                    "This pad counts rounds: a round gives points to every player and "
                    "names no category (AG-3)."
                ),
                "AG-3",
            )
        missing = [seat for seat in range(len(state["seats"])) if seat not in points]
        if missing:
            who = and_join([_("Seat {seat}").format(seat=seat) for seat in missing])
            raise RuleViolation(
                "missing_points",
                _("A round gives points to every player: enter {who}'s too, 0 for nothing (AG-3).").format(
                    who=who
                ),
                "AG-3",
            )
        state["rounds"].append({str(seat): points[seat] for seat in sorted(points)})
        for seat, value in points.items():
            state["seats"][seat]["total"] += value
        target = state["target"]
        if target and any(seat["total"] >= target for seat in state["seats"]):
            state["end_reason"] = "target"

    def _category(self, state: dict, points: dict[int, int], category: str | None) -> None:
        listed = and_join(state["categories"])
        if category is None:
            raise BadAction(
                "bad_action",
                _("A score on this pad names its category: one of {listed}.").format(listed=listed),
            )
        named = next((c for c in state["categories"] if c.casefold() == tidy(category).casefold()), None)
        if named is None:
            raise RuleViolation(
                "unknown_category",
                _("This pad has no category {shown}: its categories are {listed} (AG-4).").format(
                    shown=shown(category), listed=listed
                ),
                "AG-4",
            )
        if not points:
            raise RuleViolation(
                "no_points",
                _("A score for {named} gives points to one player at least (AG-4).").format(named=named),
                "AG-4",
            )
        cells = state["cells"].setdefault(named, {})
        for seat in sorted(points):
            if str(seat) in cells:
                raise RuleViolation(
                    "cell_written",
                    _(
                        "Seat {seat} already has {value} for {named}: each cell is written "
                        "once; undo that entry to correct it (AG-4)."
                    ).format(seat=seat, value=cells[str(seat)], named=named),
                    "AG-4",
                )
        for seat in sorted(points):
            cells[str(seat)] = points[seat]
            state["seats"][seat]["total"] += points[seat]
        if not self.open_cells(state):
            state["end_reason"] = "complete"

    def not_now(self, state: dict, kind: str) -> RuleViolation:
        """G-1: the only entry a pad does not take while open is `finish` (AG-5)."""
        if state["mode"] == "categories":
            message = _(
                "A pad of categories ends by itself once every cell is written: there "
                "is nothing to finish (AG-5)."
            )
        else:
            message = _("Enter a round before finishing the pad (AG-5).")
        return RuleViolation("unexpected_action", message, "AG-5")

    def not_your_turn(self, state: dict, kind: str, seat: int) -> RuleViolation:
        # No pad entry names a seat of its own: anyone at the table writes on the pad.
        return RuleViolation(
            "not_your_turn", _("Seat {seat} may not write now (AG-3).").format(seat=seat), "AG-3"
        )

    # --- the log ------------------------------------------------------------------------------

    def describe(self, state_before: dict, action: dict, after: dict, names: list[str]) -> str:

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat)

        if action["type"] == "finish":
            rounds = len(after["rounds"])
            parts = [
                ngettext(
                    "The pad is closed after {rounds} round.",
                    "The pad is closed after {rounds} rounds.",
                    rounds,
                ).format(rounds=rounds)
            ]
        else:
            points = parse_points(action["points"])
            written = points_said(points, names)
            if after["mode"] == "rounds":
                parts = [_("Round {len}: {written}.").format(len=len(after["rounds"]), written=written)]
            else:
                category = next(
                    c for c in after["categories"] if c.casefold() == tidy(action["category"]).casefold()
                )
                parts = [f"{category}: {written}."]
        if after["end_reason"] == "target":
            reached = [
                seat for seat, totals in enumerate(after["seats"]) if totals["total"] >= after["target"]
            ]
            who = and_join([name(seat) for seat in reached])
            parts.append(_("{who} reached the target of {target}.").format(who=who, target=after["target"]))
        elif after["end_reason"] == "complete":
            parts.append(_("Every cell is written."))
        if after["end_reason"] is not None:
            parts.append(self.winner_sentence(after, names))
        return " ".join(parts)

    def winner_sentence(self, state: dict, names: list[str]) -> str:
        winners = self.leaders(state)
        total = state["seats"][winners[0]]["total"]
        who = and_join(
            [names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat) for seat in winners]
        )
        verb = _("wins") if len(winners) == 1 else _("share the win")
        return _("Game over: {who} {verb} with {total}.").format(who=who, verb=verb, total=total)

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        if state["mode"] == "rounds":
            if state["rounds"] and rng.random() < 0.1:
                return {"type": "finish"}
            return {
                "type": "score",
                "points": {str(seat): rng.randint(-5, 30) for seat in range(len(state["seats"]))},
            }
        open_cells = self.open_cells(state)
        category = rng.choice(sorted(open_cells))
        seats = [seat for seat in open_cells[category] if rng.random() < 0.6] or [open_cells[category][0]]
        return {
            "type": "score",
            "category": category,
            "points": {str(seat): rng.randint(0, 12) for seat in seats},
        }
