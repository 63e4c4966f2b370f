"""Hang Four rules (seeds/000_26bcf380f71a67ec.txt, rulings HF-1..HF-14 in RULINGS.md).

Surf dogs and sand dollars. On a turn the seat in `turn` does exactly one thing (HF-13):

- `roll` a number: collect from the bank, capped at 9 and limited by the bank (HF-4); the turn ends.
- `roll` the Surf Shack icon, or `buy_shack` (pay 2): the Shack card drawn arrives as `shack`
  (HF-5), then its second roll as `shack_roll`: Seagull (every opponent pays, HF-10), Snag a
  Surfboard (take boards from one opponent, HF-9) or Wipe Out (lose own boards, HF-9).
- `buy` k Surf deck cards for 3k (HF-11), each placed where it fits (HF-7).

Phases: "turn" -> ("shack_card" -> "shack_roll") -> the next seat's "turn", or "over" (HF-12).

The engine never shuffles: the cards drawn are named by the actions, and the state counts what
is left of each kind in both decks so that nothing can be drawn twice. A seat's Surf Dogs are a
list (HF-14); every index in an action is 0-based, and every index in a `shack_roll`'s `cards`
names the owner's dogs as they were BEFORE the action (dogs emptied by it are removed at the end).
The numbers (deck lists, die faces, 30 sand dollars, cap 9, costs 3 and 2, four dogs) are data in
components.json, checked at import.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

from companion.games.words import _, gettext_noop, ngettext

from ..base import (
    BadAction,
    Rolled,
    RuleViolation,
    and_join,
    check_players,
    check_seat,
    check_turn,
    checked,
    declared_fields,
    fresh_copy,
    game_over_text,
    is_int,
    read_components,
    require,
    shown,
)
from ..turns import Phase, Said, Turned, Turns

PARTS = ("character", "nose", "tail")  # HF-6: a Surf Dog is at most one of each
BOARDS = ("nose", "tail")  # HF-8: the only cards a Snag or a Wipe Out can touch
SHACK_CARDS = ("seagull", "snag", "wipeout")
CARD_NAMES = {
    "seagull": gettext_noop("Seagull"),
    "snag": gettext_noop("Snag a Surfboard"),
    "wipeout": gettext_noop("Wipe Out"),
}
CARD_SHORT = {
    "seagull": gettext_noop("the Seagull"),
    "snag": gettext_noop("the Snag"),
    "wipeout": gettext_noop("the Wipe Out"),
}
CARD_BARE = {
    "seagull": gettext_noop("Seagull"),
    "snag": gettext_noop("Snag"),
    "wipeout": gettext_noop("Wipe Out"),
}
SHACK_FACE = "shack"
COMPONENT_KEYS = (
    "surf_deck",
    "shack_deck",
    "sand_dollars",
    "die",
    "start_dollars",
    "cap",
    "card_cost",
    "shack_cost",
    "dogs_to_win",
)
MAX_PLAYERS = 4  # HF-1

COMPONENTS_FILE = Path(__file__).with_name("components.json")


def load_components(path: Path) -> dict:
    """The components from `path` (HF-2 defaults); a broken file raises ValueError naming the problem."""
    data, where = read_components(path, "Hang Four", COMPONENT_KEYS)

    def counts(key: str, kinds: tuple[str, ...]) -> dict[str, int]:
        value = data[key]
        if not isinstance(value, dict) or set(value) != set(kinds):
            raise ValueError(f"{where}: '{key}' must count exactly {', '.join(kinds)}.")
        if not all(is_int(n) and n >= 0 for n in value.values()):
            raise ValueError(f"{where}: every count in '{key}' must be a whole number >= 0.")
        return {kind: value[kind] for kind in kinds}

    def number(key: str, least: int) -> int:
        value = data[key]
        if not is_int(value) or value < least:
            raise ValueError(f"{where}: '{key}' must be a whole number >= {least}.")
        return value

    surf = counts("surf_deck", PARTS)
    shack = counts("shack_deck", SHACK_CARDS)
    if surf["character"] < MAX_PLAYERS:
        raise ValueError(f"{where}: the Surf deck needs at least {MAX_PLAYERS} characters to deal (HF-3).")
    if sum(shack.values()) < 1:
        raise ValueError(f"{where}: the Shack deck needs at least one card.")
    die = data["die"]
    faces_ok = isinstance(die, list) and all((is_int(f) and f >= 1) or f == SHACK_FACE for f in die)
    if not faces_ok or len(set(die)) != len(die) or SHACK_FACE not in die or len(die) < 2:
        raise ValueError(
            f"{where}: 'die' must list distinct whole numbers >= 1 and "
            '"shack", e.g. [1, 2, 3, 4, 5, "shack"].'
        )
    components = {
        "surf_deck": surf,
        "shack_deck": shack,
        "sand_dollars": number("sand_dollars", 0),
        "die": list(die),
        "start_dollars": number("start_dollars", 0),
        "cap": number("cap", 1),
        "card_cost": number("card_cost", 1),
        "shack_cost": number("shack_cost", 1),
        "dogs_to_win": number("dogs_to_win", 1),
    }
    if components["start_dollars"] * MAX_PLAYERS > components["sand_dollars"]:
        raise ValueError(
            f"{where}: {MAX_PLAYERS} seats of {components['start_dollars']} sand dollars need more "
            f"than the {components['sand_dollars']} there are (HF-3)."
        )
    return components


COMPONENTS = load_components(COMPONENTS_FILE)
SURF = COMPONENTS["surf_deck"]
SHACK = COMPONENTS["shack_deck"]
SURF_TOTAL = sum(SURF.values())
SHACK_TOTAL = sum(SHACK.values())
DOLLARS = COMPONENTS["sand_dollars"]
FACES = tuple(COMPONENTS["die"])
NUMBERS = tuple(face for face in FACES if face != SHACK_FACE)
START = COMPONENTS["start_dollars"]
CAP = COMPONENTS["cap"]
CARD_COST = COMPONENTS["card_cost"]
SHACK_COST = COMPONENTS["shack_cost"]
TO_WIN = COMPONENTS["dogs_to_win"]


# ---------------------------------------------------------------------------------------------
# Helpers


def complete(dog: dict) -> bool:
    return all(dog[part] for part in PARTS)


def count_complete(dogs: list[dict]) -> int:
    return sum(complete(dog) for dog in dogs)


def fitting(dogs: list[dict], part: str) -> list[int]:
    """HF-7: the incomplete Surf Dogs that lack `part` (a card must join one of them)."""
    return [i for i, dog in enumerate(dogs) if not complete(dog) and not dog[part]]


def boards(dogs: list[dict]) -> list[dict]:
    """HF-8: the nose and tail cards of incomplete Surf Dogs, as {"dog", "part"}."""
    return [
        {"dog": i, "part": part}
        for i, dog in enumerate(dogs)
        if not complete(dog)
        for part in BOARDS
        if dog[part]
    ]


def dogs_held(n: int, owner: str = "there") -> str:
    """'there is only 1 Surf Dog', 'Seat 1 has 2 Surf Dogs', 'you have no Surf Dog'."""
    if owner == "there":
        if n == 0:
            return _("there is no Surf Dog")
        return ngettext("there is only {count} Surf Dog", "there are only {count} Surf Dogs", n).format(
            count=n
        )
    if owner == _("you"):
        if n == 0:
            return _("you have no Surf Dog")
        return ngettext("you have only {count} Surf Dog", "you have only {count} Surf Dogs", n).format(
            count=n
        )
    if n == 0:
        return _("{owner} has no Surf Dog").format(owner=owner)
    said = ngettext("{owner} has only {count} Surf Dog", "{owner} has only {count} Surf Dogs", n)
    return said.format(owner=owner, count=n)


PART_WORDS = {
    "character": gettext_noop("character"),
    "nose": gettext_noop("nose"),
    "tail": gettext_noop("tail"),
}


def part_word(part: str) -> str:
    """A Surf card's part as a sentence says it ("a nose card")."""
    return _(PART_WORDS[part]) if part in PART_WORDS else part


