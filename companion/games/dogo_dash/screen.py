"""Dogo Dash screens: the reveal rows, the dash toggles, the card-counting panel."""

from __future__ import annotations

from companion.games import screen_kit
from companion.games.dogo_dash.rules import DECK, HAND_SIZE
from companion.games.words import _, gettext_noop, ngettext

KINDS = [
    {"slug": "cat", "label": gettext_noop("Cat"), "icon": "🐱"},
    {"slug": "dog", "label": gettext_noop("Dog"), "icon": "🐶"},
    {"slug": "bear", "label": gettext_noop("Bear"), "icon": "🐻"},
    {"slug": "cookie", "label": gettext_noop("Cookie"), "icon": "🍪"},
    {"slug": "good_boy", "label": gettext_noop("Good boy"), "icon": "😇"},
]
ICONS = {kind["slug"]: kind["icon"] for kind in KINDS}
LABELS = {kind["slug"]: kind["label"] for kind in KINDS}

BREAKDOWN = [
    ("won", gettext_noop("Won")),
    ("split", gettext_noop("Split")),
    ("catnip", gettext_noop("Catnip")),
    ("dash", gettext_noop("Dash")),
]
VARIANT_PARTS = {"catnip": "catnip", "dash": "dogo_dash"}  # breakdown part -> the option it needs


def breakdown_parts(options: dict) -> list[tuple[str, str]]:
    """The result table's columns: a variant's column only when the table plays that variant."""
    return [(key, label) for key, label in BREAKDOWN if options.get(VARIANT_PARTS.get(key), True)]


END_TEXTS = {
    "last_round": gettext_noop("The last round has been played."),
    "no_cards": gettext_noop("The deck and every hand are empty."),
}


def context(data: dict, viewer: screen_kit.Viewer) -> dict:
    """What the Dogo Dash templates show; a refused entry's picks stay on screen."""
    state, expect = data["state"], data["expect"]
    names = [player["name"] for player in data["players"]]
    unseen = {slug: DECK[slug] - state["seen"][slug] for slug in DECK}
    playing = data["status"] != "finished"
    notes = (
        {i: _("{hand} in hand").format(hand=seat["hand"]) for i, seat in enumerate(state["seats"])}
        if playing
        else {}
    )
    posted = viewer.posted
    return {
        # The table's public facts the templates show, named here so they never read the state.
        **{key: data["state"][key] for key in ("round", "deck", "pot", "last_round")},
        "scoreboard": screen_kit.scoreboard(data, notes),
        **screen_kit.result(data, breakdown_parts(state["options"]), END_TEXTS, cards_word),
        "kinds": [{**kind, "label": _(kind["label"]), "unseen": unseen[kind["slug"]]} for kind in KINDS],
        "rows": [
            {
                "seat": seat,
                "name": names[seat],
                "can_catnip": seat in expect.get("catnip", []),
                "picked": posted.get(f"card_{seat}", ""),
                "dashes": bool(posted.get(f"dash_{seat}")),
            }
            for seat in expect["seats"]
        ],
        "counting": [
            {
                **kind,
                "label": _(kind["label"]),
                "seen": state["seen"][kind["slug"]],
                "total": DECK[kind["slug"]],
            }
            for kind in KINDS
        ],
        "last": _last(state, names, collecting="collect" in expect["actions"]),
        "winner_name": names[state["winner"]] if state.get("winner") is not None else "",
        "hand_size": HAND_SIZE,
    }


def _last(state: dict, names: list[str], collecting: bool = False) -> dict | None:
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
                "label": _(LABELS[kind]),
                "best": int(seat) in last["seats"],
            }
            for seat, kind in last["cards"].items()
        ],
        "caption": _caption(last, names, collecting),
    }


def _caption(last: dict, names: list[str], collecting: bool) -> str:
    """One line that says what the chips below it decided."""
    who = screen_kit.and_join([names[seat] for seat in last["seats"]])
    catnip = screen_kit.and_join([names[seat] for seat in last["catnip"]])
    played_catnip = _(" ({catnip} played catnip)").format(catnip=catnip) if catnip else ""
    if last["outcome"] == "win" and collecting:
        return _("Round {round}: {who}'s {lower} wins the round{played_catnip}.").format(
            round=last["round"], who=who, lower=_(LABELS[last["kind"]]).lower(), played_catnip=played_catnip
        )
    if last["outcome"] == "win":
        kind = _(LABELS[last["kind"]]).lower()
        taken = _("the pot of {pot}").format(pot=last["pot"]) + (
            _(" and the Super Pot of {super_pot}").format(super_pot=last["super_pot"])
            if last["super_pot"]
            else ""
        )
        return _("Round {round}: {who}'s {kind} took {taken}{played_catnip}.").format(
            round=last["round"], who=who, kind=kind, taken=taken, played_catnip=played_catnip
        )
    if last["outcome"] == "tie":
        return _("Round {round}: {who} tied{played_catnip}.").format(
            round=last["round"], who=who, played_catnip=played_catnip
        )
    if last["outcome"] == "split":
        return _("Round {round}: {who} split the cards, {share} each{played_catnip}.").format(
            round=last["round"], who=who, share=last["share"], played_catnip=played_catnip
        )
    return _("Round {round}: nobody revealed{played_catnip}.").format(
        round=last["round"], played_catnip=played_catnip
    )


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


def cards_word(number: int) -> str:
    return ngettext("card", "cards", number)
