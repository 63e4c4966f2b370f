"""Screen helpers every game shares: the scoreboard rows and the result's sentences."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import and_join


@dataclass
class Viewer:
    """Who is looking at a table page and what they asked for, as the screens need it."""

    can_edit: bool = False
    seat: int | None = None  # the seat this phone said is its own (games with a sheet per seat)
    query: dict = field(default_factory=dict)  # GET parameters: a step-by-step choice in progress
    posted: dict = field(default_factory=dict)  # a refused entry's form, to keep its picks
    log: list = field(default_factory=list)  # (seq, action) of the newest live entries, newest first


# Every key templates/tables/_option.html reads, so that each game's step options carry them all.
OPTION_KEYS = {
    "label": "",
    "detail": "",
    "hint": "",
    "disabled": "",
    "fields": None,
    "href": "",
    "summary": "",
}


def choice(option: dict) -> dict:
    """One option of a step-by-step entry (a link to the next step, a button that posts the whole
    entry, or a greyed one with its reason), with every key the option partial reads."""
    return {**OPTION_KEYS, **option}


def scoreboard(data: dict, notes: dict[int, str] | None = None) -> list[dict]:
    notes = notes or {}
    totals = [score["total"] for score in data["scores"]]
    top = max(totals) if totals else None
    leaders = sum(1 for total in totals if total == top)
    return [
        {
            "seat": player["seat"],
            "name": player["name"],
            "total": totals[player["seat"]],
            # Only one player can "lead"; a tie at the top highlights nobody.
            "leading": top is not None and top > 0 and leaders == 1 and totals[player["seat"]] == top,
            "note": notes.get(player["seat"], ""),
        }
        for player in data["players"]
    ]


def result(
    data: dict,
    parts: list[tuple[str, str]],
    end_texts: dict[str, str],
    unit: tuple[str, str],
    tie_break: tuple[str, str] | None = None,
) -> dict:
    """The finished table: who won, why it ended, and each seat's breakdown in `parts` order.
    `unit` is the score's word for one and for many; `tie_break`, when the rules broke a tie on
    it, is the sentence that says how and the ruling's id, shown small after it (issue 15)."""
    if data["status"] != "finished":
        return {}
    names = [player["name"] for player in data["players"]]
    winners = data["winners"] or []
    best = data["scores"][winners[0]]["total"] if winners else 0
    winner_names = and_join([names[seat] for seat in winners])
    points = f"{best} {unit[0] if best == 1 else unit[1]}"
    if len(winners) == 1:
        winner_text = f"{winner_names} wins with {points}"
    else:
        winner_text = f"{winner_names} share the win with {points}"
    return {
        "winner_text": winner_text,
        "tie_break_text": tie_break[0] if tie_break else "",
        "tie_break_rule": tie_break[1] if tie_break else "",
        "end_text": end_texts.get(data["end_reason"], data["end_reason"] or ""),
        "breakdown_parts": [{"key": key, "label": label} for key, label in parts],
        # Many parts read better down the page than across a phone: one row per part then.
        "breakdown_by_part": len(parts) > 4,
        "breakdown_part_rows": [
            {"label": label, "values": [score["breakdown"].get(key, 0) for score in data["scores"]]}
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
