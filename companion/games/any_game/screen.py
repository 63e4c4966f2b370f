"""The score pad's screens: a keypad row per player, the pad as a sheet, totals with ranks."""

from __future__ import annotations

from companion.games import screen_kit, words
from companion.games.words import _, gettext_noop, ngettext

from . import outcomes, screen_outcomes
from .rules import parse_points, points_said

END_TEXTS = {
    "finished": gettext_noop("The table closed the pad."),
    "target": gettext_noop("A total reached the target."),
    "complete": gettext_noop("Every cell is written."),
    "won": gettext_noop("The players beat the game."),
    "lost": gettext_noop("The game beat the players."),
    "recorded": gettext_noop("The result as it was kept before this app (imported): no log to replay."),
}
WIDE = 6  # players up to which the sheet has a column each; more read down the page
MINUS_SIGNS = "-−–"  # a hyphen, the minus sign and the dash a phone's keyboard may type


def ordinal(rank: int) -> str:
    return words.ordinal(rank)


def ranks(totals: list[int], lowest_wins: bool) -> list[int]:
    """Competition ranks (1, 2, 2, 4) by total, the best first in the pad's direction (AG-6)."""
    return [
        sum(1 for other in totals if (other < total if lowest_wins else other > total)) + 1
        for total in totals
    ]


def context(data: dict, viewer: screen_kit.Viewer) -> dict:
    state = data["state"]
    outcome = state.get("outcome", "points")
    names = [player["name"] for player in data["players"]]
    totals = [seat["total"] for seat in state["seats"]]
    places = ranks(totals, state["lowest_wins"])
    tied = {rank for rank in places if places.count(rank) > 1}
    written = bool(state["rounds"] or state["cells"]) and outcome == "points" and not state.get("teams")
    notes = {
        seat: ("=" if rank in tied else "") + ordinal(rank) for seat, rank in enumerate(places) if written
    }
    for seat, note in screen_outcomes.seat_notes(state).items():  # AG-8, AG-10: team and role
        notes[seat] = f"{note} · {notes[seat]}" if notes.get(seat) else note
    board = screen_kit.scoreboard(data, notes, state["lowest_wins"])
    if not outcomes.points_kept(state):  # no points to show: won or lost, a co-op without a score (AG-7)
        board = [{**row, "total": "", "leading": False} for row in board]
    # The result's breakdown reads down the page, a row per round or category, a column per player;
    # more players than fit a phone get the totals alone (the history's replay has every round).
    parts = _parts(state) if len(names) <= WIDE else []
    result = screen_kit.result(data, parts, END_TEXTS, points_word)
    if result:
        result["breakdown_by_part"] = bool(parts)
        result["winner_text"] = (
            screen_outcomes.winner_text(state, data, names, points_word) or result["winner_text"]
        )
        result["breakdown_shown"] = outcomes.points_kept(state)  # no 0/0/0 for a co-op without a score
        result["trophy"] = bool(outcomes.winners(state))  # a co-op loss is a loss (issue 43)
    return {
        # The table's public facts the templates show, named here so they never read the state.
        **{key: data["state"][key] for key in ("lowest_wins", "target")},
        "scoreboard": board,
        **result,
        "rounds_mode": state["mode"] == "rounds",
        "outcome": outcome,
        "team_totals": screen_outcomes.team_totals(state, names),
        "expansions": state.get("expansions", []),
        "wide": len(names) <= WIDE,
        "sheet": _sheet(state, names),
        "entry": _entry(data, viewer, names),
        "last": _last(state, viewer, names),
        "target_text": _target_text(state),
    }


def _parts(state: dict) -> list[tuple[str, str]]:
    if state["mode"] == "rounds":
        return [(str(n), _("Round {n}").format(n=n)) for n in range(1, len(state["rounds"]) + 1)]
    return [(category, category) for category in state["categories"]]


def _sheet(state: dict, names: list[str]) -> dict:
    """The pad as written so far: a row per round (newest first) or per category, a column per player."""
    if state["mode"] == "rounds":
        rows = [
            {"label": _("Round {n}").format(n=n), "values": [points[str(seat)] for seat in range(len(names))]}
            for n, points in reversed(list(enumerate(state["rounds"], 1)))
        ]
    else:
        rows = [
            {
                "label": _line_label(state, category),
                "values": [
                    _shown_cell(state, category, state["cells"].get(category, {}).get(str(seat), ""))
                    for seat in range(len(names))
                ],
                "heading": _heading_above(state, index),
                "ends_group": _ends_group(state, index),
            }
            for index, category in enumerate(state["categories"])
        ]
    written = sum(len(cells) for cells in state["cells"].values())
    return {
        "names": names,
        "totals": [seat["total"] for seat in state["seats"]],
        "rows": rows,
        "cells_written": written,
        "cells": len(names) * len(state["categories"]),
        "players": [
            {
                "name": name,
                "total": state["seats"][seat]["total"],
                "values": [row["values"][seat] for row in rows],
            }
            for seat, name in enumerate(names)
        ],
    }


def _ends_group(state: dict, index: int) -> bool:
    """A line with no heading right after a headed one: the group ends above it, so the line is
    not read as the group's (Cascadia's "Nature tokens" after its habitats)."""
    headings, categories = state.get("headings", {}), state["categories"]
    return index > 0 and not headings.get(categories[index]) and bool(headings.get(categories[index - 1]))


