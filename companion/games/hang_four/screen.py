"""Hang Four screens: the three turn actions, the die, the Surf Shack and a purchase card by card.

As in 62 Summer Suns, an entry that takes several decisions is chosen one screen at a time, the
choices so far in the query string; the button of the last decision posts the whole action as JSON.
Which options exist is always the engine's answer (turn_options, buy_limit, placements, stealable).
"""

from __future__ import annotations

import copy

from companion.games import registry, screen_kit
from companion.games.base import name_seats
from companion.games.words import _, gettext_noop, ngettext

SHACK_CARDS = [
    {
        "slug": "seagull",
        "label": gettext_noop("Seagull"),
        "icon": "🐦",
        "what": gettext_noop("every opponent pays you the next roll"),
    },
    {
        "slug": "snag",
        "label": gettext_noop("Snag a Surfboard"),
        "icon": "🪝",
        "what": gettext_noop("steal boards from one opponent"),
    },
    {
        "slug": "wipeout",
        "label": gettext_noop("Wipe Out"),
        "icon": "🌊",
        "what": gettext_noop("lose your own loose boards"),
    },
]
CARD_LABELS = {card["slug"]: card["label"] for card in SHACK_CARDS}
PARTS = [
    {"slug": "character", "label": gettext_noop("Dog"), "icon": "🐶"},
    {"slug": "nose", "label": gettext_noop("Nose board"), "icon": "◧"},
    {"slug": "tail", "label": gettext_noop("Tail board"), "icon": "◨"},
]
PART_LABELS = {part["slug"]: part["label"] for part in PARTS}


def part_label(part: str) -> str:
    return _(PART_LABELS[part])


def card_label(card: str | None) -> str:
    return _(CARD_LABELS[card]) if card else ""


END_TEXTS = {
    "four_dogs": gettext_noop("Four complete Surf Dogs end the game at once."),
    "surf_deck_empty": gettext_noop(
        "The Surf deck ran out: most complete Surf Dogs, then most sand dollars."
    ),
}
# The total is the complete Surf Dogs (HF-14): the result shows it once, then the tie-break's money.
BREAKDOWN = [("dollars", gettext_noop("Sand dollars"))]
KEYS = ("do", "n", "c", "f", "t", "s")


def dogs_word(number: int) -> str:
    return ngettext("complete Surf Dog", "complete Surf Dogs", number)


def engine():
    return registry.get("hang-four")


def context(data: dict, viewer: screen_kit.Viewer) -> dict:
    state = data["state"]
    names = [player["name"] for player in data["players"]]
    notes = {
        i: f"${seat['dollars']}" + (_(" · must buy") if seat["must_buy"] else "")
        for i, seat in enumerate(state["seats"])
    }
    step = None
    if viewer.can_edit and state["phase"] != "over":
        query = {key: viewer.query[key] for key in KEYS if viewer.query.get(key) not in (None, "")}
        step = Steps(state, names, query).resolve()
    return {
        # The table's public facts the templates show, named here so they never read the state.
        **{key: data["state"][key] for key in ("bank", "phase", "shack_deck", "shack_discard", "surf_deck")},
        "scoreboard": screen_kit.scoreboard(data, notes),
        **screen_kit.result(
            data, BREAKDOWN, END_TEXTS, dogs_word, tie_break_words(state, names), _("Surf Dogs")
        ),
        "turn_name": names[state["turn"]],
        "step": step,
        "rows": [
            {
                "name": names[i],
                "seat": i,
                "dollars": seat["dollars"],
                "must_buy": seat["must_buy"],
                "turn": i == state["turn"] and state["phase"] != "over",
                "dogs": [dog_view(dog, n) for n, dog in enumerate(seat["dogs"], start=1)],
                "complete": seat["complete"],
            }
            for i, seat in enumerate(state["seats"])
        ],
        "card_label": card_label(state.get("shack_card")),
    }


