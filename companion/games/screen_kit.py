"""Screen helpers every game shares: the scoreboard rows and the result's sentences."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from companion.games.words import _

from . import base, registry
from .base import and_join


@dataclass
class Viewer:
    """Who is looking at a table page and what they asked for, as the screens need it."""

    can_edit: bool = False
    seat: int | None = None  # the seat this phone said is its own (games with a sheet per seat)
    query: dict = field(default_factory=dict)  # GET parameters: a step-by-step choice in progress
    posted: dict = field(default_factory=dict)  # a refused entry's form, to keep its picks
    log: list = field(default_factory=list)  # (seq, action) of the newest live entries, newest first
    noted: dict = field(default_factory=dict)  # seat -> indexes of values noted in secret (not the values)
    display: bool = False  # the table on a big screen (issue 32): every public part at once


# Every key templates/tables/_option.html reads, so that each game's step options carry them all.
OPTION_KEYS = {
    "label": "",
    "detail": "",
    "hint": "",
    "disabled": "",
    "fields": None,
    "href": "",
    "summary": "",
    "says": "",  # the entry in words, for an option that posts from a screen of several decisions
}


NUMBER_DIGITS = 9  # far more than any count, seat, face or slot a screen reads


def number(text) -> int | None:
    """The whole number a step's query or a posted field names ("3"), or None for anything else: a
    sign, a space, digits int() reads otherwise or not at all ("٣", "²"), or more than NUMBER_DIGITS
    of them. A phone sends what its page set; anything else was typed into the address (issue 41:
    "²" and a number of 5,000 digits were a 500)."""
    if isinstance(text, str) and 0 < len(text) <= NUMBER_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def choice(option: dict) -> dict:
    """One option of a step-by-step entry (a link to the next step, a button that posts the whole
    entry, or a greyed one with its reason), with every key the option partial reads."""
    return {**OPTION_KEYS, **option}


def scoreboard(data: dict, notes: dict[int, str] | None = None, lowest_wins: bool = False) -> list[dict]:
    """Each player's total, in seat order; the one leader marked (the lowest total when it wins)."""
    notes = notes or {}
    totals = [score["total"] for score in data["scores"]]
    top = (min(totals) if lowest_wins else max(totals)) if totals else None
    leaders = sum(1 for total in totals if total == top)
    started = any(totals) if lowest_wins else top is not None and top > 0
    return [
        {
            "seat": player["seat"],
            "name": player["name"],
            "total": totals[player["seat"]],
            # Only one player can "lead"; a tie at the top highlights nobody.
            "leading": started and leaders == 1 and totals[player["seat"]] == top,
            "note": notes.get(player["seat"], ""),
        }
        for player in data["players"]
    ]


def result(
    data: dict,
    parts: list[tuple[str, str]],
    end_texts: dict[str, str],
    unit: Callable[[int], str],
    tie_break: tuple[str, str] | None = None,
    total_label: str | None = None,
) -> dict:
    """The finished table: who won, why it ended, and each seat's breakdown in `parts` order.
    `unit` gives the score's word for a number (an ngettext); `parts`' labels and `end_texts` are
    marked for the catalog where they are defined and said here; `tie_break`, when the rules broke a tie on
    it, is the sentence that says how and the ruling's id, shown small after it (issue 15)."""
    if data["status"] != "finished":
        return {}
    names = [player["name"] for player in data["players"]]
    winners = data["winners"] or []
    best = data["scores"][winners[0]]["total"] if winners else 0
    winner_names = and_join([names[seat] for seat in winners])
    points = f"{best} {unit(best)}"
    if len(winners) == 1:
        winner_text = _("{winner_names} wins with {points}").format(winner_names=winner_names, points=points)
    else:
        winner_text = _("{winner_names} share the win with {points}").format(
            winner_names=winner_names, points=points
        )
    return {
        "winner_text": winner_text,
        "trophy": bool(winners),  # the result card's 🏆: not for a co-op loss (issue 43)
        "tie_break_text": tie_break[0] if tie_break else "",
        "tie_break_rule": tie_break[1] if tie_break else "",
        "end_text": _(end_texts.get(data["end_reason"], data["end_reason"] or "")),
        "breakdown_parts": [{"key": key, "label": _(label)} for key, label in parts],
        "total_label": total_label or _("Total"),  # what the total counts, when it is not a sum of the parts
        # Whichever way has fewer columns, so a phone never scrolls sideways (issue 15): a column
        # per part (with the name and the total), or a row per part and a column per player.
        "breakdown_by_part": len(names) + 1 < len(parts) + 2,
        "breakdown_shown": True,  # a game without points has none to show (the pad's AG-7)
        "breakdown_part_rows": [
            {"label": _(label), "values": [score["breakdown"].get(key, 0) for score in data["scores"]]}
            for key, label in parts
        ],
        "breakdown_rows": [
            {
                "name": names[score["seat"]],
                "values": [score["breakdown"].get(key, 0) for key, _ in parts],
                "total": score["total"],
                "winner": score["seat"] in winners,
            }
            for score in data["scores"]
        ],
    }