def _heading_above(state: dict, index: int) -> str:
    """A sheet's heading, over the first of the lines it heads (issue 44); "" elsewhere."""
    headings, categories = state.get("headings", {}), state["categories"]
    heading = headings.get(categories[index], "")
    return heading if heading and (index == 0 or headings.get(categories[index - 1]) != heading) else ""


def _line_label(state: dict, category: str) -> str:
    """A sheet's line as its row says it: one that counts against, the tie-breaker (sheet_lines.py)."""
    if category == state.get("tie_breaker"):
        return _("{line} (tie-breaker)").format(line=category)
    if category in state.get("against", ()):
        return _("{line} (taken away)").format(line=category)
    return category


def _shown_cell(state: dict, category: str, value):
    """A written cell as it counts: a line against shows what it takes away (−8 for 8 typed)."""
    if value == "" or category not in state.get("against", ()):
        return value
    return -value


def line_note(state: dict, category: str | None) -> str:
    """Under the keypad of a sheet's special line: what its number does."""
    if category is None:
        return ""
    if category == state.get("tie_breaker"):
        if state.get("tie_breaker_lowest"):
            return _(
                "Not added to the total: in a tie for the best total, the lowest {line} wins (AG-6)."
            ).format(line=category)
        return _(
            "Not added to the total: in a tie for the best total, the highest {line} wins (AG-6)."
        ).format(line=category)
    if category in state.get("against", ()):
        return _("Type it as a positive number: it is taken away from the total (AG-4).")
    return ""


def _entry(data: dict, viewer: screen_kit.Viewer, names: list[str]) -> dict | None:
    """What to enter next: a round for every seat, or one category for the seats still empty there."""
    state, expect = data["state"], data["expect"]
    if not expect["actions"]:
        return None
    posted = viewer.posted
    finish = screen_outcomes.finish_entry(state, expect, names)
    if state.get("outcome") == "win_loss":  # no keypad: tap who won (AG-7)
        return {"finish": finish, "rows": [], "category": None, "round": None, "can_finish": True}
    if state.get("outcome") == "coop":  # one keypad for the group's score, optional (AG-7)
        row = {"seat": "group", "name": _("The group"), "total": state["seats"][0]["total"]}
        row |= {
            "typed": posted.get("points_group", ""),
            "minus": bool(posted.get("minus_group")),
            "last": True,
        }
        return {
            "finish": finish,
            "rows": [row],
            "category": None,
            "round": expect.get("round"),
            "can_finish": True,
        }
    if state["mode"] == "rounds":
        seats, category, others = list(range(len(names))), None, []
    else:
        open_cells = expect["open"]
        asked = viewer.query.get("category") or posted.get("category")
        category = asked if asked in open_cells else next(iter(open_cells))
        seats, others = open_cells[category], [c for c in open_cells if c != category]
    return {
        "finish": finish,
        "category": category,
        "category_note": line_note(state, category),
        "other_categories": others,
        "round": expect.get("round"),
        "can_finish": "finish" in expect["actions"],
        "rows": [
            {
                "seat": seat,
                "name": names[seat],
                "total": state["seats"][seat]["total"],
                "typed": posted.get(f"points_{seat}", ""),
                "minus": bool(posted.get(f"minus_{seat}")),
                "last": i == len(seats) - 1,
            }
            for i, seat in enumerate(seats)
        ],
    }


def _last(state: dict, viewer: screen_kit.Viewer, names: list[str]) -> str:
    """The newest live entry in a line: "Round 4: Ann 12, Ben 3" (the pad's own story strip)."""
    if not viewer.log:
        return ""
    action = viewer.log[0][1]
    if action.get("type") != "score":
        return ""
    written = points_said(parse_points(action["points"]), names)
    if state["mode"] == "rounds":
        return _("Last round: {written}.").format(written=written)
    return f"{action['category']}: {written}."


def _target_text(state: dict) -> str:
    if state["mode"] != "rounds" or not state["target"]:
        return ""
    direction = _("lowest") if state["lowest_wins"] else _("highest")
    return _(
        "The first total to reach {target} ends the game; the {direction} total wins (AG-5, AG-6)."
    ).format(target=state["target"], direction=direction)


def typed_points(text: str, minus: bool):
    """A keypad's text as points: a whole number, made negative by the row's minus key. Anything
    else goes to the engine as typed, which refuses it naming the player (AG-2)."""
    text = text.strip().replace(" ", "")
    negative = minus
    if text[:1] in MINUS_SIGNS:
        text, negative = text[1:], True
    if not text.isdecimal() or not text.isascii():
        return text if not minus else "-" + text
    try:
        value = int(text)
    except ValueError:  # more digits than int() reads (4,300): a 500 before (issue 41)
        return text if not minus else "-" + text
    return -value if negative else value


def action_from_form(post, data: dict) -> dict:
    """The posted keypad as one entry; a blank row is left out (the engine names who is missing)."""
    if post.get("type") == "finish":
        return screen_outcomes.action_from_finish(post)
    state = data["state"]
    if post.get("points_group", "").strip():  # a co-op game's score: the same for everyone (AG-7)
        value = typed_points(post.get("points_group", ""), bool(post.get("minus_group")))
        return {"type": "score", "points": {str(seat): value for seat in range(len(state["seats"]))}}
    points = {
        str(seat): typed_points(post.get(f"points_{seat}", ""), bool(post.get(f"minus_{seat}")))
        for seat in range(len(state["seats"]))
        if post.get(f"points_{seat}", "").strip()
    }
    action = {"type": "score", "points": points}
    if state["mode"] == "categories":
        action["category"] = post.get("category", "")
    return action


def points_word(number: int) -> str:
    return ngettext("point", "points", number)
