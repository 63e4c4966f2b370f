"""The score pad's rules (RULINGS AG-1..AG-10): rounds or categories, whole points, the end, the win.

Rounds mode: a `score` entry is one round, points for every seat (AG-3); the table ends the pad with
`finish`, or a target ends it at once (AG-5). Categories mode: a `score` entry is one category,
points for one or more seats, each cell written once (AG-4); the pad ends when every cell is
written. The highest total wins, or the lowest; tied totals share the win (AG-6), unless a `finish`
settles the tie (AG-9). A game without points ends naming its winners, a co-op game saying whether
everyone won (AG-7); teams win on their total (AG-8); roles and expansions are kept (AG-10):
outcomes.py and seating.py.
"""

from __future__ import annotations

import random

from companion.games.words import _, gettext_noop, ngettext

from ..base import (
    BadAction,
    Field,
    PlayedGame,
    RuleViolation,
    and_join,
    check_players,
    check_seat,
    check_turn,
    checked,
    declared_fields,
    fresh_copy,
    is_int,
    is_seat_key,
    require,
    shown,
)
from ..names import tidy
from ..turns import Phase, Said, Turned, Turns, said_seat
from . import outcomes
from .seating import checked_roles, checked_teams
from .setup_options import checked_options
from .sheet_lines import counted

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


def check_category(value) -> None:
    require(isinstance(value, str), lambda: _("'category' must be a text."))


