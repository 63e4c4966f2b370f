"""Surf's Up! screens: setup, the reveal, the story of a round, rewards, new ocean cards, the end.

Cards are entered as they are revealed (SU-2), so several screens hold a small card form: a wave
(suit, points), a bluebottle, a surfboard (suit, bonus, cost) or a temporary energy card (value,
cost). The engine checks everything; this module only turns buttons into actions and back.
"""

from __future__ import annotations

from companion.games import registry, screen_kit
from companion.games.base import name_seats
from companion.games.words import _, gettext_noop, ngettext

END_TEXTS = {
    "bluebottles": gettext_noop("The fifth bluebottle has been resolved."),
    "rest_card": gettext_noop("A surfer is down to the rest card alone."),
    "exhausted": gettext_noop("The ocean has no card left."),
}
BREAKDOWN = [
    ("waves", gettext_noop("Waves")),
    ("surfboards", gettext_noop("Boards")),
    ("goals", gettext_noop("Goals")),
    ("stings", gettext_noop("Stings")),
]
SUIT_COLOURS = {0: "orange", 1: "purple", 2: "blue"}


def engine():
    return registry.get("surfs-up")


def suits() -> list[str]:
    return list(engine().suits)


def end_texts(state: dict, names: list[str]) -> dict[str, str]:
    """Why the game ended; for the rest card, who is down to it (issue 15)."""
    down = [names[seat] for seat in engine().down_to_rest(state)]
    if not down:
        return END_TEXTS
    verb = _("is") if len(down) == 1 else _("are")
    return {
        **END_TEXTS,
        "rest_card": _("{and_join} {verb} down to the rest card alone (SU-10).").format(
            and_join=screen_kit.and_join(down), verb=verb
        ),
    }


CARD_FIELDS = ("kind", "suit", "points", "bonus", "cost", "value")


def card_picks(posted: dict) -> dict[str, dict]:
    """A refused entry's card choices, by field prefix ("card" -> {"suit": "blue", "points": "7"}),
    so every tap made stays made (issue 15: refusals keep the taps)."""
    picks: dict[str, dict] = {}
    for name, value in posted.items():
        prefix, _sep, field = name.rpartition("_")
        if prefix and field in CARD_FIELDS:
            picks.setdefault(prefix, {})[field] = value
    return picks


def context(data: dict, viewer: screen_kit.Viewer) -> dict:
    state = data["state"]
    names = [player["name"] for player in data["players"]]
    phase = state["phase"]
    notes = {
        i: f"{'●' * seat['respect']}{'○' * (4 - seat['respect'])}"
        + (f" · 🪼{seat['stings']}" if seat["stings"] else "")
        for i, seat in enumerate(state["seats"])
    }
    context = {
        # The table's public facts the templates show, named here so they never read the state.
        **{key: data["state"][key] for key in ("round", "bluebottles", "beach_deck", "ocean_deck")},
        "scoreboard": screen_kit.scoreboard(data, notes),
        "card_picks": card_picks(viewer.posted),
        **screen_kit.result(data, BREAKDOWN, end_texts(state, names), points_word),
        "suits": [{"name": name, "colour": suit_colour(name)} for name in suits()],
        "points": list(range(1, 11)),
        "bonuses": [1, 2, 3, 4, 5],
        "costs": [1, 2, 3, 4],
        "energy_values": list(range(1, 10)),
        "surf": [card_view(card, i == 0) for i, card in enumerate(state["surf"])],
        "beach": [card_view(card) if card else None for card in state["beach"]],
        "surfers": [surfer_view(names[i], seat) for i, seat in enumerate(state["seats"])],
        "story": story(state, names),
        "phase": phase,
        "shared_goals": shared_goals(state),
    }
    if phase == "reveal":
        context["rows"] = [
            {
                "seat": i,
                "name": names[i],
                "hand": [energy_view(card) for card in sorted_hand(seat["hand"])],
                "picked": viewer.posted.get(f"energy_{i}", ""),
            }
            for i, seat in enumerate(state["seats"])
        ]
    if phase == "reward":
        context["reward"] = reward_context(state, names, viewer)
    if phase == "final":
        counts = engine().final_counts(state)
        context["final_rows"] = [
            {"seat": i, "name": names[i], "tokens": list(range(counts.get(i, counts.get(str(i), 0))))}
            for i in range(len(names))
        ]
        context["sting_values"] = [0, -1, -2, -3]
        context["goals"] = state.get("goals") or []
    return context