def tie_break_words(state: dict, names: list[str]) -> tuple[str, str] | None:
    """When a tie on complete Surf Dogs was broken: "Ann and Cleo have as many: the most sand
    dollars wins the tie, $9 against Ann's $0 and Cleo's $5.", and its ruling."""
    settled = engine().tie_break(state)
    if settled is None:
        return None
    tied = settled["tied"]
    have = _("has") if len(tied) == 1 else _("have")
    others = screen_kit.and_join(
        [_("{name}'s ${dollars}").format(name=names[seat], dollars=dollars) for seat, dollars in tied.items()]
    )
    who = screen_kit.and_join([names[seat] for seat in tied])
    won = _("${dollars} against {others}").format(dollars=settled["dollars"], others=others)
    return _("{who} {have} as many: the most sand dollars wins the tie, {won}.").format(
        who=who, have=have, won=won
    ), "HF-12"


def dog_view(dog: dict, number: int) -> dict:
    complete = dog["character"] and dog["nose"] and dog["tail"]
    return {"number": number, **dog, "complete": complete}


class Steps(screen_kit.TurnSteps):
    """The current seat's next decision, from the choices made so far (the query)."""

    SLUG = "hang-four"
    KEYS = KEYS
    UNDO = tuple((key,) for key in reversed(KEYS))
    LIST_KEYS = frozenset({"c", "s"})

    def _step(self, query: dict) -> dict:
        phase = self.state["phase"]
        if phase == "shack_card":
            return self._shack_card()
        if phase == "shack_roll":
            return self._shack_roll(query)
        if query.get("do") == "roll":
            return {"name": "roll", "title": _("What did the die show?"), "options": self._roll_faces()}
        if query.get("do") == "buy":
            return self._buy(query)
        return self._turn()

    def _turn(self) -> dict:
        allowed = {
            action: name_seats(reason, self.names) if reason else None
            for action, reason in engine().turn_options(self.state).items()
        }
        # The roll is the common turn: its faces are on this screen, so a roll is one tap (issue 15).
        rolls = (
            [{"label": _("🎲 Roll the die"), "set": {"do": "roll"}, "disabled": allowed["roll"]}]
            if allowed["roll"]
            else [
                {
                    **option,
                    "says": _("{value} rolled {rolled}").format(
                        value=self.names[self.seat], rolled=rolled(option["action"]["face"])
                    ),
                }
                for option in self._roll_faces()
            ]
        )
        return {
            "name": "turn",
            "title": _("{value}'s turn: tap what the die showed, or buy").format(value=self.names[self.seat]),
            "options": [
                *rolls,
                {"label": _("🛒 Buy Surf cards · 3 each"), "set": {"do": "buy"}, "disabled": allowed["buy"]},
                {
                    "label": _("🛖 Surf Shack card · 2"),
                    "action": {"type": "buy_shack"},
                    "disabled": allowed["buy_shack"],
                },
            ],
        }

    def _roll_faces(self) -> list[dict]:
        """A roll's six faces, each posting the roll, with what it brings (HF-4)."""
        return [
            {**face_option(face, {"type": "roll", "face": face}), "hint": self._collect_hint(face)}
            for face in engine().faces
        ]

    def _shack_card(self) -> dict:
        left = self.state["shack_left"]
        reshuffle = self.state["shack_deck"] == 0
        return {
            "name": "shack_card",
            "title": _("Which Surf Shack card did {value} draw?").format(value=self.names[self.seat]),
            "note": _("The Shack deck is empty: shuffle the discard pile into a new deck first.")
            if reshuffle
            else "",
            "options": [
                {
                    "label": f"{card['icon']} {_(card['label'])}",
                    "detail": _(card["what"]),
                    "action": {"type": "shack", "card": card["slug"]},
                    "disabled": None
                    if reshuffle or left.get(card["slug"], 0) > 0
                    else _("All {label} cards are out of the Shack deck.").format(label=_(card["label"])),
                }
                for card in SHACK_CARDS
            ],
        }

    def _shack_roll(self, query: dict) -> dict:
        card = self.state["shack_card"]
        label = card_label(card)
        if card == "seagull":
            return {
                "name": "face",
                "title": _("{label}: roll again. Every opponent pays up to that").format(label=label),
                "options": [
                    {
                        **face_option(face, {"type": "shack_roll", "face": face}),
                        "hint": self._seagull_hint(face),
                    }
                    for face in engine().faces
                ],
            }
        face = query.get("f")
        if face not in {str(f) for f in engine().faces}:
            return {
                "name": "face",
                "title": _("{label}: roll again").format(label=label),
                "options": [
                    face_option(f, {"type": "shack_roll", "face": "shack"})
                    if f == "shack"
                    else {"label": str(f), "set": {"f": str(f)}, "face": True}
                    for f in engine().faces
                ],
            }
        face = int(face)
        if card == "snag":
            return self._snag(query, face)
        return self._wipeout(query, face)

    def _snag(self, query: dict, face: int) -> dict:
        opponents = [seat for seat in range(len(self.names)) if seat != self.seat]
        allowed = engine().snag_targets(self.state, face)  # HF-9: whoever holds `face` boards, if anyone
        target = query.get("t")
        if target not in {str(seat) for seat in allowed}:
            return {
                "name": "target",
                "title": _("Snag {face}: from whom?").format(face=face),
                "options": [
                    {
                        "label": ngettext(
                            "{name} · {loose} loose board", "{name} · {loose} loose boards", loose
                        ).format(name=self.names[seat], loose=loose),
                        "set": {"t": str(seat)},
                        "disabled": None if seat in allowed else self._snag_elsewhere(allowed, face),
                    }
                    for seat in opponents
                    for loose in [len(engine().stealable(self.state, seat))]
                ],
            }
        target = int(target)
        return self._pick_cards(
            query,
            face,
            owner=target,
            verb=_("Take"),
            action={"type": "shack_roll", "face": face, "target": target},
        )

    def _snag_elsewhere(self, allowed: list[int], face: int) -> str:
        who = screen_kit.and_join([self.names[seat] for seat in allowed])
        verb = _("holds") if len(allowed) == 1 else _("hold")
        source = _("one of them") if len(allowed) > 1 else who
        return _("{who} {verb} {face} or more, so the Snag takes {face} from {source} (HF-9).").format(
            who=who, verb=verb, face=face, source=source
        )

    def _wipeout(self, query: dict, face: int) -> dict:
        return self._pick_cards(
            query, face, owner=self.seat, verb=_("Wipe out"), action={"type": "shack_roll", "face": face}
        )

    def _pick_cards(self, query: dict, face: int, owner: int, verb: str, action: dict) -> dict:
        """Choose exactly take_count cards one at a time; a stolen card then chooses where it goes."""
        need = engine().take_count(self.state, face, owner)
        chosen = picks(query.get("s", ""), parse_pick)
        cards = [parse_pick(pick) for pick in chosen]
        stealing = owner != self.seat
        # A stolen card still waiting for its place on the roller's side.
        if stealing and cards and cards[-1]["to_dog"] == "?":
            return self._place_stolen(query, chosen, cards)
        if len(cards) >= need:
            return {"name": "done", "action": {**action, "cards": [finish(card) for card in cards]}}
        taken = {(card["dog"], card["part"]) for card in cards}
        available = [c for c in engine().stealable(self.state, owner) if (c["dog"], c["part"]) not in taken]
        if len(available) <= need - len(cards):
            # Every loose board left goes: nothing to choose, so nothing is asked (issue 30). A stolen
            # board still asks where it joins, when that is a choice.
            if not stealing:
                rest = [{"dog": c["dog"], "part": c["part"], "to_dog": ""} for c in available]
                return {
                    "name": "done",
                    "action": {**action, "cards": [finish(card) for card in cards + rest]},
                }
            head = available[0]
            return self._step({**query, "s": ",".join(chosen + [f"{head['dog']}.{head['part']}.?"])})
        whose = _("{name}'s").format(name=self.names[owner]) if stealing else _("your own")
        return {
            "name": "pick",
            "so_far": "; ".join(
                _("{part} of Surf Dog {number}").format(part=part_label(c["part"]), number=c["dog"] + 1)
                for c in cards
            ),
            "title": _("{verb} {need} of {whose} loose boards").format(verb=verb, need=need, whose=whose)
            if not cards
            else _("{verb} {number} more of {whose} loose boards ({need} in all)").format(
                verb=verb, number=need - len(cards), whose=whose, need=need
            ),
            "options": [
                {
                    "label": _("{value} of Surf Dog {number}").format(
                        value=part_label(c["part"]), number=c["dog"] + 1
                    ),
                    "set": {"s": ",".join(chosen + [f"{c['dog']}.{c['part']}.{'?' if stealing else ''}"])},
                }
                for c in available
            ],
        }

    def _place_stolen(self, query: dict, chosen: list[str], cards: list[dict]) -> dict:
        placed = cards[:-1]
        head = ",".join(chosen[:-1] + [f"{cards[-1]['dog']}.{cards[-1]['part']}."])
        return self._place(
            query, "s", head, placed, cards[-1]["part"], _("The stolen {part} joins which of your Surf Dogs?")
        )

    def _collect_hint(self, face) -> str:
        """What a number roll brings: the face, unless the cap or the bank stops it (HF-4)."""
        if face == "shack":
            return _("draw a card")
        return f"+{engine().collect(self.state, self.seat, face)[0]}"

    def _seagull_hint(self, face) -> str:
        """What the opponents pay in all for this face (HF-10): each at most what they hold."""
        if face == "shack":
            return _("nothing")
        seats = self.state["seats"]
        return f"+{sum(min(face, seat['dollars']) for i, seat in enumerate(seats) if i != self.seat)}"

    def _buy(self, query: dict) -> dict:
        limit = engine().buy_limit(self.state)
        count = query.get("n")
        if count not in {str(k) for k in range(1, limit + 1)}:
            return {
                "name": "count",
                "title": _("How many Surf cards? ({card_cost} sand dollars each)").format(
                    card_cost=engine().card_cost
                ),
                "options": [
                    {"label": f"{k} · ${engine().card_cost * k}", "set": {"n": str(k)}}
                    for k in range(1, limit + 1)
                ],
            }
        count = int(count)
        chosen = picks(query.get("c", ""), parse_buy)
        cards = [parse_buy(pick) for pick in chosen]
        if cards and cards[-1]["dog"] == "?":
            return self._place_bought(query, chosen, cards)
        if len(cards) >= count:
            return {"name": "done", "action": {"type": "buy", "cards": [finish_buy(card) for card in cards]}}
        picked = [c["part"] for c in cards]
        left = {part: n - picked.count(part) for part, n in self.state["surf_left"].items()}
        so_far = [f"{part_label(c['part'])} → {dog_name(c['dog'])}" for c in cards]
        return {
            "name": "part",
            "so_far": "; ".join(so_far),
            "title": _("Card {number} of {count}: what did you draw?").format(
                number=len(cards) + 1, count=count
            ),
            "options": [
                {
                    "label": f"{part['icon']} {_(part['label'])}",
                    "set": {"c": ",".join(chosen + [f"{part['slug']}.?"])},
                    "disabled": None
                    if left.get(part["slug"], 0) > 0
                    else _("No {lower} is left in the Surf deck.").format(lower=_(part["label"]).lower()),
                }
                for part in PARTS
            ],
        }

    def _place_bought(self, query: dict, chosen: list[str], cards: list[dict]) -> dict:
        placed = [{"part": c["part"], "to_dog": c["dog"]} for c in cards[:-1]]
        head = ",".join(chosen[:-1] + [f"{cards[-1]['part']}."])
        return self._place(query, "c", head, placed, cards[-1]["part"], _("The {part} joins which Surf Dog?"))

    def _place(self, query: dict, key: str, head: str, placed: list[dict], part: str, question: str) -> dict:
        """Where a new card goes (HF-7), given the cards of this entry already placed: asked only
        when several Surf Dogs could take it; otherwise taken without a question."""
        seat = self._preview_seat(placed)
        fits = engine().placements({**self.state, "seats": self._with_seat(seat)}, self.seat, part)
        if fits["must_join"] and len(fits["dogs"]) > 1:
            return {
                "name": "place",
                "title": question.format(part=part_label(part).lower()),
                "options": [
                    {"label": _("Surf Dog {number}").format(number=dog + 1), "set": {key: f"{head}{dog}"}}
                    for dog in fits["dogs"]
                ],
            }
        to_dog = fits["dogs"][0] if fits["must_join"] else "n"
        return self._step({**query, key: f"{head}{to_dog}"})

    def _preview_seat(self, placed: list[dict]) -> dict:
        """The current seat with the cards chosen so far already placed (a purchase is placed whole)."""
        seat = copy.deepcopy(self.state["seats"][self.seat])
        for card in placed:
            to_dog = None if card["to_dog"] in ("n", None) else int(card["to_dog"])
            seat = engine().place_card(seat, card["part"], to_dog)
        return seat

    def _with_seat(self, seat: dict) -> list[dict]:
        seats = list(self.state["seats"])
        seats[self.seat] = seat
        return seats