class AnyGame(Turned):
    slug = "any-game"
    name = gettext_noop("Any other game")
    new_table_heading = gettext_noop(
        "A score pad for any other game"
    )  # "New Any other game table" read badly
    min_players = 1
    max_players = 20
    options = {  # in the new-table form's order
        "game_name": "",
        "outcome": "points",
        "mode": "rounds",
        "categories": [],
        "lowest_wins": False,
        "target": 0,
        "teams": [],
        "roles": {},
        "expansions": [],
        "bgg_id": 0,
        "against": [],
        "tie_breaker": "",
        "tie_breaker_lowest": False,
        "headings": {},  # a sheet's line -> the heading over it (issue 44): filled in by a sheet
    }
    option_labels = {
        "game_name": gettext_noop("The game"),
        "bgg_id": gettext_noop("BoardGameGeek id (optional, for BG Stats)"),
        "mode": gettext_noop("The score sheet"),
        "categories": gettext_noop("Categories, one per line"),
        "lowest_wins": gettext_noop("The lowest total wins"),
        "target": gettext_noop("End the game when a total reaches (optional)"),
        "outcome": gettext_noop("How the game is won"),
        "teams": gettext_noop("Teams"),
        "roles": gettext_noop("Roles or factions"),
        "expansions": gettext_noop("Expansions played, one per line (optional)"),
        "against": gettext_noop("Categories that count against, one per line (optional)"),
        "tie_breaker": gettext_noop("The category that breaks a tie (optional)"),
        "tie_breaker_lowest": gettext_noop("The lowest tie-breaker wins"),
    }
    option_choices = {
        "mode": [
            ("rounds", gettext_noop("A row of points per round")),
            ("categories", gettext_noop("Named categories (like 7 Wonders)")),
        ],
        "outcome": [
            ("points", gettext_noop("Points")),
            ("win_loss", gettext_noop("Win or lose, no points")),
            ("coop", gettext_noop("Co-op: together against the game")),
        ],
    }
    # Options the new-table form asks per seat, beside each name (tables/seat_options.py).
    seat_options = {"teams": "team", "roles": "text"}
    # Where an option applies (the form hides it elsewhere; the engine refuses it there, AG-7):
    # option -> {other option: [values it needs]}.
    option_applies = {
        "mode": {"outcome": ["points"]},
        "categories": {"outcome": ["points"], "mode": ["categories"]},
        "lowest_wins": {"outcome": ["points"]},
        "target": {"outcome": ["points"], "mode": ["rounds"]},
        "teams": {"outcome": ["points", "win_loss"]},
        "against": {"outcome": ["points"], "mode": ["categories"]},
        "tie_breaker": {"outcome": ["points"], "mode": ["categories"]},
        "tie_breaker_lowest": {"outcome": ["points"], "mode": ["categories"]},
        "headings": {"outcome": ["points"], "mode": ["categories"]},
    }
    # Options no table starts without, where they apply (the form marks them; AG-1 refuses them empty).
    required_options = ("game_name", "categories")
    option_help = {
        "categories": gettext_noop(
            "Only for named categories: each player's points are written once per category."
        ),
        "target": gettext_noop(
            "Only for rounds, 0 for none: the round that brings a total to it ends the game."
        ),
        "against": gettext_noop("Each named here is typed as a positive number and taken away."),
        "tie_breaker": gettext_noop(
            "One of the categories: written, not added, and the best of it wins a tie for the best total."
        ),
    }
    action_types = ("score", "finish")
    # The actions' shapes, checked by base.play before apply. A finish's fields are the table's
    # setup's to judge (co-op says won, win-or-lose names winners: outcomes.check_finish).
    action_shapes = {
        "score": {
            "points": checked(
                parse_points, missing=gettext_noop("A score needs 'points': an object of seat -> points.")
            ),
            "category": checked(check_category, required=False),
        },
        "finish": {"winners": Field(required=False), "won": Field(required=False)},
    }
    action_fields = declared_fields(action_shapes)
    end_rule = "AG-5"
    players_rule = "AG-1"

    # --- setup and questions ----------------------------------------------------------------

    def setup(self, players: int, options: dict) -> dict:
        check_players(self, players)
        merged = {**self.options, **(options or {})}
        checked = checked_options(merged)
        return {
            **checked,
            "teams": checked_teams(merged["teams"], players, checked["outcome"]),
            "roles": checked_roles(merged["roles"], players),
            "rounds": [],
            "cells": {},
            "end_reason": None,
            "winners": None,  # named by the finish: a game without points, or a tie settled (AG-7, AG-9)
            "won": None,  # a co-op game's result (AG-7)
            "seats": [{"total": 0} for _ in range(players)],
        }

    def played_game(self, options: dict) -> PlayedGame:
        """The history keeps each game's name as a game of its own (issue 14)."""
        outcome = options.get("outcome", "points")
        return PlayedGame(
            title=" ".join(str(options.get("game_name", "")).split()),
            bgg_id=options.get("bgg_id") or 0,
            highest_wins=not options.get("lowest_wins"),
            no_points=outcome == "win_loss",
            cooperative=outcome == "coop",
            teams=bool(options.get("teams")),
        )

    def open_cells(self, state: dict) -> dict[str, list[int]]:
        """Categories mode: per category, the seats whose cell is still empty (complete ones left out)."""
        players = range(len(state["seats"]))
        open_cells = {
            category: [seat for seat in players if str(seat) not in state["cells"].get(category, {})]
            for category in state["categories"]
        }
        return {category: seats for category, seats in open_cells.items() if seats}

    def _accepted(self, state: dict) -> list[str]:
        outcome = state.get("outcome", "points")
        if outcome == "win_loss":
            return ["finish"]  # AG-7: no scores; the finish names the winners
        if outcome == "coop":
            return ["score", "finish"]  # AG-7: the group's score is optional
        return ["score", "finish"] if state["mode"] == "rounds" and state["rounds"] else ["score"]

    def _facts(self, state: dict) -> dict:
        """What expect tells besides: the mode, the outcome, the round or the open cells, a tie."""
        outcome = state.get("outcome", "points")
        info = {"mode": state["mode"], "outcome": outcome}
        if state["mode"] == "rounds":
            info["round"] = len(state["rounds"]) + 1
        else:
            info["open"] = self.open_cells(state)
        if state["end_reason"] is None and outcome == "points" and "finish" in self._accepted(state):
            best = outcomes.best_sides(state)
            if len(best) > 1:  # AG-9: a finish may settle the tie
                info["tied"] = sorted(seat for side in best for seat in side)
        return info

    # The turn structure (turns.py): anyone at the table writes on the pad, in any order (AG-3),
    # a round or a cell at a time, until a finish (rounds) or the last cell (categories) (AG-5).
    _no_points = {
        "score": Said(
            "no_points",
            gettext_noop("A game without points takes no scores: finish it naming who won (AG-7)."),
            "AG-7",
        )
    }
    _not_yours = Said(
        "not_your_turn", gettext_noop("Seat {seat} may not write now (AG-3)."), "AG-3", said_seat
    )
    turns = Turns(
        phase_of=lambda state: "over" if state["end_reason"] is not None else state["mode"],
        phases={
            "rounds": Phase(
                _accepted,
                not_now=Said(
                    "unexpected_action",
                    gettext_noop("Enter a round before finishing the pad (AG-5)."),
                    "AG-5",
                ),
                refuses=_no_points,
                not_yours=_not_yours,  # no pad entry names a seat of its own
                facts=_facts,
                then=("rounds", "over"),
            ),
            "categories": Phase(
                _accepted,
                not_now=Said(
                    "unexpected_action",
                    gettext_noop(
                        "A pad of categories ends by itself once every cell is written: there "
                        "is nothing to finish (AG-5)."
                    ),
                    "AG-5",
                ),
                refuses=_no_points,
                not_yours=_not_yours,
                facts=_facts,
                then=("categories", "over"),
            ),
            "over": Phase(facts=_facts),
        },
    )

    def scores(self, state: dict) -> list[dict]:
        if state["mode"] == "rounds":
            parts = [
                {str(n): points[str(seat)] for n, points in enumerate(state["rounds"], 1)}
                for seat in range(len(state["seats"]))
            ]
        else:
            parts = [
                {  # a line that counts against shows what it takes away; the tie-breaker what was written
                    category: state["cells"][category][str(seat)]
                    * (-1 if category in state.get("against", ()) else 1)
                    for category in state["categories"]
                    if str(seat) in state["cells"].get(category, {})
                }
                for seat in range(len(state["seats"]))
            ]
        team_of = {seat: index for index, team in enumerate(state.get("teams", [])) for seat in team}
        return [
            {
                "seat": seat,
                "total": totals["total"],
                "breakdown": parts[seat],
                **({"team": team_of[seat]} if seat in team_of else {}),
            }
            for seat, totals in enumerate(state["seats"])
        ]

    def points_kept(self, state: dict) -> bool:
        return outcomes.points_kept(state)

    def result(self, state: dict) -> dict | None:
        if state["end_reason"] is None:
            return None
        return {"winners": outcomes.winners(state), "end_reason": state["end_reason"]}

    # --- actions ----------------------------------------------------------------------------

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)  # a refusal must leave the caller's state untouched
        kind = action["type"]  # base.play checked its shape: the one door into the engine
        if kind == "finish":
            check_turn(self, state, kind)
            result = outcomes.check_finish(self, state, action)
            state.update(result)
            state["end_reason"] = ("won" if result["won"] else "lost") if "won" in result else "finished"
            return state
        points = {int(seat): value for seat, value in action["points"].items()}
        category = action.get("category")  # JSON null is the field left out (G-2)
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
        if state.get("outcome") == "coop" and len(set(points.values())) > 1:
            raise RuleViolation(
                "group_score",
                _("In a co-op game the score is the group's: give every player the same points (AG-7)."),
                "AG-7",
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
        sides = outcomes.team_totals(state) or [seat["total"] for seat in state["seats"]]
        if target and any(total >= target for total in sides):  # AG-8: a team's total with teams
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
            state["seats"][seat]["total"] += counted(state, named, points[seat])
        if not self.open_cells(state):
            state["end_reason"] = "complete"

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
                if rounds
                else _("The pad is closed.")  # a co-op game without a score, a game won or lost
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
            teams = after.get("teams") or [[seat] for seat in range(len(after["seats"]))]
            reached = [
                seat
                for team in teams
                if sum(after["seats"][member]["total"] for member in team) >= after["target"]
                for seat in team
            ]
            who = and_join([name(seat) for seat in reached])
            parts.append(_("{who} reached the target of {target}.").format(who=who, target=after["target"]))
        elif after["end_reason"] == "complete":
            parts.append(_("Every cell is written."))
        if after["end_reason"] is not None:
            parts.append(self.winner_sentence(after, names))
        return " ".join(parts)

    def winner_sentence(self, state: dict, names: list[str]) -> str:
        """The result in a sentence: who won and with what (AG-6..AG-9)."""
        outcome = state.get("outcome", "points")
        if outcome == "coop":
            if state.get("won"):
                return _("Game over: the players won together.")
            return _("Game over: the game beat the players.")
        winners = outcomes.winners(state)
        who = and_join(
            [names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat) for seat in winners]
        )
        if outcome == "win_loss":
            return ngettext("Game over: {who} wins.", "Game over: {who} win.", len(winners)).format(who=who)
        teams = state.get("teams") or []
        side = next((team for team in teams if winners[0] in team), [winners[0]])
        total = sum(state["seats"][seat]["total"] for seat in side)
        if state.get("winners") is not None:
            return ngettext(
                "Game over: {who} wins the tie at {total}.",
                "Game over: {who} win the tie at {total}.",
                len(winners),
            ).format(who=who, total=total)
        if len(outcomes.best_totals(state)) > len(outcomes.best_sides(state)):  # a sheet's tie-breaker
            return ngettext(
                "Game over: {who} wins the tie at {total} on {line}.",
                "Game over: {who} win the tie at {total} on {line}.",
                len(winners),
            ).format(who=who, total=total, line=state["tie_breaker"])
        if teams:
            return _("Game over: {who} win with {total} together.").format(who=who, total=total)
        verb = _("wins") if len(winners) == 1 else _("share the win")
        return _("Game over: {who} {verb} with {total}.").format(who=who, verb=verb, total=total)

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        outcome = state.get("outcome", "points")
        seats = range(len(state["seats"]))
        if outcome == "coop":
            if rng.random() < 0.2:
                return {"type": "finish", "won": rng.random() < 0.5}
            value = rng.randint(0, 10)
            return {"type": "score", "points": {str(seat): value for seat in seats}}
        if outcome == "win_loss":
            sides = state.get("teams") or [[seat] for seat in seats]
            chosen = [side for side in sides if rng.random() < 0.4] or [rng.choice(sides)]
            return {"type": "finish", "winners": sorted(seat for side in chosen for seat in side)}
        if state["mode"] == "rounds":
            if state["rounds"] and rng.random() < 0.1:
                best = outcomes.best_sides(state)
                if len(best) > 1 and rng.random() < 0.5:  # AG-9: settle the tie
                    return {"type": "finish", "winners": rng.choice(best)}
                return {"type": "finish"}
            return {
                "type": "score",
                "points": {str(seat): rng.randint(-5, 30) for seat in seats},
            }
        open_cells = self.open_cells(state)
        category = rng.choice(sorted(open_cells))
        chosen = [seat for seat in open_cells[category] if rng.random() < 0.6] or [open_cells[category][0]]
        return {
            "type": "score",
            "category": category,
            "points": {str(seat): rng.randint(0, 12) for seat in chosen},
        }
