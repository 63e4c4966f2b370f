"""Dogo Dash screens: the reveal rows, the dash toggles, the card-counting panel."""

from __future__ import annotations

from companion.games.dogo_dash.rules import DECK, HAND_SIZE

from . import common

KINDS = [
    {"slug": "cat", "label": "Cat", "icon": "🐱"},
    {"slug": "dog", "label": "Dog", "icon": "🐶"},
    {"slug": "bear", "label": "Bear", "icon": "🐻"},
    {"slug": "cookie", "label": "Cookie", "icon": "🍪"},
    {"slug": "good_boy", "label": "Good boy", "icon": "😇"},
]
ICONS = {kind["slug"]: kind["icon"] for kind in KINDS}
LABELS = {kind["slug"]: kind["label"] for kind in KINDS}

BREAKDOWN = [("won", "Won"), ("split", "Split"), ("catnip", "Catnip"), ("dash", "Dash")]
END_TEXTS = {
    "last_round": "The last round has been played.",
    "no_cards": "The deck and every hand are empty.",
}


def context(data: dict) -> dict:
    state, expect = data["state"], data["expect"]
    names = [player["name"] for player in data["players"]]
    unseen = {slug: DECK[slug] - state["seen"][slug] for slug in DECK}
    notes = {i: f"{seat['hand']} in hand" for i, seat in enumerate(state["seats"])}
    return {
        "scoreboard": common.scoreboard(data, notes),
        **common.result(data, BREAKDOWN, END_TEXTS, "cards"),
        "kinds": [{**kind, "unseen": unseen[kind["slug"]]} for kind in KINDS],
        "rows": [
            {"seat": seat, "name": names[seat], "can_catnip": seat in expect.get("catnip", [])}
            for seat in expect["seats"]
        ],
        "counting": [
            {**kind, "seen": state["seen"][kind["slug"]], "total": DECK[kind["slug"]]} for kind in KINDS
        ],
        "last": _last(state, names),
        "winner_name": names[state["winner"]] if state.get("winner") is not None else "",
        "hand_size": HAND_SIZE,
    }


def _last(state: dict, names: list[str]) -> dict | None:
    """The most recent reveal, for the "what just happened" strip above the prompt."""
    last = state.get("last")
    if not last:
        return None
    return {
        **last,
        "shown": [
            {
                "name": names[int(seat)],
                "icon": ICONS[kind],
                "label": LABELS[kind],
                "best": int(seat) in last["seats"],
            }
            for seat, kind in last["cards"].items()
        ],
        "catnip_names": [names[seat] for seat in last["catnip"]],
        "winner_names": common.and_join([names[seat] for seat in last["seats"]]),
    }


def action_from_form(post, data: dict) -> dict:
    """Turn the posted buttons into an action; the engine decides whether it is legal."""
    expect = data["expect"]
    if "collect" in expect["actions"]:
        return {
            "type": "collect",
            "dogo_dash": [seat for seat in expect["seats"] if post.get(f"dash_{seat}")],
        }
    cards, catnip = {}, []
    for seat in expect["seats"]:
        choice = post.get(f"card_{seat}", "")
        if choice == "catnip":
            catnip.append(seat)
        elif choice:
            cards[str(seat)] = choice
    action = {"type": "reveal", "cards": cards}
    if catnip:
        action["catnip"] = catnip
    return action