def dog_name(dog: str) -> str:
    """A chosen destination as people say it: Surf Dogs count from 1."""
    return _("a new Surf Dog") if dog == "n" else _("Surf Dog {number}").format(number=int(dog) + 1)


def rolled(face) -> str:
    return _("the Surf Shack") if face == "shack" else _("a {face}").format(face=face)


def face_option(face, action: dict) -> dict:
    label = "🛖" if face == "shack" else str(face)
    return {"label": label, "action": action, "face": True}


def picks(text: str, parse) -> list[str]:
    """The cards picked in a step's query that a page sets: well formed, and only the last one
    still waiting for its place ("?"). Others are left out, as a face that is not one."""
    found = [pick for pick in text.split(",") if parse(pick)]
    return [pick for index, pick in enumerate(found) if index == len(found) - 1 or not pick.endswith("?")]


def _place_mark(text: str) -> bool:
    """Where a picked card goes, as a step's query marks it: a Surf Dog's number, "n" (a new one),
    "?" (still asked) or "" (no question)."""
    return text in ("", "?", "n") or screen_kit.number(text) is not None


def parse_pick(pick: str) -> dict | None:
    """A board picked in a step's query ("2.nose.?"), or None for one no page sets: it is left out
    (int() of "", "²" or 5,000 digits, or a part of no card, was a 500: issue 41)."""
    dog, part, to_dog = (pick.split(".") + ["", ""])[:3]
    if screen_kit.number(dog) is None or part not in PART_LABELS or not _place_mark(to_dog):
        return None
    return {"dog": int(dog), "part": part, "to_dog": to_dog}


def finish(card: dict) -> dict:
    out = {"dog": card["dog"], "part": card["part"]}
    if card["to_dog"] != "":
        out["to_dog"] = None if card["to_dog"] == "n" else int(card["to_dog"])
    return out


def parse_buy(pick: str) -> dict | None:
    """A bought card in a step's query ("nose.n"), or None for one no page sets (left out)."""
    part, dog = (pick.split(".") + [""])[:2]
    if part not in PART_LABELS or not _place_mark(dog) or dog == "":
        return None
    return {"part": part, "dog": dog}


def finish_buy(card: dict) -> dict:
    return {"part": card["part"], "dog": None if card["dog"] == "n" else int(card["dog"])}


def action_from_form(post, data: dict) -> dict:
    """Every Hang Four button posts its whole action as JSON; the engine checks it."""
    return screen_kit.json_action(post)