def dog_numbers(indexes: list[int]) -> str:
    return _("Surf Dog {numbers}").format(numbers=and_join([str(i + 1) for i in indexes], "or"))


def place_card(seat_state: dict, part: str, dog: int | None) -> dict:
    """HF-7: a new seat state with a `part` card placed on its Surf Dog `dog` (None: a new Surf Dog,
    appended). Refuses a new dog while an incomplete dog lacks the part, and a dog that does not
    exist, is complete or already has the part. The input is left unchanged."""
    require(
        part in PARTS,
        lambda: _("A card's part must be one of {join}, not {shown}.").format(
            join=", ".join(PARTS), shown=shown(part)
        ),
        "bad_part",
    )
    require(
        dog is None or (is_int(dog) and dog >= 0),
        lambda: _("A Surf Dog index must be a whole number from 0, or null, not {shown}.").format(
            shown=shown(dog)
        ),
    )
    seat = copy.deepcopy(seat_state)
    dogs = seat["dogs"]
    fits = fitting(dogs, part)
    if dog is None:
        if fits:
            where = dog_numbers(fits)
            lack = _("lacks") if len(fits) == 1 else _("lack")
            raise RuleViolation(
                "must_join",
                _("The {part} must join {where}, which {lack} one: no new Surf Dog (HF-7).").format(
                    part=part_word(part), where=where, lack=lack
                ),
                "HF-7",
            )
        dogs.append({p: p == part for p in PARTS})
    else:
        if dog >= len(dogs):
            raise RuleViolation(
                "no_such_dog",
                _("The {part} cannot join Surf Dog {number}: {dogs_held} (HF-7).").format(
                    part=part_word(part), number=dog + 1, dogs_held=dogs_held(len(dogs))
                ),
                "HF-7",
            )
        if complete(dogs[dog]):
            raise RuleViolation(
                "dog_complete",
                _("The {part} cannot join Surf Dog {number}: it is complete (HF-7).").format(
                    part=part_word(part), number=dog + 1
                ),
                "HF-7",
            )
        if dogs[dog][part]:
            raise RuleViolation(
                "part_taken",
                _("The {part} cannot join Surf Dog {number}: it already has a {part} (HF-7).").format(
                    part=part_word(part), number=dog + 1
                ),
                "HF-7",
            )
        dogs[dog][part] = True
    seat["complete"] = count_complete(dogs)
    return seat


def numbered(error: RuleViolation, n: int, of: int, what: str) -> RuleViolation:
    """The same refusal, saying which card of a list it is about (when there are several)."""
    if of == 1:
        return error
    message = error.message[0].lower() + error.message[1:]
    return RuleViolation(
        error.code,
        _("{what} {n} of {of}: {message}").format(what=_(what), n=n, of=of, message=message),
        error.rule,
    )


def parse_face(value) -> int | str:
    ok = value == SHACK_FACE if isinstance(value, str) else is_int(value) and value in NUMBERS
    require(
        ok,
        lambda: _("'face' must be one of {choices}, not {shown}.").format(
            choices=", ".join(str(n) for n in NUMBERS) + _(' or "shack"'), shown=shown(value)
        ),
        "bad_face",
    )
    return value


def parse_card_list(value, keys: set[str], required: tuple[str, ...], example: str) -> list[dict]:
    """A list of card objects with only `keys`, `required` among them; JSON null counts as absent."""
    require(
        isinstance(value, list) and all(isinstance(card, dict) for card in value),
        lambda: _("'cards' must be a list of objects, e.g. [{example}].").format(example=_(example)),
    )
    return [parse_card(n, card, keys, required) for n, card in enumerate(value, 1)]


def parse_card(n: int, card: dict, keys: set[str], required: tuple[str, ...]) -> dict:
    """Card `n` of a list (parse_card_list), with every one of `keys` (None when absent)."""
    extra = sorted(set(card) - keys)
    require(
        not extra,
        lambda: _("Card {n} has no field {unknown} (use {known}).").format(
            n=n, unknown=", ".join(map(shown, extra)), known=", ".join(sorted(keys))
        ),
    )
    for key in required:
        if key not in card:
            raise BadAction("bad_action", _("Card {n} needs '{key}'.").format(n=n, key=key))
    part = card.get("part")
    require(
        isinstance(part, str) and part in PARTS,
        lambda: _("Card {n}: 'part' must be one of {join}, not {shown}.").format(
            n=n, join=", ".join(PARTS), shown=shown(part)
        ),
        "bad_part",
    )
    for key in ("dog", "to_dog"):
        index = card.get(key)
        if key not in keys or (index is None and key not in required) or (is_int(index) and index >= 0):
            continue
        if key in required:
            message = _("Card {n}: '{key}' must be a Surf Dog index (0 for the first), not {shown}.")
        else:
            message = _("Card {n}: '{key}' must be a Surf Dog index (0 for the first) or null, not {shown}.")
        raise BadAction("bad_action", message.format(n=n, key=key, shown=shown(index)))
    return {key: card.get(key) for key in sorted(keys)}


def check_seat_shape(value) -> None:
    require(is_int(value), lambda: _("'seat' must be a seat number, not {shown}.").format(shown=shown(value)))


