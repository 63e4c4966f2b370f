"""Yahtzee screens: the five dice tapped one by one, then the box with what it would score (the
engine's `choices`, greyed with the ruling where it may not be filled), and every sheet."""

from __future__ import annotations

from companion.games import registry, screen_kit
from companion.games.base import name_seats
from companion.games.words import _, gettext_noop, ngettext

from .boxes import DICE, FACES, LOWER, UPPER, YAHTZEE_BONUS
from .boxes import label as box_label
from .rules import ROUNDS, seat_score, upper_total

BREAKDOWN = [
    ("upper", gettext_noop("Upper section")),
    ("bonus", gettext_noop("Upper bonus")),
    ("lower", gettext_noop("Lower section")),
    ("yahtzee_bonus", gettext_noop("Yahtzee bonuses")),
]
END_TEXTS = {"all_filled": gettext_noop("Every sheet is full: thirteen rounds.")}
PIPS = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


def engine():
    return registry.get("yahtzee")


def points_word(number: int) -> str:
    return ngettext("point", "points", number)


def context(data: dict, viewer: screen_kit.Viewer) -> dict:
    state = data["state"]
    names = [player["name"] for player in data["players"]]
    playing = data["status"] != "finished"
    step = None
    if viewer.can_edit and playing:
        step = Steps(state, names, viewer.query).resolve()
    return {
        "round": state["round"],
        "rounds": ROUNDS,
        "turn_name": names[state["turn"]],
        "scoreboard": screen_kit.scoreboard(data),
        **screen_kit.result(data, BREAKDOWN, END_TEXTS, points_word),
        "step": step,
        "sheet": sheet(state, names),
        "last": last_words(state, names),
    }


def sheet(state: dict, names: list[str]) -> dict:
    """Every player's sheet side by side: a row per box, a column per player."""
    seats = state["seats"]
    scores = [seat_score(seat) for seat in seats]

    def row(box: str) -> dict:
        return {"label": box_label(box), "values": [seat["boxes"][box] for seat in seats]}

    return {
        "names": names,
        "turn": state["turn"],
        "upper": [row(box) for box in UPPER],
        "upper_totals": [upper_total(seat) for seat in seats],
        "bonuses": [score["breakdown"]["bonus"] for score in scores],
        "lower": [row(box) for box in LOWER],
        "yahtzee_bonuses": [score["breakdown"]["yahtzee_bonus"] for score in scores],
        "totals": [score["total"] for score in scores],
    }


def last_words(state: dict, names: list[str]) -> str:
    last = state["last"]
    if not last:
        return ""
    return _("{name}: {dice} · {points} in {box}").format(
        name=names[last["seat"]],
        dice=dice_words(last["dice"]),
        points=last["points"],
        box=box_label(last["box"]),
    )


def dice_words(dice: list[int]) -> str:
    return " ".join(str(face) for face in sorted(dice, reverse=True))


def read_dice(text: str) -> list[int]:
    """The dice tapped so far, from the query ("6,6,2"): what is not a face is left out."""
    faces = [face for face in map(screen_kit.number, text.split(",")) if face in FACES]
    return faces[:DICE]


class Steps(screen_kit.TurnSteps):
    """The turn's entry: five taps for the dice as they lie, then one for the box."""

    SLUG = "yahtzee"
    KEYS = ("d",)
    UNDO = (("d",),)
    LIST_KEYS = frozenset({"d"})

    def _step(self, query: dict) -> dict:
        dice = read_dice(query.get("d", ""))
        name = self.names[self.seat]
        if len(dice) < DICE:
            return {
                "name": "dice",
                "title": _("{name}'s turn: tap the five dice as they lie after the last throw").format(
                    name=name
                ),
                "dice": [PIPS[face] for face in sorted(dice, reverse=True)],
                "left": DICE - len(dice),
                "options": [
                    {"label": str(face), "set": {"d": ",".join(map(str, [*dice, face]))}, "face": True}
                    for face in FACES
                ],
            }
        dice = sorted(dice, reverse=True)
        choices = engine().choices(self.state, self.seat, dice)
        filled = [choice for choice in choices if choice.refusal and choice.refusal.code == "box_filled"]
        return {
            "name": "box",
            "title": _("{name} threw {dice}: which box?").format(name=name, dice=dice_words(dice)),
            "dice": [PIPS[face] for face in dice],
            "left": 0,
            # A filled box is never a choice again (YZ-3): named once, not a greyed button each turn.
            "filled": filled_words(filled),
            "options": [self._box_option(choice, dice) for choice in choices if choice not in filled],
        }

    def _box_option(self, choice, dice: list[int]) -> dict:
        label = box_label(choice.box)
        if choice.refusal is not None:  # the joker's (YZ-8): greyed, with why
            return {"label": label, "detail": "", "disabled": name_seats(choice.refusal.message, self.names)}
        detail = str(choice.points)
        if choice.bonus:
            detail = _("{points} + bonus {bonus}").format(points=choice.points, bonus=YAHTZEE_BONUS)
        action = {"type": "score", "seat": self.seat, "dice": dice, "box": choice.box}
        return {"label": label, "detail": detail, "action": action, "zero": choice.points == 0}


def filled_words(filled: list) -> str:
    if not filled:
        return ""
    boxes = ", ".join(box_label(choice.box) for choice in filled)
    return _("Filled already: {boxes} (YZ-3).").format(boxes=boxes)


def action_from_form(post, data: dict) -> dict:
    """Every Yahtzee button posts its whole action as JSON; the engine checks it."""
    return screen_kit.json_action(post)
