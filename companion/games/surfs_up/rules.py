"""Surf's Up! rules (seeds/001_053809cd730bd79f.txt, rulings SU-1..SU-13 in RULINGS.md).

A bidding game. Every round every seat reveals one energy card from its hand at once (one `reveal`
action carries all of them) to win the wave in the breakzone (SU-5) or to avoid the bluebottle
there (SU-9). The reveal resolves the whole round at once: the breakzone card leaves the surf (to
the winner's score zone, the trash or the bluebottle zone) and the revealed cards move (SU-6).
Then the winner and the runner-up each take a reward (SU-7: one `reward` action each), the end is
checked (SU-10) and, while the ocean deck has cards, the newly revealed ocean card arrives as an
`ocean` action at the far end of the surf (SU-3). When the game ends, the `final` action enters
the bluebottle tokens' values and the shared goals achieved (SU-11, SU-13).

Phases: "setup" -> "reveal" -> ("reward" x 0..2) -> ("ocean") -> "reveal" ... -> "final" -> "over".

The engine never shuffles: every card is named by the action that reveals it (SU-2). It counts the
waves and bluebottles left in the ocean deck (`ocean_left`) so that an ocean card of a kind the
deck no longer holds is refused. Energy cards are ints for the starting cards (0 is the rest card)
and "tN" strings for temporary energy of value N; hands and towels are kept sorted.

The numbers (suits, decks, starting cards and respect, card ranges, token values, the bluebottles
that end the game) are data in components.json, checked at import.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from companion.games.words import _, gettext_noop, ngettext

from ..base import (
    Field,
    RuleViolation,
    and_join,
    check_players,
    check_seat,
    check_turn,
    checked,
    declared_fields,
    fresh_copy,
    is_int,
    is_seat_key,
    read_components,
    require,
    shown,
)
from ..turns import Phase, Said, Turned, Turns

OCEAN_KINDS = ("wave", "bluebottle")
BEACH_KINDS = ("surfboard", "energy")
CARD_FIELDS = {
    "wave": ("kind", "suit", "points"),
    "bluebottle": ("kind",),
    "surfboard": ("kind", "suit", "bonus", "cost"),
    "energy": ("kind", "value", "cost"),
}
CHOICES = ("respect", "buy", "pass")
SURF_SIZE = 3  # SU-3
BEACH_SIZE = 3  # SU-7
GOAL_COUNT = 3  # SU-13
REST = 0  # the rest card (SU-4)
BREAKDOWN = ("waves", "surfboards", "goals", "stings")
COMPONENT_KEYS = (
    "suits",
    "ocean_deck",
    "beach_deck",
    "starting_energy",
    "starting_respect",
    "max_respect",
    "wave_points",
    "surfboard_bonus_min",
    "surfboard_cost",
    "energy_value",
    "energy_cost",
    "sting_values",
    "bluebottles_to_end",
    "bluebottle_tokens",
)
GOAL_NAME_MAX = 80
# A goal's points as a pad's (AG-2; games/NOTES.md): every total then fits an integer column.
GOAL_POINTS_MAX = 9999

COMPONENTS_FILE = Path(__file__).with_name("components.json")


def _whole(data: dict, where: str, key: str, least: int) -> int:
    value = data[key]
    if not is_int(value) or value < least:
        raise ValueError(f"{where}: '{key}' must be a whole number >= {least}.")
    return value


def _span(data: dict, where: str, key: str, least: int) -> list[int]:
    value = data[key]
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(is_int(n) for n in value)
        and least <= value[0] <= value[1]
    ):
        raise ValueError(
            f"{where}: '{key}' must be [lowest, highest], whole numbers with {least} <= lowest <= highest."
        )
    return list(value)


def _different(values, check) -> bool:
    """A list of different values, each passing `check`."""
    return isinstance(values, list) and all(check(n) for n in values) and len(set(values)) == len(values)


def _suits(data: dict, where: str) -> list[str]:
    suits = data["suits"]
    named = lambda s: isinstance(s, str) and s.strip() == s and s  # noqa: E731
    if not (isinstance(suits, list) and len(suits) == 3 and _different(suits, named)):
        raise ValueError(f"{where}: 'suits' must list 3 different suit names (SU-2).")
    return list(suits)


def _ocean(data: dict, where: str) -> dict[str, int]:
    ocean = data["ocean_deck"]
    if not isinstance(ocean, dict) or set(ocean) != set(OCEAN_KINDS):
        raise ValueError(f"{where}: 'ocean_deck' must count exactly wave, bluebottle.")
    if not all(is_int(n) and n >= 0 for n in ocean.values()):
        raise ValueError(f"{where}: every count in 'ocean_deck' must be a whole number >= 0.")
    if ocean["wave"] < SURF_SIZE:
        raise ValueError(f"{where}: the ocean deck needs at least {SURF_SIZE} waves for the surf (SU-3).")
    return {kind: ocean[kind] for kind in OCEAN_KINDS}


def _energy(data: dict, where: str) -> list[int]:
    energy = data["starting_energy"]
    if not (_different(energy, lambda n: is_int(n) and n >= 0) and REST in energy and len(energy) >= 2):
        raise ValueError(
            f"{where}: 'starting_energy' must list different whole numbers >= 0, "
            "the rest card 0 and at least one other (SU-1)."
        )
    return sorted(energy)


def load_components(path: Path) -> dict:
    """The components from `path` (SU-2 defaults); a broken file raises ValueError naming the problem."""
    data, where = read_components(path, "Surf's Up!", COMPONENT_KEYS)
    # In the file's order of concern, so a file with two faults names the same one as before.
    suits, ocean = _suits(data, where), _ocean(data, where)
    beach, energy = _whole(data, where, "beach_deck", BEACH_SIZE), _energy(data, where)
    max_respect = _whole(data, where, "max_respect", 1)
    start = _whole(data, where, "starting_respect", 0)
    if start > max_respect:
        raise ValueError(
            f"{where}: 'starting_respect' {start} is above 'max_respect' {max_respect} (SU-1, SU-7)."
        )
    stings = data["sting_values"]
    if not (stings and _different(stings, lambda n: is_int(n) and n <= 0)):
        raise ValueError(f"{where}: 'sting_values' must list different whole numbers <= 0 (SU-11).")
    to_end = _whole(data, where, "bluebottles_to_end", 1)
    if to_end > ocean["bluebottle"]:
        raise ValueError(
            f"{where}: 'bluebottles_to_end' is {to_end} but the ocean deck holds only "
            f"{ocean['bluebottle']} bluebottles (SU-10)."
        )
    return {
        "suits": suits,
        "ocean_deck": ocean,
        "beach_deck": beach,
        "starting_energy": energy,
        "starting_respect": start,
        "max_respect": max_respect,
        "wave_points": _span(data, where, "wave_points", 0),
        "surfboard_bonus_min": _whole(data, where, "surfboard_bonus_min", 0),
        "surfboard_cost": _span(data, where, "surfboard_cost", 0),
        "energy_value": _span(data, where, "energy_value", 1),
        "energy_cost": _span(data, where, "energy_cost", 0),
        "sting_values": list(stings),
        "bluebottles_to_end": to_end,
        "bluebottle_tokens": _whole(data, where, "bluebottle_tokens", 0),  # SU-14
    }


COMPONENTS = load_components(COMPONENTS_FILE)


# ---------------------------------------------------------------------------------------------
# Helpers


def is_temporary(card) -> bool:
    return isinstance(card, str)


def energy_value(card) -> int:
    """The value of an energy card: a starting card is its number, "tN" is worth N (SU-8)."""
    return int(card[1:]) if is_temporary(card) else card


def energy_key(card) -> tuple[int, bool]:
    """Hands and towels are sorted by value; a starting card comes before a temporary one."""
    return energy_value(card), is_temporary(card)


def energy_sorted(cards: list) -> list:
    return sorted(cards, key=energy_key)


def energy_name(card) -> str:
    return (
        _("temporary {energy_value}").format(energy_value=energy_value(card))
        if is_temporary(card)
        else str(card)
    )


def with_article(article: str, words: str) -> str:
    """'the 8 blue wave'; with 'a': 'an 8 blue wave', 'an orange surfboard', 'a 5 blue wave'."""
    if article == "a":
        first = words.split()[0].lower()
        if first[0] in "aeiou8" or first in ("11", "18"):
            return _("an {words}").format(words=words)
        return _("a {words}").format(words=words)
    return _("the {words}").format(words=words)


# The print run's suits (components.json), for the catalog: a sentence says them in its language.
SUIT_WORDS = (gettext_noop("orange"), gettext_noop("purple"), gettext_noop("blue"))


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def card_name(card: dict | None, article: str = "the") -> str:
    """'the 7 blue wave', 'a bluebottle', 'the orange surfboard (+2, cost 3)',
    'temporary energy 6 (cost 2)'."""
    if card is None:
        return _("nothing")
    kind = card["kind"]
    if kind == "wave":
        return with_article(
            article, _("{points} {suit} wave").format(points=card["points"], suit=_(card["suit"]))
        )
    if kind == "bluebottle":
        return with_article(article, _("bluebottle"))
    if kind == "surfboard":
        return with_article(
            article,
            _("{suit} surfboard (+{bonus}, cost {cost})").format(
                suit=_(card["suit"]), bonus=card["bonus"], cost=card["cost"]
            ),
        )
    return _("temporary energy {value} (cost {cost})").format(value=card["value"], cost=card["cost"])


def seat_key(key) -> int:
    require(
        is_seat_key(key),
        lambda: _('Seat keys are seat numbers written as strings ("0", "1"), not {shown}.').format(
            shown=shown(key)
        ),
    )
    return int(key)


def seat_map(value, field: str, example: str) -> dict[int, object]:
    require(
        isinstance(value, dict),
        lambda: _("'{field}' must be an object from seat to value, e.g. {example}.").format(
            field=field, example=example
        ),
    )
    return dict(sorted((seat_key(key), item) for key, item in value.items()))


# ---------------------------------------------------------------------------------------------
# The engine


def require_card_number(n, lo: int, hi: int | None, **said: str) -> None:
    """A card's number within the components' range (SU-2), else a 400 naming the card and field."""
    ok = is_int(n) and lo <= n and (hi is None or n <= hi)
    span = (
        _("from {lo} to {hi}").format(lo=lo, hi=hi) if hi is not None else _("of at least {lo}").format(lo=lo)
    )
    require(
        ok,
        lambda: _("{what}: a {kind}'s {key} must be a whole number {span}, not {shown}.").format(
            span=span, shown=shown(n), **said
        ),
        "bad_card",
    )


def check_reward_seat(seat) -> None:
    require(is_int(seat), lambda: _("A reward needs 'seat': the seat taking it."))


def check_choice(choice) -> None:
    require(
        isinstance(choice, str) and choice in CHOICES,
        lambda: _("'choice' must be one of {join}, not {shown}.").format(
            join=", ".join(CHOICES), shown=shown(choice)
        ),
    )


def check_goal_marks(goals) -> None:
    for seat, indexes in seat_map(goals, "goals", '{"0": [0, 2], "1": []}').items():
        require(
            isinstance(indexes, list) and all(is_int(g) for g in indexes),
            _("Seat {seat}'s goals must be a list of goal indexes, not {shown}.").format(
                seat=seat, shown=shown(indexes)
            ),
        )


def read_card(card: dict) -> dict:
    """A checked card (parse_card) with its kind's fields in their order (SU-2)."""
    return {key: card[key] for key in CARD_FIELDS[card["kind"]]}


