"""Who wins a pad (AG-6..AG-9): the best total or team total, a tie settled among the tied, the
winners named in a game without points, and a co-op game won or lost by everyone together.

Pure functions of the pad's state; rules.py applies the `finish` entry with them."""

from __future__ import annotations

from companion.games.words import _

from ..base import BadAction, RuleViolation, and_join, check_seat, is_int
from .sheet_lines import broken_tie


def points_kept(state: dict) -> bool:
    """Whether the play has scores to show and to count (AG-7): a game of points always, a game won
    or lost never, a co-op game once the group wrote its (optional) score."""
    outcome = state.get("outcome", "points")
    return outcome == "points" or (outcome == "coop" and bool(state["rounds"]))


def team_totals(state: dict) -> list[int]:
    return [sum(state["seats"][seat]["total"] for seat in team) for team in state.get("teams", [])]


def best_sides(state: dict) -> list[list[int]]:
    """AG-6 and AG-8: the sides (teams, or single seats) with the best total; several when tied,
    unless a sheet's tie-breaker line, written, sets them apart (sheet_lines.py)."""
    return broken_tie(state, best_totals(state))


def best_totals(state: dict) -> list[list[int]]:
    """The sides with the best total, whatever a tie-breaker says."""
    teams = state.get("teams") or [[seat] for seat in range(len(state["seats"]))]
    totals = [sum(state["seats"][seat]["total"] for seat in team) for team in teams]
    best = min(totals) if state["lowest_wins"] else max(totals)
    return [team for team, total in zip(teams, totals, strict=True) if total == best]


def winners(state: dict) -> list[int]:
    """Every winning seat once the pad is over (AG-6..AG-9)."""
    outcome = state.get("outcome", "points")
    if outcome == "coop":
        return list(range(len(state["seats"]))) if state.get("won") else []
    if state.get("winners") is not None:  # named at the end: a game without points, or a tie settled
        return list(state["winners"])
    return sorted(seat for side in best_sides(state) for seat in side)


def check_finish(engine, state: dict, action: dict) -> dict:
    """The fields a `finish` may carry here, checked: {"won": bool} for co-op (AG-7), {"winners":
    seats} naming who won without points (AG-7) or settling a tie (AG-9). Returns what to keep."""
    outcome = state.get("outcome", "points")
    won, named = action.get("won"), action.get("winners")
    if outcome == "coop":
        if named is not None:
            raise BadAction(
                "bad_action", _("A co-op game is won or lost by everyone: say 'won', not 'winners'.")
            )
        if not isinstance(won, bool):
            raise BadAction(
                "bad_action",
                _("A co-op game ends saying whether the players won: 'won' true or false (AG-7)."),
            )
        return {"won": won}
    if won is not None:
        raise BadAction("bad_action", _("Only a co-op game ends with 'won': name the 'winners' instead."))
    if outcome == "win_loss":
        if named is None:
            raise RuleViolation(
                "winners_needed",
                _("A game without points ends naming who won: one player or more (AG-7)."),
                "AG-7",
            )
        return {"winners": _whole_sides(state, _seats(engine, state, named), "AG-7")}
    if named is None:
        return {}
    return {"winners": _settled_tie(state, _seats(engine, state, named))}


def _seats(engine, state: dict, named) -> list[int]:
    if not isinstance(named, list) or not named or not all(is_int(seat) for seat in named):
        raise BadAction("bad_action", _("'winners' is a list of seat numbers, one at least."))
    if len(set(named)) != len(named):
        raise BadAction("bad_action", _("'winners' names each seat once."))
    for seat in named:
        check_seat(engine, state, seat)
    return sorted(named)


def _whole_sides(state: dict, seats: list[int], rule: str) -> list[int]:
    """AG-8: with teams, the winners are whole teams."""
    for team in state.get("teams", []):
        inside = [seat for seat in team if seat in seats]
        if inside and len(inside) != len(team):
            missing = [seat for seat in team if seat not in seats]
            raise RuleViolation(
                "whole_team",
                _("Teams win whole: Seat {seat} is in the same team as Seat {other} ({rule}).").format(
                    seat=missing[0], other=inside[0], rule=rule
                ),
                rule,
            )
    return seats


def _settled_tie(state: dict, seats: list[int]) -> list[int]:
    """AG-9: in points, winners are named only to settle a tie, and only among the tied."""
    best = best_sides(state)
    tied = sorted(seat for side in best for seat in side)
    if len(best) < 2:
        raise RuleViolation(
            "no_tie",
            _("There is no tie to settle: {who} has the best total (AG-9).").format(
                who=and_join([_("Seat {seat}").format(seat=seat) for seat in tied])
            ),
            "AG-9",
        )
    outside = [seat for seat in seats if seat not in tied]
    if outside:
        raise RuleViolation(
            "not_tied",
            _("Seat {seat} is not among the tied: only {tied} may win the tie (AG-9).").format(
                seat=outside[0], tied=and_join([_("Seat {seat}").format(seat=seat) for seat in tied])
            ),
            "AG-9",
        )
    return _whole_sides(state, seats, "AG-9")


def recorded(state: dict, totals: list[int], winners: list[int]) -> dict:
    """A pad as another app kept its result (an imported play, issue 29): each seat's total and
    the winners as recorded there, no rounds, over. A co-op play is won when its players are."""
    state = {**state, "seats": [{"total": total} for total in totals], "end_reason": "recorded"}
    if state.get("outcome") == "coop":
        return {**state, "won": bool(winners)}
    return {**state, "winners": sorted(winners)}
