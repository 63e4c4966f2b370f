"""The pad's screens for what AG-7..AG-10 add: teams and roles beside the names, the end of a game
without points (tap who won), of a co-op game (won or lost), a tie settled, and the result said."""

from __future__ import annotations

from companion.games.words import _

from .. import screen_kit
from ..base import and_join
from . import outcomes


def sides(state: dict, names: list[str]) -> list[dict]:
    """The sides a result names: each team (its players together), else each player."""
    teams = state.get("teams") or [[seat] for seat in range(len(names))]
    return [
        {"seats": ",".join(map(str, team)), "label": and_join([names[seat] for seat in team])}
        for team in teams
    ]


def seat_notes(state: dict) -> dict[int, str]:
    """A seat's team and role, as the scoreboard says them beside the name."""
    notes: dict[int, list[str]] = {}
    for number, team in enumerate(state.get("teams", []), 1):
        for seat in team:
            notes.setdefault(seat, []).append(_("team {number}").format(number=number))
    for seat, role in state.get("roles", {}).items():
        notes.setdefault(int(seat), []).insert(0, role)
    return {seat: " · ".join(parts) for seat, parts in notes.items()}


def finish_entry(state: dict, expect: dict, names: list[str]) -> dict:
    """What ends the pad here: the winners to tap (no points), won or lost (co-op), or the tied to
    choose among (points: AG-9)."""
    outcome = state.get("outcome", "points")
    if outcome == "win_loss":
        return {"kind": "winners", "sides": sides(state, names)}
    if outcome == "coop":
        return {"kind": "coop", "sides": []}
    tied = set(expect.get("tied", []))
    settle = [
        side for side in sides(state, names) if {int(seat) for seat in side["seats"].split(",")} <= tied
    ]
    return {"kind": "points", "sides": settle if len(settle) > 1 else []}


def winner_text(state: dict, data: dict, names: list[str], unit) -> str:
    """The result's headline in words, for every outcome (screen_kit.result says the plain win)."""
    outcome = state.get("outcome", "points")
    if outcome == "coop":
        return _("Everyone won together") if state.get("won") else _("The game won: everyone lost together")
    winners = data["winners"] or []
    who = and_join([names[seat] for seat in winners])
    if outcome == "win_loss":
        return _("{who} wins").format(who=who) if len(winners) == 1 else _("{who} win").format(who=who)
    teams = state.get("teams") or []
    side = next((team for team in teams if winners and winners[0] in team), winners[:1])
    total = sum(state["seats"][seat]["total"] for seat in side)
    points = f"{total} {unit(total)}"
    if state.get("winners") is not None:
        if len(winners) == 1:
            return _("{who} wins the tie with {points}").format(who=who, points=points)
        return _("{who} win the tie with {points}").format(who=who, points=points)
    if teams:
        return _("{who} win with {points} together").format(who=who, points=points)
    return ""  # the plain win: screen_kit.result's own sentence


def action_from_finish(post) -> dict:
    """The finish form's fields as the entry: `won` for co-op, the tapped sides as `winners`."""
    action: dict = {"type": "finish"}
    if post.get("won") in ("1", "0"):
        action["won"] = post.get("won") == "1"
    chosen = {seat.strip() for value in post.getlist("winners") for seat in value.split(",") if seat.strip()}
    if chosen:  # anything but seat numbers goes to the engine as sent, which refuses it
        seats = [screen_kit.number(seat) for seat in chosen]
        action["winners"] = sorted(seats) if None not in seats else sorted(chosen)
    return action


def team_totals(state: dict, names: list[str]) -> list[dict]:
    """Each team's total, for the pad's sheet in a team game."""
    return [
        {"label": side["label"], "total": total}
        for side, total in zip(sides(state, names), outcomes.team_totals(state), strict=False)
    ]