def shared_goals(state: dict) -> bool:
    return bool(state.get("options", {}).get("shared_goals"))


def suit_colour(name: str) -> str:
    index = suits().index(name) if name in suits() else 0
    return SUIT_COLOURS.get(index, "orange")


def card_view(card: dict, breakzone: bool = False) -> dict:
    """A card as the page draws it: a label, a colour class, and where it sits."""
    kind = card.get("kind")
    if kind == "wave":
        label = f"🌊 {card['points']}"
        detail = _(card["suit"])
    elif kind == "bluebottle":
        label, detail = "🪼", _("bluebottle")
    elif kind == "surfboard":
        label = f"🏄 +{card['bonus']}"
        detail = _("{suit} · cost {cost}").format(suit=_(card["suit"]), cost=card["cost"])
    else:
        label = f"⚡ {card['value']}"
        detail = _("energy · cost {cost}").format(cost=card["cost"])
    colour = suit_colour(card["suit"]) if "suit" in card else kind
    return {**card, "label": label, "detail": detail, "colour": colour, "breakzone": breakzone}


def energy_view(card) -> dict:
    temporary = isinstance(card, str)
    value = int(card[1:]) if temporary else card
    return {"code": str(card), "value": value, "temporary": temporary}


def sorted_hand(hand: list) -> list:
    return sorted(
        hand, key=lambda card: (int(card[1:]) if isinstance(card, str) else card, isinstance(card, str))
    )


def surfer_view(name: str, seat: dict) -> dict:
    waves_by_suit = {}
    for wave in seat["waves"]:
        waves_by_suit.setdefault(wave["suit"], []).append(wave["points"])
    return {
        "name": name,
        "hand": [energy_view(card) for card in sorted_hand(seat["hand"])],
        "towel": [energy_view(card) for card in sorted_hand(seat["towel"])],
        "respect": seat["respect"],
        "respect_pips": [i < seat["respect"] for i in range(4)],
        "waves": [
            {"suit": suit, "colour": suit_colour(suit), "points": pts} for suit, pts in waves_by_suit.items()
        ],
        "surfboards": [card_view(card) for card in seat["surfboards"]],
        "stings": seat["stings"],
    }


def story(state: dict, names: list[str]) -> str:
    """The last round in a sentence or two, as the table would tell it."""
    last = state.get("last")
    if not last or not last.get("card"):
        return ""
    revealed = {int(seat): value for seat, value in last["revealed"].items()}
    parts = []
    if last["resting"]:
        parts.append(_("{and_names} rested.").format(and_names=and_names(last["resting"], names)))
    for group in last["wiped_out"]:
        seat = group[0]
        respect = state["seats"][seat]["respect"] if seat not in last["resting"] else None
        how = f" ({energy_text(revealed[seat])}" + (
            _(", respect {respect})").format(respect=respect) if respect is not None else ")"
        )
        parts.append(_("{and_names} wiped out{how}.").format(and_names=and_names(group, names), how=how))
    card = last["card"]
    if card["kind"] == "bluebottle":
        parts.append(
            _("{and_names} got stung by the bluebottle.").format(and_names=and_names(last["stung"], names))
            if last["stung"]
            else ""
        )
    elif last["winner"] is not None:
        won = _("{value} wins the {points} {suit} wave").format(
            value=names[last["winner"]], points=card["points"], suit=_(card["suit"])
        )
        runner = (
            _(", {value} is runner-up").format(value=names[last["runner_up"]])
            if last["runner_up"] is not None
            else ""
        )
        parts.append(won + runner + ".")
    else:
        parts.append(
            _("Nobody caught the {points} {suit} wave: it goes to the trash.").format(
                points=card["points"], suit=_(card["suit"])
            )
        )
    return _("Round {round}: ").format(round=last["round"]) + " ".join(part for part in parts if part)