class StepMachine:
    """A multi-tap entry, one decision per screen (issue 14: the one step machine of every game).

    The choices made so far live in the page's query string, so a step is a link, Back is the
    browser's and a refresh keeps the choice. A game's machine names its query KEYS, the order in
    which Back takes decisions back (UNDO: groups of keys, the latest first; LIST_KEYS hold a comma
    list taken back one item at a time), and implements `_step(query)`: the next decision, a dict
    with "name", "title" and "options", or {"name": "done", "action": ...} once the entry is
    complete. Each option either posts the finished entry (its "action", or the step after it is
    done), links to the next step (its "set" adds to the query), or is greyed with its reason.
    """

    KEYS: tuple[str, ...] = ()
    UNDO: tuple[tuple[str, ...], ...] = ()
    LIST_KEYS: frozenset[str] = frozenset()
    CARRIED_OVER: frozenset[str] = frozenset()  # keys that hold no decision (dropped by an option)

    def __init__(self, state: dict, query: dict):
        self.state = state
        self.query = {key: query[key] for key in self.KEYS if query.get(key) not in (None, "")}

    def resolve(self) -> dict:
        step = self._step(self.query)
        step["options"] = [self._option(option) for option in step.get("options", [])]
        step["back"] = self._back()
        return step

    def _step(self, query: dict) -> dict:
        raise NotImplementedError

    def posted(self, action: dict) -> dict:
        """The hidden fields that post a finished `action` (a game's action_from_form reads them)."""
        raise NotImplementedError

    def says(self, action: dict) -> str:
        """The entry in words as the log will say it, shown while it waits offline (issue 30)."""
        return ""

    def _option(self, option: dict) -> dict:
        if option.get("disabled"):
            return choice(option)
        if "action" in option:  # an option that is the whole entry at once
            action = option["action"]
            return choice(
                {**option, "fields": self.posted(action), "says": option.get("says") or self.says(action)}
            )
        query = {**{k: v for k, v in self.query.items() if k not in self.CARRIED_OVER}, **option["set"]}
        after, query = self._forced(self._step(query), query)
        if after["name"] == "done":
            action = after["action"]
            return choice(
                {
                    **option,
                    "fields": self.posted(action),
                    "summary": after.get("summary", ""),
                    "says": option.get("says") or self.says(action),
                }
            )
        return choice({**option, "href": "?" + urlencode(query)})

    def _forced(self, step: dict, query: dict) -> tuple[dict, dict]:
        """Take every step that has one possible way without a tap (issue 15: no step with one
        answer): its one open option is chosen, or, if that option posts, the entry is done."""
        while step["name"] != "done":
            open_options = [option for option in step.get("options", []) if not option.get("disabled")]
            if len(open_options) != 1:
                break
            (only,) = open_options
            if "action" in only:
                return {"name": "done", "action": only["action"], "summary": only.get("summary", "")}, query
            if all(query.get(key) == value for key, value in only["set"].items()):
                break  # an option that decides nothing new: ask, rather than loop
            query = {**query, **only["set"]}
            step = self._step(query)
        return step, query

    def _back(self) -> str | None:
        """The previous step that asked something: the query without its latest decision, and
        without the decisions that were taken for the player because they had one way."""
        query = self.query
        while (query := self._without_latest(query)) is not None:
            step = self._step(query)
            if not query or self._forced(step, query)[0] is step:  # the first step always asks
                return "?" + urlencode(query)
        return None

    def _without_latest(self, query: dict) -> dict | None:
        for keys in self.UNDO:
            if not any(key in query for key in keys):
                continue
            rest = {k: v for k, v in query.items() if k not in keys}
            for key in keys:
                items = query.get(key, "").split(",")
                if key in self.LIST_KEYS and len(items) > 1:
                    rest[key] = ",".join(items[:-1])
            return rest
        return None


class TurnSteps(StepMachine):
    """The steps of the seat in turn, whose buttons post the whole action as JSON (json_action
    reads it back) and say it as the game's log will (SLUG: the game's registry key)."""

    SLUG = ""

    def __init__(self, state: dict, names: list[str], query: dict):
        super().__init__(state, query)
        self.names = names
        self.seat = state["turn"]

    def posted(self, action: dict) -> dict:
        return {"action": json.dumps(action)}

    def says(self, action: dict) -> str:
        return log_words(registry.get(self.SLUG), self.state, action, self.names)


ACTION_DEPTH = 20  # far deeper than any game's action: every check of one recurses this deep at most


def json_action(post) -> dict:
    """The action a TurnSteps button posted, or {} when the form holds none or one nested deeper
    than any action (the engine refuses it). A text of thousands of "[" was a 500 (issue 41)."""
    try:
        action = json.loads(post.get("action", ""))
    except (ValueError, RecursionError):
        return {}
    return action if isinstance(action, dict) and _nested_at_most(action, ACTION_DEPTH) else {}


def _nested_at_most(value, depth: int) -> bool:
    """Whether a JSON value nests `depth` levels at most; level by level, without recursing."""
    level = [value]
    while level:
        if depth == 0:
            return False
        depth -= 1
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
        ]
    return True


def log_words(engine, state: dict, action: dict, names: list[str]) -> str:
    """What the log will say of `action`, or "" when the engine refuses it (the page says why)."""
    try:
        return base.describe(engine, state, action, names)
    except base.ActionError:
        return ""
