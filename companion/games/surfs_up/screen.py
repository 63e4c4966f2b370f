"""Surf's Up! screens: setup, the reveal, the story of a round, rewards, new ocean cards, the end.

Cards are entered as they are revealed (SU-2), tapped from a grid of faces (steps.py, issue 30).
The engine checks everything; this module only turns buttons into actions and back.
"""

from __future__ import annotations

from companion.games import registry, screen_kit
from companion.games.surfs_up import faces, hidden
from companion.games.surfs_up.steps import OceanSteps, RewardSteps, SetupSteps
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
STEPS = {"setup": SetupSteps, "reward": RewardSteps, "ocean": OceanSteps}


def engine():
    return registry.get("surfs-up")


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
        **screen_kit.result(data, breakdown(state), end_texts(state, names), points_word),
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
                # A surfer down to the rest card rests (SU-4): picked already, no tap (issue 30).
                "picked": viewer.posted.get(f"energy_{i}", "")
                or (str(seat["hand"][0]) if len(seat["hand"]) == 1 else ""),
            }
            for i, seat in enumerate(state["seats"])
        ]
    machine = STEPS.get(phase)
    if machine:
        context["step"] = machine(state, names, viewer.query).resolve()
    if phase == "reward":
        context["reward"] = reward_context(state, names)
    context["tokens"] = tokens_to_note(state, names, viewer.noted)
    if phase == "final":
        counts = engine().final_counts(state)
        context["final_rows"] = [
            {
                "seat": i,
                "name": names[i],
                "count": counts.get(i, 0),
                # The end asks only for the tokens nobody noted in secret (issue 30).
                "tokens": [k for k in range(counts.get(i, 0)) if k not in viewer.noted.get(i, [])],
                "noted": len([k for k in viewer.noted.get(i, []) if k < counts.get(i, 0)]),
                "total": data["scores"][i]["total"],  # before the goals and the stings: the preview's start
            }
            for i in range(len(names))
        ]
        context["final_asks_tokens"] = any(row["tokens"] for row in context["final_rows"])
        context["sting_values"] = hidden.choices()
        context["goals"] = state.get("goals") or []
    return context


def tokens_to_note(state: dict, names: list[str], noted: dict[int, list[int]]) -> dict:
    """The bluebottle tokens taken and not yet noted (each stung surfer taps its value on their own
    phone, in secret), and the surfers whose tokens are all noted (issue 30)."""
    if state["phase"] == "final":
        return {"open": [], "noted": ""}
    waiting, done = [], []
    for seat, count in hidden.slots(state).items():
        missing = [k for k in range(count) if k not in noted.get(seat, [])]
        if missing:
            waiting.append({"seat": seat, "name": names[seat], "index": missing[0], "number": missing[0] + 1})
        else:
            done.append(names[seat])
    return {"open": waiting, "noted": screen_kit.and_join(done), "values": hidden.choices()}


def breakdown(state: dict) -> list[tuple[str, str]]:
    """The result's parts: no "Goals" row when the table played without shared goals (issue 43)."""
    return [part for part in BREAKDOWN if part[0] != "goals" or shared_goals(state)]


def shared_goals(state: dict) -> bool:
    return bool(state.get("options", {}).get("shared_goals"))


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
    return {**card, "label": label, "detail": detail, "colour": faces.colour(card), "breakzone": breakzone}


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
            {"suit": suit, "colour": faces.suit_colour(suit), "points": pts}
            for suit, pts in waves_by_suit.items()
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


def reward_context(state: dict, names: list[str]) -> dict:
    """Whose reward it is, as the title says it (issue 30: named in view after every entry)."""
    seat = state["rewards"][0]
    return {
        "seat": seat,
        "name": names[seat],
        "role": _("winner") if (state.get("last") or {}).get("winner") == seat else _("runner-up"),
        "respect_now": state["seats"][seat]["respect"],
    }


# --- Posted forms -> actions --------------------------------------------------------------------


def action_from_form(post, data: dict) -> dict:
    """A step's button posts its whole action as JSON (the setup's goals are typed beside it); the
    reveal and the end are forms of one row per surfer."""
    kind = post.get("type", "")
    players = len(data["players"])
    if "action" in post:
        action = screen_kit.json_action(post)  # thousands of "[" were a 500 (issue 41)
        if not action:
            return {}
        if action.get("type") == "setup" and shared_goals(data["state"]):
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
    if kind == "final":
        final = {"type": "final", "stings": {}}
        noted = data.get("hidden_values", {})
        for seat in range(players):
            count = _int(post.get(f"stings_{seat}")) or 0
            kept = noted.get(seat, [])
            final["stings"][str(seat)] = [
                _int(post.get(f"sting_{seat}_{k}")) if post.get(f"sting_{seat}_{k}") else _kept(kept, k)
                for k in range(count)
            ]
        if post.get("goals_on"):
            final["goals"] = {
                str(seat): [g for g in range(3) if post.get(f"goal_{seat}_{g}")] for seat in range(players)
            }
        return final
    return {"type": kind}


def _kept(noted: list, index: int):
    """A token's value noted in secret, or None (the engine then says a value is missing)."""
    return noted[index] if index < len(noted) else None


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