def read_seat_map(value: dict) -> dict[int, object]:
    """A checked seat map (seat_map): seats as numbers, in seat order."""
    return dict(sorted((int(key), item) for key, item in value.items()))


def round_facts(engine, state: dict) -> dict:
    """What expect tells besides the actions and seats: the phase and the round."""
    return {"phase": state["phase"], "round": state["round"]}


class SurfsUp(Turned):
    slug = "surfs-up"
    name = "Surf's Up!"  # a game's name is its own in every language
    min_players = 2
    max_players = 6
    options = {"shared_goals": False}
    option_labels = {"shared_goals": gettext_noop("Shared goals")}
    action_types = ("setup", "reveal", "reward", "ocean", "final")
    end_rule = "SU-10"
    players_rule = "SU-1"

    def __init__(self, components: dict | None = None):
        self.components = copy.deepcopy(components or COMPONENTS)
        self.suits = tuple(self.components["suits"])
        self.action_shapes = self._shapes()  # cards' ranges are this deck's (SU-2)
        self.action_fields = declared_fields(self.action_shapes)

    # --- setup and questions ----------------------------------------------------------------

    def setup(self, players: int, options: dict) -> dict:
        check_players(self, players)
        c = self.components
        options = {**self.options, **(options or {})}
        return {
            "options": {"shared_goals": bool(options["shared_goals"])},
            "phase": "setup",
            "round": 1,
            "surf": [],
            "beach": [None] * BEACH_SIZE,
            "ocean_deck": sum(c["ocean_deck"].values()),
            "ocean_left": dict(c["ocean_deck"]),
            "beach_deck": c["beach_deck"],
            "bluebottles": 0,
            "bluebottle_zone": 0,
            "token_supply": c["bluebottle_tokens"],  # SU-14: the tokens still in the box
            "trash": [],
            "trashed_waves": [],
            "goals": [],
            "rewards": [],
            "last": None,
            "end_reason": None,
            "winners": None,
            "seats": [
                {
                    "hand": list(c["starting_energy"]),  # SU-1
                    "towel": [],
                    "respect": c["starting_respect"],
                    "waves": [],
                    "surfboards": [],
                    "stings": 0,
                    "sting_values": [],
                    "goals": [],
                }
                for _ in range(players)
            ],
        }

    # The turn structure (turns.py): the table is set up (SU-3), then each round every seat reveals
    # (SU-4), the winner's reward and the runner-up's follow (SU-7), a new ocean card rolls in
    # (SU-3), and once the game ends the final entry counts the tokens and goals (SU-11).
    turns = Turns(
        phases={
            "setup": Phase(
                ("setup",),
                not_now=Said(
                    "unexpected_action",
                    gettext_noop(
                        "Set up the table first: the {SURF_SIZE} waves in the surf and the "
                        "{BEACH_SIZE} beach cards (SU-3)."
                    ),
                    "SU-3",
                    lambda self, state, kind, seat: {"SURF_SIZE": SURF_SIZE, "BEACH_SIZE": BEACH_SIZE},
                ),
                facts=round_facts,
                then=("reveal",),
            ),
            "reveal": Phase(
                ("reveal",),
                seats=lambda self, state: list(range(len(state["seats"]))),
                not_now=Said(
                    "unexpected_action",
                    gettext_noop("Round {round} first: every seat reveals an energy card (SU-4)."),
                    "SU-4",
                    lambda self, state, kind, seat: {"round": state["round"]},
                ),
                refuses={
                    "setup": Said(
                        "unexpected_action", gettext_noop("The table is already set up (SU-3)."), "SU-3"
                    ),
                    "final": Said(
                        "unexpected_action",
                        gettext_noop(
                            "The game has not ended yet: every seat reveals an energy card (SU-10)."
                        ),
                        "SU-10",
                    ),
                },
                facts=round_facts,
                then=("reveal", "reward", "ocean", "final"),
            ),
            "reward": Phase(
                ("reward",),
                seats=lambda self, state: [state["rewards"][0]],
                not_now=Said(
                    "unexpected_action",
                    gettext_noop("Seat {due}'s reward comes first: respect or a beach card (SU-7)."),
                    "SU-7",
                    lambda self, state, kind, seat: {"due": state["rewards"][0]},
                ),
                not_yours=lambda self, state, kind, seat: self._not_your_reward(state, kind, seat),
                facts=round_facts,
                then=("reward", "ocean", "reveal", "final"),
            ),
            "ocean": Phase(
                ("ocean",),
                not_now=Said(
                    "unexpected_action",
                    gettext_noop(
                        "First enter the new ocean card that rolls into the far end of the surf (SU-3)."
                    ),
                    "SU-3",
                ),
                facts=round_facts,
                then=("reveal",),
            ),
            "final": Phase(
                ("final",),
                not_now=Said(
                    "unexpected_action",
                    gettext_noop(
                        "The game has ended: enter the values of the bluebottle tokens{goals} (SU-11)."
                    ),
                    "SU-11",
                    lambda self, state, kind, seat: {
                        "goals": _(" and the shared goals each seat achieved")
                        if state["options"]["shared_goals"]
                        else ""
                    },
                ),
                facts=round_facts,
                then=("over",),
            ),
            "over": Phase(facts=round_facts),
        },
    )

    def scores(self, state: dict) -> list[dict]:
        """SU-12. Sting values and goals count 0 until the final entry (SU-N5)."""
        result = []
        for i, seat in enumerate(state["seats"]):
            waves = sum(wave["points"] for wave in seat["waves"])
            boards = sum(
                board["bonus"] * sum(1 for wave in seat["waves"] if wave["suit"] == board["suit"])
                for board in seat["surfboards"]
            )
            goals = sum(state["goals"][g]["points"] for g in seat["goals"])
            stings = sum(seat["sting_values"])
            breakdown = {"waves": waves, "surfboards": boards, "goals": goals, "stings": stings}
            result.append({"seat": i, "total": sum(breakdown.values()), "breakdown": breakdown})
        return result

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        return {"winners": list(state["winners"]), "end_reason": state["end_reason"]}

    # --- helpers for the pages (all pure) -----------------------------------------------------

    def ocean_needed(self, state: dict) -> bool:
        """Whether the newly revealed ocean card is to be entered now (SU-3)."""
        return state["phase"] == "ocean"

    def final_counts(self, state: dict) -> dict[int, int]:
        """Seat -> how many bluebottle token values the final entry needs for it (SU-11)."""
        return {i: seat["stings"] for i, seat in enumerate(state["seats"])}

    def reward_options(self, state: dict) -> dict:
        """For the seat whose reward is due (SU-7): each choice None when allowed, else the
        sentence its refusal would give. `buy` lists the 3 beach slots (a slot may hold null)."""
        if state["phase"] != "reward":
            reason = _("No reward is due now (SU-7).")
            return {"seat": None, "respect": reason, "buy": [], "pass": reason}
        seat = state["rewards"][0]
        return {
            "seat": seat,
            "respect": self._respect_reason(state, seat),
            "buy": [
                {"slot": i, "card": card, "reason": self._buy_reason(state, seat, i)}
                for i, card in enumerate(state["beach"])
            ],
            "pass": self._pass_reason(state, seat),
        }

    def _can_buy(self, state: dict, seat: int) -> bool:
        return any(self._buy_reason(state, seat, i) is None for i in range(len(state["beach"])))

    def _respect_reason(self, state: dict, seat: int) -> str | None:
        most = self.components["max_respect"]
        if state["seats"][seat]["respect"] < most:
            return None
        if self._can_buy(state, seat):
            return _("Seat {seat} is at {most} respect and must buy (SU-7).").format(seat=seat, most=most)
        return _("Seat {seat} is at {most} respect and can gain no more (SU-7).").format(seat=seat, most=most)

    def _buy_reason(self, state: dict, seat: int, slot: int) -> str | None:
        card = state["beach"][slot]
        if card is None:
            return _("Beach space {number} is empty: the beach deck ran out (SU-7).").format(number=slot + 1)
        held = state["seats"][seat]["respect"]
        if card["cost"] > held:
            what = _("surfboard") if card["kind"] == "surfboard" else _("temporary energy card")
            return _("That {what} costs {cost} respect; Seat {seat} has {held} (SU-7).").format(
                what=what, cost=card["cost"], seat=seat, held=held
            )
        return None

    def _pass_reason(self, state: dict, seat: int) -> str | None:
        if self._respect_reason(state, seat) is None or self._can_buy(state, seat):
            return _("Passing is only allowed when nothing else is (SU-7).")
        return None

    # --- parsing (shapes: BadAction) ---------------------------------------------------------

    def parse_card(self, value, what: str = gettext_noop("The card")) -> dict:
        """A card as entered (SU-2), in the field order of CARD_FIELDS; faces out of range are
        malformed (400). Which deck it may come from is a rule, checked by the caller."""
        c = self.components
        example = json.dumps({"kind": "wave", "suit": self.suits[0], "points": 5})
        require(
            isinstance(value, dict),
            lambda: _("{what} must be a card object, e.g. {example}.").format(what=what, example=example),
            "bad_card",
        )
        kind = value.get("kind")
        require(
            isinstance(kind, str) and kind in CARD_FIELDS,
            lambda: _("{what}: 'kind' must be one of {join}, not {shown}.").format(
                what=what, join=", ".join(CARD_FIELDS), shown=shown(kind)
            ),
            "bad_card",
        )
        fields = CARD_FIELDS[kind]
        require(
            set(value) == set(fields),
            lambda: _("{what}: a {kind} card has exactly the fields {join}.").format(
                what=what, kind=kind, join=", ".join(fields)
            ),
            "bad_card",
        )

        def number(key: str, lo: int, hi: int | None) -> None:
            require_card_number(value[key], lo, hi, what=what, kind=kind, key=key)

        if "suit" in fields:
            suit = value["suit"]
            require(
                isinstance(suit, str) and suit in self.suits,
                lambda: _("{what}: 'suit' must be one of {join}, not {shown}.").format(
                    what=what, join=", ".join(self.suits), shown=shown(suit)
                ),
                "bad_card",
            )
        if kind == "wave":
            number("points", *c["wave_points"])
        elif kind == "surfboard":
            number("bonus", c["surfboard_bonus_min"], None)
            number("cost", *c["surfboard_cost"])
        elif kind == "energy":
            number("value", *c["energy_value"])
            number("cost", *c["energy_cost"])
        return {key: value[key] for key in fields}

    def parse_energy(self, value, seat: int):
        """An energy card as in `reveal`: a starting card's number, or "tN" for temporary energy."""
        c = self.components
        if is_int(value) and value in c["starting_energy"]:
            return value
        if isinstance(value, str) and value[:1] == "t" and value[1:].isascii() and value[1:].isdigit():
            n = int(value[1:])
            if str(n) == value[1:] and c["energy_value"][0] <= n <= c["energy_value"][1]:
                return value
        starting = ", ".join(map(str, c["starting_energy"]))
        lo, hi = c["energy_value"]
        require(
            False,
            lambda: _(
                "Seat {seat} reveals {shown}, which is no energy card: use {starting} "
                'or "t{lo}" to "t{hi}" for temporary energy.'
            ).format(seat=seat, shown=shown(value), starting=starting, lo=lo, hi=hi),
            "bad_energy",
        )

    def _shapes(self) -> dict:
        """The actions' shapes, checked by base.play before apply, each with its own sentence."""

        def card(what: str, **options) -> Field:
            return checked(lambda value: self.parse_card(value, _(what)), **options)

        return {
            "setup": {
                "surf": checked(self._check_surf, judges_null=True),
                "beach": checked(self._check_beach, judges_null=True),
                "goals": checked(self._check_goals, required=False),
            },
            "reveal": {
                "energy": checked(
                    self._check_energy,
                    missing=gettext_noop("A reveal needs 'energy': the card each seat reveals."),
                )
            },
            "reward": {
                "seat": checked(check_reward_seat, judges_null=True),
                "choice": checked(check_choice, judges_null=True),
                "slot": Field(required=False),  # its shape is the choice's: _read_reward
                "refill": card(gettext_noop("The refill"), required=False),
            },
            "ocean": {
                "card": card(
                    gettext_noop("The ocean card"),
                    missing=gettext_noop("An ocean entry needs 'card': the newly revealed ocean card."),
                )
            },
            "final": {
                "stings": checked(self._check_stings, judges_null=True),
                "goals": checked(check_goal_marks, required=False),
            },
        }

    def _check_surf(self, surf) -> None:
        require(
            isinstance(surf, list) and len(surf) == SURF_SIZE,
            lambda: _("A setup needs 'surf': the {SURF_SIZE} waves in the surf, breakzone first.").format(
                SURF_SIZE=SURF_SIZE
            ),
        )
        for i, card in enumerate(surf, 1):
            self.parse_card(card, _("Surf card {i}").format(i=i))

    def _check_beach(self, beach) -> None:
        require(
            isinstance(beach, list) and len(beach) == BEACH_SIZE,
            lambda: _("A setup needs 'beach': the {BEACH_SIZE} face-up beach cards.").format(
                BEACH_SIZE=BEACH_SIZE
            ),
        )
        for i, card in enumerate(beach, 1):
            self.parse_card(card, _("Beach card {i}").format(i=i))

    @staticmethod
    def _check_goals(goals) -> None:
        """SU-13: the shared goals a setup names (none: the table plays without them)."""
        require(
            isinstance(goals, list)
            and all(isinstance(g, dict) and set(g) == {"name", "points"} for g in goals),
            lambda: _('\'goals\' must be a list of {"name", "points"} objects.'),
        )
        for n, goal in enumerate(goals, 1):
            name, points = goal["name"], goal["points"]
            require(
                isinstance(name, str) and name.strip() and len(name) <= GOAL_NAME_MAX,
                _("Goal {n}: 'name' must be a text of 1 to {GOAL_NAME_MAX} characters.").format(
                    n=n, GOAL_NAME_MAX=GOAL_NAME_MAX
                ),
            )
            require(
                is_int(points) and points >= 0,
                _("Goal {n}: 'points' must be a whole number >= 0, not {shown}.").format(
                    n=n, shown=shown(points)
                ),
            )
            require(
                points <= GOAL_POINTS_MAX,
                _("Goal {n}: 'points' go up to {count}, not {shown}.").format(
                    n=n, count=GOAL_POINTS_MAX, shown=shown(points)
                ),
            )
        if goals:
            require(
                len(goals) == GOAL_COUNT,
                lambda: _("'goals' must hold exactly {GOAL_COUNT} goals.").format(GOAL_COUNT=GOAL_COUNT),
            )

    def _check_energy(self, energy) -> None:
        for seat, card in seat_map(energy, "energy", '{"0": 3, "1": 0, "2": "t6"}').items():
            self.parse_energy(card, seat)

    def _check_stings(self, stings) -> None:
        values = self.components["sting_values"]
        for seat, tokens in seat_map(stings, "stings", '{"0": [-1, 0], "1": []}').items():
            require(
                isinstance(tokens, list) and all(is_int(v) and v in values for v in tokens),
                _("Seat {seat}'s stings must be a list of token values ({join}), not {shown}.").format(
                    seat=seat, join=", ".join(map(str, values)), shown=shown(tokens)
                ),
                "bad_sting",
            )

    def _read(self, action: dict) -> dict:
        """The action's fields, read once base.play checked their shapes (_shapes)."""
        kind = action["type"]
        if kind == "setup":
            goals = action.get("goals")
            return {
                "surf": [read_card(card) for card in action["surf"]],
                "beach": [read_card(card) for card in action["beach"]],
                "goals": None
                if goals is None
                else [{"name": g["name"].strip(), "points": g["points"]} for g in goals],
            }
        if kind == "reveal":
            return {"energy": read_seat_map(action["energy"])}
        if kind == "reward":
            return self._read_reward(action)
        if kind == "ocean":
            return {"card": read_card(action["card"])}
        goals = action.get("goals")
        return {
            "stings": read_seat_map(action["stings"]),
            "goals": None if goals is None else read_seat_map(goals),
        }

    @staticmethod
    def _read_reward(action: dict) -> dict:
        """A reward's fields: a buy names its beach slot (and the refill); the others name neither."""
        choice, slot, refill = action["choice"], action.get("slot"), action.get("refill")
        if choice == "buy":
            require(
                is_int(slot) and 0 <= slot < BEACH_SIZE,
                lambda: _("A buy needs 'slot': the beach slot 0 to {number}, not {shown}.").format(
                    number=BEACH_SIZE - 1, shown=shown(slot)
                ),
            )
        else:
            require(
                slot is None and refill is None,
                lambda: _("A {choice} reward has no 'slot' or 'refill'.").format(choice=choice),
            )
        return {
            "seat": action["seat"],
            "choice": choice,
            "slot": slot,
            "refill": None if refill is None else read_card(refill),
        }

    # --- actions ----------------------------------------------------------------------------

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)  # a refusal must leave the caller's state untouched
        kind = action["type"]  # base.play checked its shape: the one door into the engine
        parsed = self._read(action)  # base.play checked the shapes; a reward's slot is read here
        # The rules (RuleViolation): the shared checks (G-1), then this game's.
        check_turn(self, state, kind, parsed.get("seat"))
        getattr(self, f"_{kind}")(state, **parsed)
        return state

    def _not_your_reward(self, state: dict, kind: str, seat: int) -> RuleViolation:
        """G-1: the winner's reward, then the runner-up's (SU-7)."""
        due = state["rewards"][0]
        if seat in state["rewards"]:
            message = _("Seat {due}'s reward comes first: the winner's, then the runner-up's (SU-7).").format(
                due=due
            )
        elif any(entry["seat"] == seat for entry in state["last"]["rewards"]):
            message = _(
                "Seat {seat} has taken a reward this round: now Seat {due}'s reward is due (SU-7)."
            ).format(seat=seat, due=due)
        else:
            message = _("Seat {seat} won no reward this round: Seat {due}'s reward is due (SU-7).").format(
                seat=seat, due=due
            )
        return RuleViolation("not_your_turn", message, "SU-7")

    def _check_seats(self, state: dict, seats) -> None:
        for seat in seats:
            check_seat(self, state, seat)

    def _missing(self, state: dict, given, what: str, rule: str) -> None:
        missing = [s for s in range(len(state["seats"])) if s not in given]
        if missing:
            who = and_join([_("Seat {s}").format(s=s) for s in missing])
            verb = _("is") if len(missing) == 1 else _("are")
            raise RuleViolation(
                "missing_seat",
                _("{who} {verb} missing: {what} ({rule}).").format(who=who, verb=verb, what=what, rule=rule),
                rule,
            )

    def _setup(self, state: dict, surf: list[dict], beach: list[dict], goals: list[dict] | None) -> None:
        for i, card in enumerate(surf):
            if card["kind"] == "bluebottle":
                raise RuleViolation(
                    "setup_bluebottle",
                    _(
                        "Bluebottles revealed at setup are shuffled back into the ocean deck: "
                        "the surf starts with {SURF_SIZE} waves (SU-3)."
                    ).format(SURF_SIZE=SURF_SIZE),
                    "SU-3",
                )
            if card["kind"] not in OCEAN_KINDS:
                raise RuleViolation(
                    "not_ocean_card",
                    _("Surf card {number}: {card_name} is a beach card, not an ocean card (SU-2).").format(
                        number=i + 1, card_name=card_name(card, "a")
                    ),
                    "SU-2",
                )
        for i, card in enumerate(beach):
            if card["kind"] not in BEACH_KINDS:
                raise RuleViolation(
                    "not_beach_card",
                    _("Beach card {number}: {card_name} is an ocean card, not a beach card (SU-2).").format(
                        number=i + 1, card_name=card_name(card, "a")
                    ),
                    "SU-2",
                )
        if state["options"]["shared_goals"]:
            if not goals:
                raise RuleViolation(
                    "goals_needed",
                    _("This table plays with shared goals: enter the {GOAL_COUNT} goals (SU-13).").format(
                        GOAL_COUNT=GOAL_COUNT
                    ),
                    "SU-13",
                )
        elif goals:
            raise RuleViolation("goals_off", _("Shared goals are off at this table (SU-13)."), "SU-13")
        state["surf"] = surf
        state["ocean_deck"] -= SURF_SIZE  # SU-3: 28 - 3 = 25 (SU-N1)
        state["ocean_left"]["wave"] -= SURF_SIZE
        state["beach"] = beach
        state["beach_deck"] -= BEACH_SIZE  # SU-2: 42 - 3 = 39
        state["goals"] = goals or []
        state["phase"] = "reveal"

    def _reveal(self, state: dict, energy: dict) -> None:
        seats = state["seats"]
        self._check_seats(state, energy)
        self._missing(state, energy, _("every seat reveals one energy card each round"), "SU-4")
        for seat, card in energy.items():
            hand = seats[seat]["hand"]
            if card in hand:
                continue
            raise RuleViolation("not_in_hand", self._where_is(state, seat, card), "SU-4")
        self._resolve(state, energy)

    def _where_is(self, state: dict, seat: int, card) -> str:
        """Why `seat` cannot reveal `card` (SU-4): where that card is instead (G-2)."""
        player = state["seats"][seat]
        name = energy_name(card)
        if player["hand"] == [REST]:
            return _("Seat {seat} holds only the rest card 0: it must rest (SU-4).").format(seat=seat)
        if card in player["towel"]:
            return _(
                "Seat {seat}'s {name} is on the towel: resting (revealing 0) brings it back to hand (SU-4)."
            ).format(seat=seat, name=name)
        if is_temporary(card):
            return _(
                "Seat {seat} holds no temporary {energy_value}: a temporary card comes "
                "from the beach to the towel, and goes to the trash once revealed "
                "(SU-4, SU-8)."
            ).format(seat=seat, energy_value=energy_value(card))
        if card in self.components["starting_energy"]:
            return _(
                "Seat {seat}'s {name} won a wave and went to the trash: it cannot be "
                "revealed again (SU-4, SU-6)."
            ).format(seat=seat, name=name)
        return _("Seat {seat} has no {name} in hand (SU-4).").format(seat=seat, name=name)

    def _resolve(self, state: dict, energy: dict) -> None:
        """The breakzone card meets the revealed energy: a wave is won (SU-5) or a bluebottle stings
        (SU-9); then the cards go where SU-6 sends them, and the winner and runner-up are rewarded."""
        card = state["surf"].pop(0)  # SU-N7: the breakzone card leaves the surf, the rest move up
        values = {s: energy_value(c) for s, c in energy.items()}
        resting = [s for s in energy if values[s] == REST]
        winner = runner_up = None
        wiped, stung, unstung = [], [], []
        if card["kind"] == "wave":  # SU-5
            winner, runner_up, wiped = self._ride(state, card, energy, values)
        else:  # SU-9
            stung, unstung = self._sting(state, energy, values)
        trashed, to_towel, rested = self._after_the_wave(state, energy, values, winner, resting)
        state["last"] = {
            "round": state["round"],
            "card": card,
            "revealed": {str(s): c for s, c in energy.items()},
            "resting": resting,
            "wiped_out": wiped,
            "winner": winner,
            "runner_up": runner_up,
            "stung": stung,
            "unstung": unstung,
            "trashed": trashed,
            "to_towel": to_towel,
            "rested": rested,
            "rewards": [],
        }
        state["rewards"] = [s for s in (winner, runner_up) if s is not None]  # SU-7: winner first
        if state["rewards"]:
            state["phase"] = "reward"
        else:
            self._end_round(state)

    def _ride(self, state: dict, card: dict, energy: dict, values: dict) -> tuple:
        """SU-5: the highest value wins, then the higher respect; equal pairs wipe out. Returns the
        winner, the runner-up and the groups that wiped out."""
        seats = state["seats"]
        respect = {s: seats[s]["respect"] for s in energy}  # as held at the reveal
        groups: dict[tuple[int, int], list[int]] = {}
        for s in energy:
            if values[s] != REST:
                groups.setdefault((values[s], respect[s]), []).append(s)
        order = sorted(groups, reverse=True)  # value, then respect, both descending
        wiped = [groups[key] for key in order if len(groups[key]) > 1]
        ranked = [groups[key][0] for key in order if len(groups[key]) == 1]
        winner = ranked[0] if ranked else None
        runner_up = ranked[1] if len(ranked) > 1 else None
        if winner is None:
            state["trashed_waves"].append(card)  # SU-5, SU-N2
        else:
            seats[winner]["waves"].append(card)
        return winner, runner_up, wiped

    def _sting(self, state: dict, energy: dict, values: dict) -> tuple[list[int], list[int]]:
        """SU-9, SU-14: the lowest values take a bluebottle token each while the box holds any."""
        seats = state["seats"]
        low = min(values.values())
        lowest = [s for s in energy if values[s] == low]
        # SU-14: tokens are taken in seat order while the box holds any.
        stung, unstung = lowest[: state["token_supply"]], lowest[state["token_supply"] :]
        for s in stung:
            seats[s]["stings"] += 1
        state["token_supply"] -= len(stung)
        state["bluebottles"] += 1
        state["bluebottle_zone"] += 1
        return stung, unstung

    def _after_the_wave(self, state: dict, energy: dict, values: dict, winner, resting: list[int]) -> tuple:
        """SU-6: the cards revealed go to the trash or the towels; resting seats take theirs back."""
        seats, most = state["seats"], self.components["max_respect"]
        # SU-6: the winner's card to the trash, others above 0 to the towel, temporary cards to
        # the trash whoever played them; then resting seats gain respect and take everything back.
        trashed, to_towel, rested = [], {}, {}
        for s, c in energy.items():
            seats[s]["hand"].remove(c)
            if values[s] == REST:
                continue
            if s == winner or is_temporary(c):
                state["trash"].append(c)
                trashed.append({"seat": s, "card": c})
            else:
                seats[s]["towel"] = energy_sorted(seats[s]["towel"] + [c])
                to_towel[str(s)] = [c]
        for s in resting:
            seat = seats[s]
            seat["respect"] = min(most, seat["respect"] + 1)
            back = energy_sorted(seat["towel"] + [REST])
            rested[str(s)] = back
            seat["hand"] = energy_sorted(seat["hand"] + back)
            seat["towel"] = []
        return trashed, to_towel, rested

    def _reward(self, state: dict, seat: int, choice: str, slot: int | None, refill: dict | None) -> None:
        player = state["seats"][seat]
        entry = {"seat": seat, "choice": choice}
        if choice == "respect":
            reason = self._respect_reason(state, seat)
            if reason:
                raise RuleViolation("max_respect", reason, "SU-7")
            player["respect"] += 1
        elif choice == "pass":
            reason = self._pass_reason(state, seat)
            if reason:
                raise RuleViolation("pass_refused", reason, "SU-7")
        else:
            reason = self._buy_reason(state, seat, slot)
            if reason:
                code = "empty_slot" if state["beach"][slot] is None else "cannot_afford"
                raise RuleViolation(code, reason, "SU-7")
            self._check_refill(state, slot, refill)
            card = state["beach"][slot]
            player["respect"] -= card["cost"]
            if card["kind"] == "surfboard":  # SU-8
                player["surfboards"].append(card)
            else:
                player["towel"] = energy_sorted(player["towel"] + [f"t{card['value']}"])
            state["beach"][slot] = refill
            if refill is not None:
                state["beach_deck"] -= 1
            entry.update(slot=slot, card=card, refill=refill)
        state["last"]["rewards"].append(entry)
        state["rewards"].pop(0)
        if not state["rewards"]:
            self._end_round(state)

    def _check_refill(self, state: dict, slot: int, refill: dict | None) -> None:
        """SU-7: a purchase names the beach card that refills its space while the deck has cards,
        none once it is empty, and a beach card at that (SU-2)."""
        left = state["beach_deck"]
        if left and refill is None:
            raise RuleViolation(
                "refill_needed",
                _(
                    "The beach deck still holds {plural}: enter the card that refills "
                    "beach space {number} (SU-7)."
                ).format(
                    plural=ngettext("{count} card", "{count} cards", left).format(count=left),
                    number=slot + 1,
                ),
                "SU-7",
            )
        if not left and refill is not None:
            raise RuleViolation(
                "beach_deck_empty",
                _(
                    "The beach deck is empty: nothing refills beach space {number}, so "
                    "enter no refill card (SU-7)."
                ).format(number=slot + 1),
                "SU-7",
            )
        if refill is not None and refill["kind"] not in BEACH_KINDS:
            raise RuleViolation(
                "not_beach_card",
                _("The refill: {card_name} is an ocean card, not a beach card (SU-2).").format(
                    card_name=card_name(refill, "a")
                ),
                "SU-2",
            )

    def down_to_rest(self, state: dict) -> list[int]:
        """The seats with an empty towel and only the rest card in hand (SU-10)."""
        return [i for i, seat in enumerate(state["seats"]) if not seat["towel"] and seat["hand"] == [REST]]

    def _end_reason(self, state: dict) -> str | None:
        """SU-10 (both at once: "bluebottles", SU-N4); then the empty ocean (SU-N3)."""
        if state["bluebottles"] >= self.components["bluebottles_to_end"]:
            return "bluebottles"
        if self.down_to_rest(state):
            return "rest_card"
        if not state["surf"] and state["ocean_deck"] == 0:
            return "exhausted"
        return None

    def _end_round(self, state: dict) -> None:
        state["rewards"] = []
        reason = self._end_reason(state)
        if reason:
            state.update(phase="final", end_reason=reason)
        elif state["ocean_deck"] > 0:
            state["phase"] = "ocean"  # SU-3: the new card arrives at the far end
        else:
            self._next_round(state)  # SU-3: with the deck empty the surf just shrinks

    def _next_round(self, state: dict) -> None:
        state.update(phase="reveal", round=state["round"] + 1)

    def _ocean(self, state: dict, card: dict) -> None:
        kind = card["kind"]
        if kind not in OCEAN_KINDS:
            raise RuleViolation(
                "not_ocean_card",
                _("{capital} is a beach card, not an ocean card (SU-2).").format(
                    capital=capital(card_name(card, "a"))
                ),
                "SU-2",
            )
        left = state["ocean_left"]
        if left[kind] == 0:
            total = self.components["ocean_deck"][kind]
            deck = state["ocean_deck"]
            if kind == "wave":  # the rest of the deck is bluebottles
                rest = ngettext(
                    "its last card is a bluebottle", "its {deck} cards left are bluebottles", deck
                ).format(deck=deck)
                message = _(
                    "The ocean deck holds no wave any more (all {total} have been seen): {rest} (SU-2)."
                )
            else:
                rest = ngettext("its last card is a wave", "its {deck} cards left are waves", deck).format(
                    deck=deck
                )
                message = _(
                    "The ocean deck holds no bluebottle any more (all {total} have been seen): {rest} (SU-2)."
                )
            raise RuleViolation(
                "not_in_deck",
                message.format(total=total, rest=rest),
                "SU-2",
            )
        left[kind] -= 1
        state["ocean_deck"] -= 1
        state["surf"].append(card)
        self._next_round(state)

    def _final(self, state: dict, stings: dict, goals: dict | None) -> None:
        seats = state["seats"]
        self._check_seats(state, stings)
        self._missing(state, stings, _("every seat's sting values are entered ([] for none)"), "SU-11")
        for seat, values in stings.items():
            need = seats[seat]["stings"]
            if len(values) != need:
                raise RuleViolation(
                    "sting_count",
                    _("A sting list must hold {plural} for Seat {seat}, one per token (SU-11).").format(
                        plural=ngettext("{count} value", "{count} values", need).format(count=need), seat=seat
                    ),
                    "SU-11",
                )
        if state["options"]["shared_goals"]:
            if goals is None:
                raise RuleViolation(
                    "goals_needed",
                    _("This table plays with shared goals: enter the goals each seat achieved (SU-13)."),
                    "SU-13",
                )
            self._check_seats(state, goals)
            self._missing(state, goals, _("every seat's achieved goals are entered ([] for none)"), "SU-13")
            count = len(state["goals"])
            for seat, indexes in goals.items():
                for g in indexes:
                    if not 0 <= g < count:
                        raise RuleViolation(
                            "unknown_goal",
                            _("Seat {seat} names goal {number}, but the table has {plural} (SU-13).").format(
                                seat=seat,
                                number=g + 1,
                                plural=ngettext("{count} shared goal", "{count} shared goals", count).format(
                                    count=count
                                ),
                            ),
                            "SU-13",
                        )
                if len(set(indexes)) != len(indexes):
                    raise RuleViolation(
                        "goal_twice", _("Seat {seat} names a goal twice (SU-13).").format(seat=seat), "SU-13"
                    )
        elif goals:
            raise RuleViolation("goals_off", _("Shared goals are off at this table (SU-13)."), "SU-13")
        for seat, values in stings.items():
            seats[seat]["sting_values"] = list(values)
            seats[seat]["goals"] = sorted(goals.get(seat, [])) if goals else []
        totals = [score["total"] for score in self.scores(state)]
        top = max(totals)
        state.update(phase="over", winners=[i for i, t in enumerate(totals) if t == top])  # SU-12

    # --- log and random play ----------------------------------------------------------------

    def describe(self, state_before: dict, action: dict, after: dict, names: list[str]) -> str:

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat)

        kind = action["type"]
        parts: list[str] = []
        if kind == "setup":
            surf = ", ".join(f"{w['points']} {_(w['suit'])}" for w in after["surf"])
            beach = ", ".join(card_name(card) for card in after["beach"])
            parts.append(
                _("The surf: {surf} (breakzone first). The beach: {beach}.").format(surf=surf, beach=beach)
            )
            if after["goals"]:
                goals = ", ".join(f"{g['name']} ({g['points']})" for g in after["goals"])
                parts.append(_("Shared goals: {goals}.").format(goals=goals))
        elif kind == "reveal":
            parts += self._describe_round(after, name)
        elif kind == "reward":
            parts.append(self._describe_reward(after, name))
        elif kind == "ocean":
            card = after["surf"][-1]
            parts.append(_("{capital} rolls into the surf.").format(capital=capital(card_name(card, "a"))))
        else:
            scores = self.scores(after)
            listed = ", ".join(f"{name(s['seat'])} {s['total']}" for s in scores)
            winners = after["winners"]
            top = scores[winners[0]]["total"]
            if len(winners) == 1:
                verdict = _("{name} wins.").format(name=name(winners[0]))
            else:
                verdict = _("{and_join} share the win with {top}.").format(
                    and_join=and_join([name(s) for s in winners]), top=top
                )
            parts.append(_("Final scores: {listed}. {verdict}").format(listed=listed, verdict=verdict))
        if kind in ("reveal", "reward"):
            parts += self._describe_next(state_before, after, name)
        return " ".join(parts)

    def _describe_round(self, after: dict, name) -> list[str]:
        last = after["last"]
        card = last["card"]
        shown = [
            _("{name} rests").format(name=name(int(s)))
            if energy_value(c) == REST
            else f"{name(int(s))} {energy_name(c)}"
            for s, c in last["revealed"].items()
        ]
        parts = [
            _("Round {round}, {card_name}: {join}.").format(
                round=last["round"], card_name=card_name(card), join=", ".join(shown)
            )
        ]
        revealed = {int(s): c for s, c in last["revealed"].items()}
        if card["kind"] == "wave":
            parts += self._describe_wave(after, revealed, name)
        else:
            parts += self._describe_bluebottle(last, revealed, name)
        return parts + self._describe_aftermath(after, name)

    def _describe_wave(self, after: dict, revealed: dict[int, str], name) -> list[str]:
        last, card = after["last"], after["last"]["card"]
        parts = []
        for group in last["wiped_out"]:
            value = energy_value(revealed[group[0]])
            respect = after["seats"][group[0]]["respect"]
            # respect as held at the reveal: the wiped out seats neither rest nor take rewards
            parts.append(
                _("{and_join} wiped out ({value}, respect {respect}).").format(
                    and_join=and_join([name(s) for s in group]), value=value, respect=respect
                )
            )
        if last["winner"] is None:
            parts.append(
                _("Nobody catches {card_name}: it goes to the trash.").format(card_name=card_name(card))
            )
        elif last["runner_up"] is None:
            parts.append(
                _("{name} wins {card_name}; there is no runner-up.").format(
                    name=name(last["winner"]), card_name=card_name(card)
                )
            )
        else:
            parts.append(
                _("{name} wins {card_name}, {name2} is runner-up.").format(
                    name=name(last["winner"]), card_name=card_name(card), name2=name(last["runner_up"])
                )
            )
        return parts

    def _describe_bluebottle(self, last: dict, revealed: dict[int, str], name) -> list[str]:
        low = min(energy_value(c) for c in revealed.values())
        parts = []
        if last["stung"]:
            who = and_join([name(s) for s in last["stung"]])
            verb = _("takes") if len(last["stung"]) == 1 else _("take")
            parts.append(
                _("{who} revealed the lowest ({low}) and {verb} a bluebottle token.").format(
                    who=who, low=low, verb=verb
                )
            )
        if last["unstung"]:
            who = and_join([name(s) for s in last["unstung"]])
            also = _(" also") if last["stung"] else ""
            parts.append(
                _(
                    "{who}{also} revealed the lowest ({low}), but the box holds no bluebottle token any more."
                ).format(who=who, also=also, low=low)
            )
        return parts

    def _describe_aftermath(self, after: dict, name) -> list[str]:
        """The trash and the surfers who rested, after a round's reveal."""
        last, seats = after["last"], after["seats"]
        parts = []
        if last["trashed"]:
            items = [
                _("{name}'s {card}").format(name=name(t["seat"]), card=energy_name(t["card"]))
                for t in last["trashed"]
            ]
            parts.append(_("To the trash: {and_join}.").format(and_join=and_join(items)))
        for s in last["resting"]:
            back = last["rested"][str(s)]
            parts.append(
                _("{name} rests: respect {respect}, {plural} back to hand ({join}).").format(
                    name=name(s),
                    respect=seats[s]["respect"],
                    plural=ngettext("{count} card", "{count} cards", len(back)).format(count=len(back)),
                    join=", ".join(energy_name(c) for c in back),
                )
            )
        return parts

    def _describe_reward(self, after: dict, name) -> str:
        entry = after["last"]["rewards"][-1]
        who = name(entry["seat"])
        respect = after["seats"][entry["seat"]]["respect"]
        if entry["choice"] == "respect":
            return _("{who} took 1 respect ({respect}).").format(who=who, respect=respect)
        if entry["choice"] == "pass":
            return _("{who} passes: at {respect} respect with nothing to buy.").format(
                who=who, respect=respect
            )
        card, refill = entry["card"], entry["refill"]
        where = _(" for the towel") if card["kind"] == "energy" else ""
        then = (
            _("the beach gets {card_name}").format(card_name=card_name(refill, "a"))
            if refill
            else _("the beach deck is empty, slot {slot} stays empty").format(slot=entry["slot"])
        )
        return _("{who} bought {card_name}{where}; {then}.").format(
            who=who, card_name=card_name(card), where=where, then=then
        )

    def _describe_next(self, before: dict, after: dict, name) -> list[str]:
        phase = after["phase"]
        if phase == "final":
            reason = after["end_reason"]
            what = _("the bluebottle tokens") + (_(" and the shared goals") if after["goals"] else "")
            if reason == "bluebottles":
                cause = _("That was bluebottle {bluebottles}").format(bluebottles=after["bluebottles"])
            elif reason == "rest_card":
                down = [name(i) for i in self.down_to_rest(after)]
                cause = _("{and_join} {value} only the rest card left").format(
                    and_join=and_join(down), value=_("has") if len(down) == 1 else _("have")
                )
            else:
                cause = _("The surf and the ocean deck are empty")
            return [_("{cause}: the game ends. Enter {what}.").format(cause=cause, what=what)]
        if phase == "reveal":  # no ocean card to enter: the round after starts at once
            return [_("The ocean deck is empty: the surf just moves closer.")]
        return []

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        phase, c = state["phase"], self.components
        seats = state["seats"]
        if phase == "setup":
            action = {
                "type": "setup",
                "surf": [self._sample_wave(rng) for _ in range(SURF_SIZE)],
                "beach": [self._sample_beach(rng) for _ in range(BEACH_SIZE)],
            }
            if state["options"]["shared_goals"]:
                action["goals"] = [
                    {"name": _("Goal {number}").format(number=i + 1), "points": rng.randint(0, 6)}
                    for i in range(GOAL_COUNT)
                ]
            return action
        if phase == "reveal":
            energy = {}
            for i, seat in enumerate(seats):
                others = [card for card in seat["hand"] if card != REST]
                rest = not others or rng.random() < 0.2
                energy[str(i)] = REST if rest else rng.choice(others)
            return {"type": "reveal", "energy": energy}
        if phase == "reward":
            options = self.reward_options(state)
            seat = options["seat"]
            slots = [b["slot"] for b in options["buy"] if b["reason"] is None]
            action = {"type": "reward", "seat": seat}
            if slots and (options["respect"] is not None or rng.random() < 0.5):
                refill = self._sample_beach(rng) if state["beach_deck"] else None
                return {**action, "choice": "buy", "slot": rng.choice(slots), "refill": refill}
            if options["respect"] is None:
                return {**action, "choice": "respect"}
            return {**action, "choice": "pass"}
        if phase == "ocean":
            left = state["ocean_left"]
            kind = rng.choices(OCEAN_KINDS, weights=[left[k] for k in OCEAN_KINDS])[0]
            return {"type": "ocean", "card": self._sample_wave(rng) if kind == "wave" else {"kind": kind}}
        # final
        action = {
            "type": "final",
            "stings": {
                str(i): [rng.choice(c["sting_values"]) for _ in range(seat["stings"])]
                for i, seat in enumerate(seats)
            },
        }
        if state["options"]["shared_goals"]:
            action["goals"] = {
                str(i): sorted(rng.sample(range(len(state["goals"])), rng.randint(0, len(state["goals"]))))
                for i in range(len(seats))
            }
        return action

    def _sample_wave(self, rng: random.Random) -> dict:
        return {
            "kind": "wave",
            "suit": rng.choice(self.suits),
            "points": rng.randint(*self.components["wave_points"]),
        }

    def _sample_beach(self, rng: random.Random) -> dict:
        c = self.components
        if rng.random() < 0.5:
            bonus = rng.randint(c["surfboard_bonus_min"], c["surfboard_bonus_min"] + 2)
            return {
                "kind": "surfboard",
                "suit": rng.choice(self.suits),
                "bonus": bonus,
                "cost": rng.randint(*c["surfboard_cost"]),
            }
        return {
            "kind": "energy",
            "value": rng.randint(*c["energy_value"]),
            "cost": rng.randint(*c["energy_cost"]),
        }