def and_names(seats: list[int], names: list[str]) -> str:
    return screen_kit.and_join([names[seat] for seat in seats])


def energy_text(value) -> str:
    return _("{value} temporary").format(value=value[1:]) if isinstance(value, str) else str(value)


def reward_context(state: dict, names: list[str], viewer: screen_kit.Viewer) -> dict:
    options = engine().reward_options(state)
    seat = options["seat"]
    slot = viewer.query.get("buy")
    chosen = None
    if slot is not None and slot.isdigit():
        chosen = next((buy for buy in options["buy"] if buy["slot"] == int(slot) and not buy["reason"]), None)
    name_it = lambda reason: name_seats(reason, names) if reason else None  # noqa: E731
    return {
        "seat": seat,
        "name": names[seat],
        "role": _("winner") if (state.get("last") or {}).get("winner") == seat else _("runner-up"),
        "respect_now": state["seats"][seat]["respect"],
        "respect": name_it(options["respect"]),
        "pass": name_it(options["pass"]),
        "buys": [
            {
                "slot": buy["slot"],
                "card": card_view(buy["card"]) if buy["card"] else None,  # an emptied space (SU-N13)
                "reason": name_it(buy["reason"]),
            }
            for buy in options["buy"]
        ],
        "chosen": {"slot": chosen["slot"], "card": card_view(chosen["card"])} if chosen else None,
        "refill_needed": state["beach_deck"] > 0,
    }


# --- Posted forms -> actions --------------------------------------------------------------------


def card_from_form(post, prefix: str) -> dict | None:
    """The card entered in the fields named `prefix`_kind, _suit, _points, _bonus, _cost, _value."""
    kind = post.get(f"{prefix}_kind", "")
    number = lambda field: _int(post.get(f"{prefix}_{field}"))  # noqa: E731
    if kind == "wave":
        return {"kind": "wave", "suit": post.get(f"{prefix}_suit", ""), "points": number("points")}
    if kind == "bluebottle":
        return {"kind": "bluebottle"}
    if kind == "surfboard":
        return {
            "kind": "surfboard",
            "suit": post.get(f"{prefix}_suit", ""),
            "bonus": number("bonus"),
            "cost": number("cost"),
        }
    if kind == "energy":
        return {"kind": "energy", "value": number("value"), "cost": number("cost")}
    return None


def action_from_form(post, data: dict) -> dict:
    kind = post.get("type", "")
    players = len(data["players"])
    if kind == "setup":
        action = {
            "type": "setup",
            "surf": [card_from_form(post, f"surf{i}") for i in (1, 2, 3)],
            "beach": [card_from_form(post, f"beach{i}") for i in (1, 2, 3)],
        }
        if shared_goals(data["state"]):
            action["goals"] = [
                {"name": post.get(f"goal{i}_name", ""), "points": _int(post.get(f"goal{i}_points"))}
                for i in (1, 2, 3)
            ]
        return action
    if kind == "reveal":
        return {
            "type": "reveal",
            "energy": {str(seat): _energy(post.get(f"energy_{seat}")) for seat in range(players)},
        }
    if kind == "reward":
        action = {"type": "reward", "seat": _int(post.get("seat")), "choice": post.get("choice", "")}
        if action["choice"] == "buy":
            action["slot"] = _int(post.get("slot"))
            action["refill"] = card_from_form(post, "refill")
        return action
    if kind == "ocean":
        return {"type": "ocean", "card": card_from_form(post, "card")}
    if kind == "final":
        final = {"type": "final", "stings": {}}
        for seat in range(players):
            count = _int(post.get(f"stings_{seat}")) or 0
            final["stings"][str(seat)] = [_int(post.get(f"sting_{seat}_{k}")) for k in range(count)]
        if post.get("goals_on"):
            final["goals"] = {
                str(seat): [g for g in range(3) if post.get(f"goal_{seat}_{g}")] for seat in range(players)
            }
        return final
    return {"type": kind}


def _energy(raw):
    if raw is None or raw == "":
        return None
    return raw if raw.startswith("t") else _int(raw)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def points_word(number: int) -> str:
    return ngettext("point", "points", number)