def check_target(value) -> None:
    require(
        is_int(value), lambda: _("'target' must be a seat number, not {shown}.").format(shown=shown(value))
    )


def check_shack_card(value) -> None:
    require(
        isinstance(value, str) and value in SHACK_CARDS,
        lambda: _("'card' must be one of {join}, not {shown}.").format(
            join=", ".join(SHACK_CARDS), shown=shown(value)
        ),
        "bad_card",
    )


STOLEN_KEYS, BOUGHT_KEYS = {"dog", "part", "to_dog"}, {"part", "dog"}


def read_cards(value, keys: set[str]) -> list[dict]:
    """A checked list of cards (parse_card_list), each with every one of `keys` (None when absent)."""
    return [{key: card.get(key) for key in sorted(keys)} for card in value or []]


def check_stolen(value) -> None:
    parse_card_list(
        value, STOLEN_KEYS, ("dog", "part"), gettext_noop('{"dog": 0, "part": "nose", "to_dog": null}')
    )


def check_bought(value) -> None:
    parse_card_list(value, BOUGHT_KEYS, ("part",), gettext_noop('{"part": "nose", "dog": 0}'))


SEAT = checked(check_seat_shape, required=False)
# The actions' shapes, checked by base.play before apply: a 400 with the sentence of the check.
SHAPES = {
    "roll": {
        "seat": SEAT,
        "face": checked(parse_face, missing=gettext_noop("A roll needs 'face': 1 to 5 or \"shack\".")),
    },
    "shack": {"seat": SEAT, "card": checked(check_shack_card, judges_null=True)},
    "shack_roll": {
        "seat": SEAT,
        "face": checked(parse_face, missing=gettext_noop("A shack_roll needs 'face': 1 to 5 or \"shack\".")),
        "target": checked(check_target, required=False),
        "cards": checked(check_stolen, required=False),
    },
    "buy": {
        "seat": SEAT,
        "cards": checked(
            check_bought,
            missing=gettext_noop("A buy needs 'cards': the cards drawn, each with its part and dog."),
        ),
    },
    "buy_shack": {"seat": SEAT},
}


# ---------------------------------------------------------------------------------------------
# The engine


def taken_card_refusal(
    dogs: list, dog: int, part: str, whose: str, holder: str, seen: set
) -> RuleViolation | None:
    """HF-8, HF-9 for one card a Snag or a Wipe Out names: why it cannot be taken, or None."""
    if dog >= len(dogs):
        return RuleViolation(
            "no_such_dog",
            _("There is no Surf Dog {number}: {dogs_held} (HF-14).").format(
                number=dog + 1, dogs_held=dogs_held(len(dogs), holder)
            ),
            "HF-14",
        )
    if part == "character":
        return RuleViolation("protected", _("Characters are never stolen or wiped out (HF-8)."), "HF-8")
    if complete(dogs[dog]):
        return RuleViolation(
            "protected",
            _(
                "The {part} of {whose} Surf Dog {number} is protected: that Surf Dog is complete (HF-8)."
            ).format(part=part_word(part), whose=whose, number=dog + 1),
            "HF-8",
        )
    if not dogs[dog][part]:
        return RuleViolation(
            "no_such_card",
            _("{capitalize} Surf Dog {number} has no {part} (HF-8).").format(
                capitalize=whose.capitalize(), number=dog + 1, part=part_word(part)
            ),
            "HF-8",
        )
    if (dog, part) in seen:
        return RuleViolation(
            "listed_twice",
            _("The {part} of {whose} Surf Dog {number} is named twice (HF-9).").format(
                part=part_word(part), whose=whose, number=dog + 1
            ),
            "HF-9",
        )
    return None


def describe_roll(last: dict, who: str) -> str:
    """A roll of a number: what it collected, and the cap or the bank that held it back (HF-4)."""
    got, face = last["collected"], last["face"]
    gain = (
        _("nothing")
        if got == 0
        else ngettext("{count} sand dollar", "{count} sand dollars", got).format(count=got)
    )
    note = ""
    if last["limit"] == "cap":
        note = _(" ({CAP} is the cap)").format(CAP=CAP)
    elif last["limit"] == "bank":
        note = _(" (the bank is empty)") if got == 0 else _(" (the bank held only {got})").format(got=got)
    return _("{who} rolled a {face} and collects {gain}{note}.").format(
        who=who, face=face, gain=gain, note=note
    )


def describe_buy(last: dict, who: str) -> str:
    """A purchase of Surf cards: each card and the Surf Dog it went to (HF-11)."""
    bought = last["bought"]
    items = []
    for card in bought:
        where = _("a new Surf Dog") if card["new"] else _("Surf Dog {number}").format(number=card["dog"] + 1)
        items.append(
            _("a {part} for {where}").format(part=part_word(card["part"]), where=where)
            + (_(" (complete!)") if card["completed"] else "")
        )
    return _("{who} bought {plural} for {cost}: {and_join}.").format(
        who=who,
        plural=ngettext("{count} card", "{count} cards", len(bought)).format(count=len(bought)),
        cost=last["cost"],
        and_join=and_join(items),
    )


# What the seat in turn is told when it enters a Surf Shack card, or its roll, with none in play.
NO_SHACK_CARD = Said(
    "unexpected_action",
    gettext_noop(
        "No Surf Shack card is in play: it is Seat {turn}'s turn to roll, buy "
        "Surf deck cards or buy a Surf Shack card (HF-13)."
    ),
    "HF-13",
    lambda self, state, kind, seat: {"turn": state["turn"]},
)


