"""Surf's Up! entries one tap at a time (issue 30): the setup's six cards, a reward, an ocean card.

Each card is tapped from the grid of faces (faces.py): an ocean card is one tap and posts; a beach
card is its face and then its cost. The choices so far live in the query (screen_kit.StepMachine),
so Back takes back the latest tap and a refresh keeps them.
"""

from __future__ import annotations

import json

from companion.games import registry, screen_kit
from companion.games.base import name_seats
from companion.games.surfs_up import faces
from companion.games.surfs_up.rules import card_name
from companion.games.words import _

SLOTS = (1, 2, 3)


def engine():
    return registry.get("surfs-up")


class CardSteps(screen_kit.StepMachine):
    """What every Surf's Up! entry shares: a grid of faces, a cost, the action posted as JSON."""

    def __init__(self, state: dict, names: list[str], query: dict):
        super().__init__(state, query)
        self.names = names

    def posted(self, action: dict) -> dict:
        return {"action": json.dumps(action)}

    def says(self, action: dict) -> str:
        return screen_kit.log_words(engine(), self.state, action, self.names)

    @staticmethod
    def face_options(cards: list[dict], key: str) -> list[dict]:
        """One option a face: it links on with `key` set to its code."""
        return [face_option(face, {key: faces.code(face)}) for face in cards]

    def beach_card(
        self, query: dict, face_key: str, cost_key: str, title: str
    ) -> tuple[dict | None, dict | None]:
        """The beach card chosen in `face_key` and `cost_key`, or the step that asks for what is
        missing (its face from the grid, then its cost)."""
        face = faces.card(query.get(face_key, ""))
        if face is None or face["kind"] not in ("surfboard", "energy"):
            return None, {
                "name": "beach",
                "title": title,
                "options": self.face_options(faces.beach(), face_key),
            }
        cost = query.get(cost_key, "")
        if screen_kit.number(cost) not in faces.costs(face):
            named = face_name(face)
            return None, {
                "name": "cost",
                "title": _("{card}: its cost?").format(card=named),
                "options": [
                    {"label": str(n), "hint": _("respect"), "set": {cost_key: str(n)}}
                    for n in faces.costs(face)
                ],
            }
        return {**face, "cost": int(cost)}, None


def face_option(face: dict, set_: dict) -> dict:
    big, small = faces.label(face)
    return {
        "label": big,
        "hint": small,
        "set": set_,
        "face": True,
        "group": faces.group(face),
        "colour": faces.colour(face),
    }


def face_name(face: dict) -> str:
    """A face in words before its cost is known: 'the orange surfboard (+2)', 'temporary energy 6'."""
    if face["kind"] == "surfboard":
        return _("the {suit} surfboard (+{bonus})").format(suit=_(face["suit"]), bonus=face["bonus"])
    if face["kind"] == "energy":
        return _("temporary energy {value}").format(value=face["value"])
    return card_name(face)


class SetupSteps(CardSteps):
    """The surf's three waves (breakzone first), then the beach's three cards (SU-3)."""

    KEYS = ("w1", "w2", "w3", "b1", "c1", "b2", "c2", "b3", "c3")
    UNDO = tuple((key,) for key in reversed(KEYS))

    def _step(self, query: dict) -> dict:
        surf = []
        for i in SLOTS:
            wave = faces.card(query.get(f"w{i}", ""))
            if wave is None or wave["kind"] != "wave":
                return {
                    "name": "surf",
                    "title": _("Wave 1 in the surf: the breakzone, closest to the beach")
                    if i == 1
                    else _("Wave {number} in the surf").format(number=i),
                    "so_far": self.so_far(surf, []),
                    "options": self.face_options(faces.waves(), f"w{i}"),
                }
            surf.append(wave)
        beach = []
        for i in SLOTS:
            found, ask = self.beach_card(query, f"b{i}", f"c{i}", _("Beach card {number}").format(number=i))
            if ask:
                return {**ask, "so_far": self.so_far(surf, beach)}
            beach.append(found)
        action = {"type": "setup", "surf": surf, "beach": beach}
        if self.state["options"].get("shared_goals"):
            # The goals are typed (SU-13): a form of their own, with the cards posted beside them.
            return {
                "name": "goals",
                "title": _("The three shared goals"),
                "options": [],
                "so_far": self.so_far(surf, beach),
                "fields": self.posted(action),
            }
        return {"name": "done", "action": action}

    @staticmethod
    def so_far(surf: list[dict], beach: list[dict]) -> str:
        parts = []
        if surf:
            parts.append(_("the surf: {cards}").format(cards=", ".join(card_name(c, "a") for c in surf)))
        if beach:
            parts.append(_("the beach: {cards}").format(cards=", ".join(card_name(c, "a") for c in beach)))
        return "; ".join(parts)


class OceanSteps(CardSteps):
    """The next ocean card: one tap on its face posts it (SU-3)."""

    def _step(self, query: dict) -> dict:
        return {
            "name": "ocean",
            "title": _("Turn over the next ocean card"),
            "options": [
                {**face_option(face, {}), "action": {"type": "ocean", "card": face}}
                for face in faces.ocean(self.state["ocean_left"])
            ],
        }


class RewardSteps(CardSteps):
    """The winner's, then the runner-up's reward (SU-7): +1 respect, a purchase (with the card that
    refills the beach: its face, then its cost), or a pass when nothing else is possible."""

    KEYS = ("buy", "b", "c")
    UNDO = (("c",), ("b",), ("buy",))

    def _step(self, query: dict) -> dict:
        options = engine().reward_options(self.state)
        seat = options["seat"]
        named = lambda reason: name_seats(reason, self.names) if reason else ""  # noqa: E731
        buys = {buy["slot"]: buy for buy in options["buy"]}
        slot = query.get("buy", "")
        chosen = buys.get(screen_kit.number(slot))
        if chosen is None or chosen["reason"]:
            return self._choices(seat, options, named)
        bought = {"type": "reward", "seat": seat, "choice": "buy", "slot": chosen["slot"]}
        if self.state["beach_deck"] == 0:  # SU-N13: nothing refills the space
            return {"name": "done", "action": {**bought, "refill": None}}
        title = _("{name} buys {card}: the new beach card from the deck?").format(
            name=self.names[seat], card=card_name(chosen["card"])
        )
        refill, ask = self.beach_card(query, "b", "c", title)
        return ask or {"name": "done", "action": {**bought, "refill": refill}}

    def _choices(self, seat: int, options: dict, named) -> dict:
        take = {"type": "reward", "seat": seat}
        choices = [
            {
                "label": _("+1 respect"),
                "action": {**take, "choice": "respect"},
                "disabled": named(options["respect"]),
            }
        ]
        for buy in options["buy"]:
            label = (
                _("Buy {card}").format(card=card_name(buy["card"])) if buy["card"] else _("Empty beach space")
            )
            choices.append(
                {"label": label, "set": {"buy": str(buy["slot"])}, "disabled": named(buy["reason"])}
            )
        if not options["pass"]:
            choices.append({"label": _("Pass: nothing is possible"), "action": {**take, "choice": "pass"}})
        return {"name": "reward", "title": "", "options": choices}