class HangFour(Turned):
    slug = "hang-four"
    faces = FACES  # the custom die's faces (components.json): numbers and the Surf Shack
    card_cost = CARD_COST  # sand dollars per Surf card (HF-11)
    name = "Hang Four"  # a game's name is its own in every language
    min_players = 2
    max_players = MAX_PLAYERS
    options: dict = {}
    action_types = ("roll", "shack", "shack_roll", "buy", "buy_shack")
    action_shapes = SHAPES
    action_fields = declared_fields(SHAPES)
    end_rule = "HF-12"
    players_rule = "HF-1"

    # The turn structure (turns.py): the seat in turn rolls or buys (HF-13); a Surf Shack face or
    # a bought Shack card draws its card (HF-5), then rolls again for it, then the next seat's turn.
    _not_yours = Said(  # HF-N7: only the seat in turn acts, its Surf Shack card and second roll included
        "not_your_turn",
        gettext_noop("It is Seat {turn}'s turn, not Seat {seat}'s (HF-13)."),
        "HF-13",
        lambda self, state, kind, seat: {"turn": state["turn"], "seat": seat},
    )
    turns = Turns(
        phases={
            "turn": Phase(
                # Only what the seat in turn may do now (issue 31): a Seagull's must-buy or an empty
                # purse leaves out what apply refuses, and not_now says why.
                lambda self, state: [
                    kind for kind, refused in self.turn_refusals(state).items() if not refused
                ],
                seats=lambda self, state: [state["turn"]],
                not_now=lambda self, state, kind, seat: (
                    self.turn_refusals(state).get(kind) or NO_SHACK_CARD(self, state, kind, seat)
                ),
                not_yours=_not_yours,
                facts=lambda self, state: {"phase": "turn"},
                then=("turn", "shack_card", "over"),
            ),
            "shack_card": Phase(
                ("shack",),
                seats=lambda self, state: [state["turn"]],
                not_now=Said(
                    "unexpected_action",
                    gettext_noop("Draw the Surf Shack card first and enter which card came up (HF-5)."),
                    "HF-5",
                ),
                not_yours=_not_yours,
                facts=lambda self, state: {
                    "phase": "shack_card",
                    "drawable": self.shack_drawable(state),
                    "reshuffle": state["shack_deck"] == 0,
                },
                then=("shack_roll",),
            ),
            "shack_roll": Phase(
                ("shack_roll",),
                seats=lambda self, state: [state["turn"]],
                not_now=Said(
                    "unexpected_action",
                    gettext_noop(
                        "Roll the die again for {card} first: that roll decides what it does (HF-5)."
                    ),
                    "HF-5",
                    lambda self, state, kind, seat: {"card": _(CARD_NAMES[state["shack_card"]])},
                ),
                not_yours=_not_yours,
                facts=lambda self, state: {"phase": "shack_roll", "card": state["shack_card"]},
                then=("turn", "over"),
            ),
            "over": Phase(facts=lambda self, state: {"phase": "over"}),
        },
    )

    # --- setup and questions ----------------------------------------------------------------

    def setup(self, players: int, options: dict) -> dict:
        check_players(self, players)
        return {
            "turn": 0,  # HF-1: seat 0 starts
            "phase": "turn",
            "bank": DOLLARS - START * players,  # HF-3
            "surf_deck": SURF_TOTAL - players,
            "surf_left": {**SURF, "character": SURF["character"] - players},
            "shack_deck": SHACK_TOTAL,
            "shack_left": dict(SHACK),
            "shack_discard": 0,
            "shack_card": None,
            "shack_via": None,
            "out": 0,
            "end_reason": None,
            "winners": None,
            "last": None,
            "seats": [
                {
                    "dollars": START,
                    "dogs": [{"character": True, "nose": False, "tail": False}],
                    "complete": 0,
                    "must_buy": False,
                }
                for _ in range(players)
            ],
        }

    def rolled(self, state: dict, action: dict) -> Rolled | None:
        """The custom die's number, rolled by the seat whose turn it is (HF-1, HF-2); the Surf
        Shack is no number."""
        face = action.get("face") if action.get("type") == "roll" else None
        if not is_int(face):
            return None
        return Rolled(state["turn"], (face,), sum(NUMBERS) / len(NUMBERS))

    def scores(self, state: dict) -> list[dict]:
        return [
            {
                "seat": i,
                "total": seat["complete"],
                "breakdown": {"complete_dogs": seat["complete"], "dollars": seat["dollars"]},
            }
            for i, seat in enumerate(state["seats"])
        ]

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        return {"winners": list(state["winners"]), "end_reason": state["end_reason"]}

    # --- helpers for the pages (all pure) -----------------------------------------------------

    def turn_refusals(self, state: dict) -> dict[str, RuleViolation | None]:
        """The one source of what the seat in turn may do in a turn (issue 31): {"roll", "buy",
        "buy_shack"} -> None when allowed now, else its refusal (HF-10, HF-11). expect lists what
        is allowed, not_now refuses the rest with these, and the screen greys them with their words."""
        seat = state["seats"][state["turn"]]
        must_buy = self._must_buy_reason(seat)
        buy, shack = self._buy_reason(state, 1), self._shack_reason(state)
        return {
            "roll": RuleViolation("must_buy", must_buy, "HF-10") if must_buy else None,
            "buy": RuleViolation("cannot_buy", buy, "HF-11") if buy else None,
            "buy_shack": (
                RuleViolation("must_buy", must_buy, "HF-10")
                if must_buy
                else RuleViolation("cannot_afford", shack, "HF-11")
                if shack
                else None
            ),
        }

    def turn_options(self, state: dict) -> dict:
        """For the current seat: {"roll", "buy", "buy_shack"} -> None when allowed now, else the
        sentence the refusal would give (turn_refusals', in a turn)."""
        phase = state["phase"]
        if phase != "turn":
            if phase == "over":
                reason = game_over_text(self)
            else:
                reason = self.not_now(state, "roll").message
            return {"roll": reason, "buy": reason, "buy_shack": reason}
        return {kind: refusal and refusal.message for kind, refusal in self.turn_refusals(state).items()}

    def buy_limit(self, state: dict) -> int:
        """How many Surf deck cards the current seat can buy now: min(dollars // 3, Surf deck)."""
        if state["phase"] != "turn":
            return 0
        return min(state["seats"][state["turn"]]["dollars"] // CARD_COST, state["surf_deck"])

    def _seat(self, state: dict, seat) -> int:
        require(
            is_int(seat), lambda: _("A seat must be a seat number, not {shown}.").format(shown=shown(seat))
        )
        check_seat(self, state, seat)
        return seat

    def placements(self, state: dict, seat: int, part: str) -> dict:
        """HF-7 for a `part` card coming to `seat`: {"must_join": bool, "dogs": [indexes]}; with
        must_join the card joins one of `dogs`, else it starts a new Surf Dog. To preview a card of
        a purchase after earlier ones, apply them with place_card to a copy of the seat first."""
        require(
            part in PARTS,
            lambda: _("A card's part must be one of {join}, not {shown}.").format(
                join=", ".join(PARTS), shown=shown(part)
            ),
            "bad_part",
        )
        dogs = fitting(state["seats"][self._seat(state, seat)]["dogs"], part)
        return {"must_join": bool(dogs), "dogs": dogs}

    def place_card(self, seat_state: dict, part: str, dog: int | None) -> dict:
        """The seat state after placing one card (see the module function place_card)."""
        return place_card(seat_state, part, dog)

    def stealable(self, state: dict, seat: int) -> list[dict]:
        """HF-8: the cards a Snag can take from `seat` or a Wipe Out can cost it: [{"dog", "part"}]."""
        return boards(state["seats"][self._seat(state, seat)]["dogs"])

    def take_count(self, state: dict, face, owner: int) -> int:
        """HF-9: how many cards a Snag or a Wipe Out with `face` takes from `owner` (0 for the icon)."""
        if not is_int(face):
            return 0
        return min(face, len(self.stealable(state, owner)))

    def shack_drawable(self, state: dict) -> dict:
        """The Shack cards the next draw can show, by kind: what the Shack deck holds, or, when it
        is empty, the discard pile that is shuffled into a new deck at the draw (HF-5)."""
        if state["shack_deck"] > 0:
            return dict(state["shack_left"])
        held = {kind: SHACK[kind] - state["shack_left"][kind] for kind in SHACK_CARDS}
        if state["shack_card"]:
            held[state["shack_card"]] -= 1
        return held

    def collect(self, state: dict, seat: int, face: int) -> tuple[int, str | None]:
        """HF-4: what a number roll brings, min(face, cap - own, bank), never negative, and what
        stopped it short ("cap", "bank" or None)."""
        room = max(0, CAP - state["seats"][seat]["dollars"])
        collected = min(face, room, state["bank"])
        limit = None
        if collected < face:
            limit = _("cap") if room <= state["bank"] else _("bank")
        return collected, limit

    def snag_targets(self, state: dict, face: int) -> list[int]:
        """HF-9 (revised): the opponents a Snag rolling `face` may target. While some opponent holds
        at least `face` unprotected boards, only those; otherwise every opponent (HF-N4)."""
        turn, seats = state["turn"], state["seats"]
        opponents = [s for s in range(len(seats)) if s != turn]
        rich = [s for s in opponents if len(boards(seats[s]["dogs"])) >= face]
        return rich or opponents

    def _must_buy_reason(self, seat: dict) -> str | None:
        if not seat["must_buy"]:
            return None
        if seat["dollars"] > CAP:
            return _(
                "You hold {dollars} sand dollars after the Seagull: you must buy a card (HF-10)."
            ).format(dollars=seat["dollars"])
        return _(
            "The Seagull left you above {CAP} sand dollars: you must buy a card this turn (HF-10)."
        ).format(CAP=CAP)

    def _buy_reason(self, state: dict, k: int) -> str | None:
        turn = state["turn"]
        dollars = state["seats"][turn]["dollars"]
        if k < 1:
            return _("A purchase is at least one card (HF-11).")
        if state["surf_deck"] == 0:
            return _("The Surf deck is empty: there is nothing to buy (HF-11).")
        if k > state["surf_deck"]:
            held = ngettext("{count} card", "{count} cards", state["surf_deck"]).format(
                count=state["surf_deck"]
            )
            return _("The Surf deck holds {held}: Seat {turn} cannot buy {k} (HF-11).").format(
                held=held, turn=turn, k=k
            )
        if k * CARD_COST > dollars:
            cost = (
                _("A card costs {CARD_COST} sand dollars").format(CARD_COST=CARD_COST)
                if k == 1
                else _("{k} cards cost {number} sand dollars").format(k=k, number=k * CARD_COST)
            )
            return _("{cost}; Seat {turn} holds {dollars} (HF-11).").format(
                cost=cost, turn=turn, dollars=dollars
            )
        return None

    def _shack_reason(self, state: dict) -> str | None:
        turn = state["turn"]
        dollars = state["seats"][turn]["dollars"]
        if dollars < SHACK_COST:
            return _(
                "A Surf Shack card costs {SHACK_COST} sand dollars; Seat {turn} holds {dollars} (HF-11)."
            ).format(SHACK_COST=SHACK_COST, turn=turn, dollars=dollars)
        return None

    # --- actions ----------------------------------------------------------------------------

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)  # a refusal must leave the caller's state untouched
        kind = action["type"]  # base.play checked its shape: the one door into the engine
        seat = action.get("seat")  # base.play checked every field's shape (SHAPES)
        face, card, target = action.get("face"), action.get("card"), action.get("target")
        cards = read_cards(action.get("cards"), STOLEN_KEYS if kind == "shack_roll" else BOUGHT_KEYS)
        # The rules (RuleViolation): the shared checks (G-1), then this game's.
        check_turn(self, state, kind, seat)

        if kind == "roll":
            self._roll(state, face)
        elif kind == "buy_shack":
            self._buy_shack(state)
        elif kind == "shack":
            self._draw(state, card)
        elif kind == "shack_roll":
            self._shack_roll(state, face, target, cards)
        else:
            self._buy(state, cards)
        return state

    def _last(self, state: dict, kind: str, **details) -> dict:
        last = {
            "seat": state["turn"],
            "type": kind,
            "face": None,
            "collected": None,
            "limit": None,
            "paid": None,
            "card": None,
            "target": None,
            "stolen": None,
            "wiped": None,
            "removed": None,
            "bought": None,
            "cost": None,
            "completed": 0,
            "reshuffled": False,
            "must_buy": False,
            "lapsed": [],
        }
        last.update(details)
        state["last"] = last
        return last

    def _roll(self, state: dict, face) -> None:
        turn = state["turn"]
        seat = state["seats"][turn]  # check_turn refused a roll a Seagull's must-buy forbids (HF-10)
        if face == SHACK_FACE:
            state.update(phase="shack_card", shack_via="roll")
            self._last(state, "roll", face=face)
            return
        collected, limit = self.collect(state, state["turn"], face)
        seat["dollars"] += collected
        state["bank"] -= collected
        self._last(state, "roll", face=face, collected=collected, limit=limit)
        self._end_turn(state)

    def _buy_shack(self, state: dict) -> None:
        seat = state["seats"][state["turn"]]  # check_turn refused it when turn_refusals do
        seat["dollars"] -= SHACK_COST
        state["bank"] += SHACK_COST
        state.update(phase="shack_card", shack_via="buy")
        self._last(state, "buy_shack", cost=SHACK_COST)

    def _draw(self, state: dict, card: str) -> None:
        reshuffled = state["shack_deck"] == 0
        if reshuffled:  # HF-5: the discard pile becomes a new Shack deck, then the card is drawn
            state["shack_left"] = self.shack_drawable(state)
            state["shack_deck"] += state["shack_discard"]
            state["shack_discard"] = 0
        if SHACK[card] == 0:
            raise RuleViolation(
                "not_in_deck",
                _("This Shack deck has no {value} card at all (HF-2).").format(value=_(CARD_NAMES[card])),
                "HF-2",
            )
        if state["shack_left"][card] == 0:
            raise RuleViolation(
                "not_in_deck",
                _(
                    "The Shack deck holds no {value} card now: all {value2} are in the discard pile (HF-5)."
                ).format(value=_(CARD_NAMES[card]), value2=SHACK[card]),
                "HF-5",
            )
        state["shack_left"][card] -= 1
        state["shack_deck"] -= 1
        state.update(shack_card=card, phase="shack_roll")
        self._last(state, "shack", card=card, reshuffled=reshuffled)

    def _check_taken(self, state: dict, owner: int, cards: list[dict], face: int, card: str) -> list[dict]:
        """HF-8, HF-9: the named cards exist in `owner`'s dogs as they are now, are unprotected
        boards, are named once, and are exactly min(face, unprotected boards) many."""
        dogs = state["seats"][owner]["dogs"]
        whose = _("Seat {owner}'s").format(owner=owner) if owner != state["turn"] else _("your")
        holder = _("Seat {owner}").format(owner=owner) if owner != state["turn"] else _("you")
        seen = set()
        for n, pick in enumerate(cards, 1):
            refusal = taken_card_refusal(dogs, pick["dog"], pick["part"], whose, holder, seen)
            if refusal is not None:
                raise numbered(refusal, n, len(cards), gettext_noop("Card"))
            seen.add((pick["dog"], pick["part"]))
        available = len(boards(dogs))
        need = min(face, available)
        if len(cards) != need:
            verb = _("takes") if card == "snag" else _("discards")
            source = _("Seat {owner}'s").format(owner=owner) if card == "snag" else _("your")
            raise RuleViolation(
                "take_count",
                _(
                    "The {value} with a {face} {verb} exactly {need} of {source} {plural}, not {len} (HF-9)."
                ).format(
                    value=_(CARD_BARE[card]),
                    face=face,
                    verb=verb,
                    need=need,
                    source=source,
                    plural=ngettext(
                        "{count} unprotected board", "{count} unprotected boards", available
                    ).format(count=available),
                    len=len(cards),
                ),
                "HF-9",
            )
        return cards

    @staticmethod
    def _remove(dogs: list[dict], cards: list[dict]) -> tuple[list[dict], list[int]]:
        """The dogs without the named cards; dogs left with no card are removed (HF-14)."""
        dogs = copy.deepcopy(dogs)
        for pick in cards:
            dogs[pick["dog"]][pick["part"]] = False
        removed = [i for i, dog in enumerate(dogs) if not any(dog.values())]
        return [dog for dog in dogs if any(dog.values())], removed

    def _shack_roll(self, state: dict, face, target, cards: list[dict]) -> None:
        """The second roll of a drawn Shack card (HF-5, HF-9, HF-10), then the card is discarded."""
        turn, card = state["turn"], state["shack_card"]
        seats = state["seats"]
        if face == SHACK_FACE:
            if target is not None or cards:
                raise RuleViolation(
                    "nothing_happens",
                    _(
                        "The Surf Shack on the second roll means nothing happens (HF-5): no "
                        "target and no cards."
                    ),
                    "HF-5",
                )
            self._last(state, "shack_roll", face=face, card=card)
        elif card == "seagull":
            self._seagull(state, face, target, cards)
        elif card == "snag":
            self._snag(state, face, target, cards)
        else:
            self._wipeout(state, face, target, cards)
        # The Shack card is used: face up to the discard pile (HF-5).
        state["shack_discard"] += 1
        state.update(shack_card=None, shack_via=None)
        if seats[turn]["complete"] >= TO_WIN:  # HF-12: a Snag can bring the 4th complete dog
            self._finish(state, "four_dogs", [turn])
        else:
            self._end_turn(state)

    def _seagull(self, state: dict, face: int, target, cards: list[dict]) -> None:
        """HF-10: every opponent pays the roller the face in sand dollars, as far as they can."""
        turn, card, seats = state["turn"], state["shack_card"], state["seats"]
        if target is not None:
            raise RuleViolation(
                "no_target", _("The Seagull takes from every opponent: it has no target (HF-10)."), "HF-10"
            )
        if cards:
            raise RuleViolation("no_cards", _("The Seagull takes sand dollars, not cards (HF-10)."), "HF-10")
        paid, lapsed = {}, []
        for other in range(len(seats)):
            if other == turn:
                continue
            pay = min(face, seats[other]["dollars"])  # HF-10
            seats[other]["dollars"] -= pay
            seats[turn]["dollars"] += pay
            paid[str(other)] = pay
            # HF-N1: a seat that must buy but can no longer afford a card is let off.
            if seats[other]["must_buy"] and seats[other]["dollars"] < CARD_COST:
                seats[other]["must_buy"] = False
                lapsed.append(other)
        must = seats[turn]["dollars"] > CAP
        if must:
            seats[turn]["must_buy"] = True
        self._last(state, "shack_roll", face=face, card=card, paid=paid, must_buy=must, lapsed=lapsed)

    def _snag(self, state: dict, face: int, target, cards: list[dict]) -> None:
        """HF-9: the roller takes exactly `face` unprotected boards from an opponent who holds that many."""
        turn, card, seats = state["turn"], state["shack_card"], state["seats"]
        self._check_snag_target(state, face, target)
        self._check_taken(state, target, cards, face, card)
        roller = seats[turn]
        before = roller["complete"]
        stolen = []
        for n, pick in enumerate(cards, 1):
            try:
                roller = place_card(roller, pick["part"], pick["to_dog"])  # HF-7
            except RuleViolation as error:
                raise numbered(error, n, len(cards), gettext_noop("Card")) from None
            to_dog = pick["to_dog"] if pick["to_dog"] is not None else len(roller["dogs"]) - 1
            stolen.append(
                {
                    "dog": pick["dog"],
                    "part": pick["part"],
                    "to_dog": to_dog,
                    "new": pick["to_dog"] is None,
                    "completed": complete(roller["dogs"][to_dog]),
                }
            )
        seats[turn] = roller
        victim = seats[target]
        victim["dogs"], removed = self._remove(victim["dogs"], cards)
        victim["complete"] = count_complete(victim["dogs"])
        self._last(
            state,
            "shack_roll",
            face=face,
            card=card,
            target=target,
            stolen=stolen,
            removed=removed,
            completed=roller["complete"] - before,
        )

    def _check_snag_target(self, state: dict, face: int, target) -> None:
        """HF-9: the Snag names an opponent at this table who holds `face` unprotected boards or
        more when someone does."""
        turn, seats = state["turn"], state["seats"]
        if target is None:
            raise RuleViolation(
                "target_required",
                _("The Snag needs a target: the opponent whose boards are taken (HF-9)."),
                "HF-9",
            )
        if not 0 <= target < len(seats):
            raise RuleViolation(
                "unknown_seat",
                _(
                    "The Snag takes from an opponent at this table: there is no seat "
                    "{target} (seats are numbered 0 to {number}) (HF-9)."
                ).format(target=target, number=len(seats) - 1),
                "HF-9",
            )
        if target == turn:
            raise RuleViolation(
                "own_target", _("The Snag takes from an opponent, not from the roller (HF-9)."), "HF-9"
            )
        rich = self.snag_targets(state, face)
        if target not in rich:
            count = len(boards(seats[target]["dogs"]))
            held = ngettext("{count} unprotected board", "{count} unprotected boards", count).format(
                count=count
            )
            who = and_join([_("Seat {s}").format(s=s) for s in rich], "or")
            raise RuleViolation(
                "snag_target",
                _(
                    "Seat {target} holds {held}, but {who} holds {face} or more: with a "
                    "{face}, the Snag takes exactly {face} from an opponent who holds that "
                    "many (HF-9)."
                ).format(target=target, held=held, who=who, face=face),
                "HF-9",
            )

    def _wipeout(self, state: dict, face: int, target, cards: list[dict]) -> None:
        """HF-9: `face` of the roller's own unprotected boards leave the game."""
        turn, card, seats = state["turn"], state["shack_card"], state["seats"]
        if target is not None:
            raise RuleViolation(
                "no_target", _("The Wipe Out hits the roller's own boards: it has no target (HF-9)."), "HF-9"
            )
        if any(pick["to_dog"] is not None for pick in cards):
            raise RuleViolation(
                "no_to_dog", _("Wiped out cards leave the game: they join no Surf Dog (HF-9)."), "HF-9"
            )
        self._check_taken(state, turn, cards, face, card)
        roller = seats[turn]
        roller["dogs"], removed = self._remove(roller["dogs"], cards)
        roller["complete"] = count_complete(roller["dogs"])
        state["out"] += len(cards)  # HF-9: they leave the game
        wiped = [{"dog": pick["dog"], "part": pick["part"]} for pick in cards]
        self._last(state, "shack_roll", face=face, card=card, wiped=wiped, removed=removed)

    def _buy(self, state: dict, cards: list[dict]) -> None:
        turn = state["turn"]
        k = len(cards)
        reason = self._buy_reason(state, k)
        if reason:
            raise RuleViolation("buy_none" if k == 0 else "cannot_buy", reason, "HF-11")
        seat = state["seats"][turn]
        before = seat["complete"]
        left = dict(state["surf_left"])
        bought = []
        for n, pick in enumerate(cards, 1):
            part = pick["part"]
            if left[part] == 0:
                had = state["surf_left"][part]
                if had == 0:
                    message = _("The Surf deck holds no {part} card any more (HF-2).").format(
                        part=part_word(part)
                    )
                else:
                    held = ngettext("{count} {part} card", "{count} {part} cards", had).format(
                        count=had, part=part_word(part)
                    )
                    message = _("The Surf deck holds only {held}: this purchase names more (HF-2).").format(
                        held=held
                    )
                raise numbered(RuleViolation("not_in_deck", message, "HF-2"), n, k, gettext_noop("Card"))
            left[part] -= 1
            try:
                seat = place_card(seat, part, pick["dog"])  # HF-7, in list order
            except RuleViolation as error:
                raise numbered(error, n, k, gettext_noop("Card")) from None
            dog = pick["dog"] if pick["dog"] is not None else len(seat["dogs"]) - 1
            bought.append(
                {
                    "part": part,
                    "dog": dog,
                    "new": pick["dog"] is None,
                    "completed": complete(seat["dogs"][dog]),
                }
            )
        cost = k * CARD_COST
        seat["dollars"] -= cost  # HF-11: paid to the bank
        seat["must_buy"] = False  # HF-10: the purchase it owed
        state["seats"][turn] = seat
        state["bank"] += cost
        state["surf_left"] = left
        state["surf_deck"] -= k
        self._last(state, "buy", bought=bought, cost=cost, completed=seat["complete"] - before)
        if seat["complete"] >= TO_WIN:  # HF-12: the purchase is placed whole first
            self._finish(state, "four_dogs", [turn])
        else:
            self._end_turn(state)

    # --- end of a turn and of the game --------------------------------------------------------

    def _end_turn(self, state: dict) -> None:
        if state["surf_deck"] == 0:  # HF-12: the Surf deck is empty at the end of a turn
            seats = state["seats"]
            most = max(seat["complete"] for seat in seats)
            best = [i for i, seat in enumerate(seats) if seat["complete"] == most]
            richest = max(seats[i]["dollars"] for i in best)
            self._finish(state, "surf_deck_empty", [i for i in best if seats[i]["dollars"] == richest])
            return
        state.update(turn=(state["turn"] + 1) % len(state["seats"]), phase="turn")

    def _finish(self, state: dict, reason: str, winners: list[int]) -> None:
        state.update(phase="over", end_reason=reason, winners=winners)

    # --- log and random play ----------------------------------------------------------------

    def describe(self, state_before: dict, action: dict, after: dict, names: list[str]) -> str:

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat)

        last = after["last"]
        who = name(last["seat"])
        kind = last["type"]
        parts = []
        if kind == "roll" and last["face"] == SHACK_FACE:
            parts.append(_("{who} rolled the Surf Shack.").format(who=who))
        elif kind == "roll":
            parts.append(describe_roll(last, who))
        elif kind == "buy_shack":
            parts.append(
                _("{who} paid {cost} sand dollars for a Surf Shack card.").format(who=who, cost=last["cost"])
            )
        elif kind == "shack":
            if last["reshuffled"]:
                parts.append(_("The Shack discard pile is shuffled into a new Shack deck."))
            parts.append(_("{who} drew {value}.").format(who=who, value=_(CARD_NAMES[last["card"]])))
        elif kind == "shack_roll":
            parts.append(self._describe_shack_roll(state_before, after, name))
        else:
            parts.append(describe_buy(last, who))
        parts += self._describe_end(after, name)
        return " ".join(parts)

    def _describe_shack_roll(self, before: dict, after: dict, name) -> str:
        last = after["last"]
        who, card, face = name(last["seat"]), last["card"], last["face"]
        if face == SHACK_FACE:
            outcome = {
                "seagull": _("nothing is collected"),
                "snag": _("nothing is stolen"),
                "wipeout": _("the cards are safe"),
            }[card]
            return _("{who} rolled the Surf Shack for {value}: {outcome}.").format(
                who=who, value=_(CARD_SHORT[card]), outcome=outcome
            )
        head = _("{who} rolled {face} for {value}").format(who=who, face=face, value=_(CARD_SHORT[card]))
        if card == "seagull":
            pays = [
                _("{name} pays {value}").format(name=name(int(seat)), value=_("nothing") if n == 0 else n)
                for seat, n in last["paid"].items()
            ]
            text = f"{head}: {', '.join(pays)}."
            for seat in last["lapsed"]:
                text += _(" {name} can no longer afford a card and need not buy.").format(name=name(seat))
            if last["must_buy"]:
                text += _(" {who} holds {dollars} and must buy next turn.").format(
                    who=who, dollars=after["seats"][last["seat"]]["dollars"]
                )
            return text
        if card == "snag":
            victim = name(last["target"])
            if not last["stolen"]:
                return _("{head} against {victim}, who has no unprotected board: nothing is stolen.").format(
                    head=head, victim=victim
                )
            items = []
            for pick in last["stolen"]:
                where = (
                    _("a new Surf Dog")
                    if pick["new"]
                    else _("Surf Dog {number}").format(number=pick["to_dog"] + 1)
                )
                done = _(", complete!") if pick["completed"] else ""
                items.append(
                    _("the {part} of Surf Dog {number} (to {where}{done})").format(
                        part=part_word(pick["part"]), number=pick["dog"] + 1, where=where, done=done
                    )
                )
            return _("{head} and takes from {victim} {and_join}.").format(
                head=head, victim=victim, and_join=and_join(items)
            ) + self._gone(victim, last["removed"])
        if not last["wiped"]:
            return _("{head}, but has no unprotected board: nothing is lost.").format(head=head)
        items = [
            _("the {part} of Surf Dog {number}").format(part=part_word(pick["part"]), number=pick["dog"] + 1)
            for pick in last["wiped"]
        ]
        return _("{head} and loses {and_join}.").format(head=head, and_join=and_join(items)) + self._gone(
            who, last["removed"]
        )

    @staticmethod
    def _gone(owner: str, removed: list[int]) -> str:
        """HF-14: the Surf Dogs left with no card, numbered as they were before the action."""
        if not removed:
            return ""
        numbers = and_join([str(i + 1) for i in removed])
        dogs = _("Surf Dog") if len(removed) == 1 else _("Surf Dogs")
        verb = _("is") if len(removed) == 1 else _("are")
        return _(" {owner}'s {dogs} {numbers} {verb} left empty and removed.").format(
            owner=owner, dogs=dogs, numbers=numbers, verb=verb
        )

    def tie_break(self, state: dict) -> dict | None:
        """How HF-12 settled a game whose winner shares the most complete Surf Dogs: the winner's
        sand dollars and, seat by seat, those of the others tied on dogs. None when no tie was broken."""
        result = self.result(state)
        if not result or result["end_reason"] != "surf_deck_empty" or len(result["winners"]) != 1:
            return None
        winner, seats = result["winners"][0], state["seats"]
        tied = {
            i: seat["dollars"]
            for i, seat in enumerate(seats)
            if i != winner and seat["complete"] == seats[winner]["complete"]
        }
        return {"winner": winner, "dollars": seats[winner]["dollars"], "tied": tied} if tied else None

    def _describe_end(self, after: dict, name) -> list[str]:
        result = self.result(after)
        if not result:
            return []
        winners, seats = result["winners"], after["seats"]
        if result["end_reason"] == "four_dogs":
            return [
                _("{name} has {complete} complete Surf Dogs and wins!").format(
                    name=name(winners[0]), complete=seats[winners[0]]["complete"]
                )
            ]
        top = seats[winners[0]]
        dogs = ngettext("{count} complete Surf Dog", "{count} complete Surf Dogs", top["complete"]).format(
            count=top["complete"]
        )
        text = _("The Surf deck is empty: game over.")
        tied = [i for i, seat in enumerate(seats) if seat["complete"] == top["complete"]]
        if len(winners) > 1:
            who = and_join([name(s) for s in winners])
            return [
                text,
                _("{who} share the win with {dogs} and {plural} each.").format(
                    who=who,
                    dogs=dogs,
                    plural=ngettext("{count} sand dollar", "{count} sand dollars", top["dollars"]).format(
                        count=top["dollars"]
                    ),
                ),
            ]
        if len(tied) > 1:
            return [
                text,
                _("{name} wins with {dogs} and the most sand dollars ({dollars}).").format(
                    name=name(winners[0]), dogs=dogs, dollars=top["dollars"]
                ),
            ]
        return [text, _("{name} wins with {dogs}.").format(name=name(winners[0]), dogs=dogs)]

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        phase, turn = state["phase"], state["turn"]
        seats = state["seats"]
        if phase == "shack_card":
            drawable = self.shack_drawable(state)
            card = rng.choices(SHACK_CARDS, weights=[drawable[c] for c in SHACK_CARDS])[0]
            return {"type": "shack", "card": card}
        if phase == "shack_roll":
            face = rng.choice(FACES)
            card = state["shack_card"]
            if face == SHACK_FACE or card == "seagull":
                return {"type": "shack_roll", "face": face}
            if card == "wipeout":
                own = self.stealable(state, turn)
                picks = rng.sample(own, min(face, len(own)))
                return {"type": "shack_roll", "face": face, "cards": picks}
            targets = self.snag_targets(state, face)
            rich = [s for s in targets if self.stealable(state, s)]
            target = rng.choice(rich if rich and rng.random() < 0.9 else targets)
            owned = self.stealable(state, target)
            picks, roller = [], seats[turn]
            for pick in rng.sample(owned, min(face, len(owned))):
                fits = fitting(roller["dogs"], pick["part"])
                to_dog = rng.choice(fits) if fits else None
                roller = place_card(roller, pick["part"], to_dog)
                picks.append({**pick, "to_dog": to_dog})
            return {"type": "shack_roll", "face": face, "target": target, "cards": picks}
        # A turn. Buying whenever possible (mostly) drains the Surf deck so that random games end.
        limit = self.buy_limit(state)
        options = self.turn_options(state)
        if limit and (options["roll"] or rng.random() < 0.75):
            return {"type": "buy", "cards": self._sample_purchase(state, rng, rng.randint(1, limit))}
        if options["buy_shack"] is None and rng.random() < 0.15:
            return {"type": "buy_shack"}
        return {"type": "roll", "face": rng.choice(FACES)}

    def _sample_purchase(self, state: dict, rng: random.Random, k: int) -> list[dict]:
        left = dict(state["surf_left"])
        seat = state["seats"][state["turn"]]
        cards = []
        for _draw in range(k):
            part = rng.choices(PARTS, weights=[left[p] for p in PARTS])[0]
            left[part] -= 1
            fits = fitting(seat["dogs"], part)
            dog = rng.choice(fits) if fits else None
            seat = place_card(seat, part, dog)
            cards.append({"part": part, "dog": dog})
        return cards
