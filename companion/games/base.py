"""The engine interface every game implements, its errors, and the fixed order of checks.

An engine is a pure, deterministic object: state in, state out, JSON-able dicts only. It never
rolls or shuffles; dice and revealed cards arrive as actions that name their value.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import orjson

from companion.games.elision import elide_before
from companion.games.words import _, gettext_noop


class ActionError(Exception):
    """An action that is refused. `status` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, code: str, message: str, rule: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "rule": self.rule}


class BadAction(ActionError):
    """The action is malformed: a missing field, a wrong type, an unknown kind (HTTP 400)."""

    status = 400


class RuleViolation(ActionError):
    """A well-formed action that the rules forbid now (HTTP 422). Names its ruling."""

    status = 422


class Engine(Protocol):
    slug: str
    name: str
    min_players: int
    max_players: int
    options: dict  # option name -> default value
    action_types: tuple[str, ...]  # every action type the game knows
    action_shapes: dict[str, dict[str, Field]]  # action type -> field -> its shape, checked by play
    action_fields: dict[str, set[str]]  # action type -> the fields it may carry (more: a 400)
    end_rule: str  # the ruling that ends the game: cited when an entry comes after the end (G-1)
    players_rule: str  # the ruling on the seats: cited for a seat the table does not have
    # Optional: option_labels (option -> the new-table form's label), option_choices (option -> values),
    # new_table_heading (the new-table form's heading, when "New <name> table" reads badly),
    # seat_options (option -> "team" or "text": asked per seat, beside each name), option_applies
    # (option -> {other option: [values]}: the form shows it only there).

    def not_now(self, state: dict, kind: str, seat: int | None = None) -> RuleViolation:
        """The refusal of a well-formed `kind` the game does not accept now: what comes next, in a
        player's words, citing the ruling that says so (G-1). `seat`: the action's, when it names one
        (a type refused for every seat may say why for this one)."""

    def not_your_turn(self, state: dict, kind: str, seat: int) -> RuleViolation:
        """The refusal of `seat` acting now: whose turn or reward it is, and the ruling (G-1)."""

    def setup(self, players: int, options: dict) -> dict: ...

    def expect(self, state: dict) -> dict:
        """{"actions": [types accepted now], "seats": [seats that may or must act]}; empty when over."""

    def apply(self, state: dict, action: dict) -> dict:
        """The new state (a copy). Raises BadAction for a malformed action, RuleViolation otherwise."""

    def scores(self, state: dict) -> list[dict]:
        """Per seat, in seat order: {"seat", "total", "breakdown": {part: points}}."""

    def result(self, state: dict) -> dict | None:
        """{"winners": [seats], "end_reason": str} once the game is over, else None."""

    def describe(self, before: dict, action: dict, after: dict, names: list[str]) -> str:
        """The action as one sentence for the log, e.g. "Ann revealed a cookie, Ben a cat": `after`
        is the state base.play gave for `action` on `before` (the engine never applies it again)."""

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        """A random legal action for the current state (for conformance and property tests)."""

    def entries(self, state: dict, seat: int) -> dict:
        """What `seat` may enter now, and why not (turns.Turned): {"allowed": [types], "refused":
        {type: refusal}}. Optional beside it: `legal(state, seat)`, the game's own listing of its
        entries (62 Summer Suns' placements, a roll-and-write's marks); base.legal joins them."""


@dataclass(frozen=True)
class PlayedGame:
    """The game a table's play counts as in the history. A game with its own engine is itself; a
    pad that keeps the score of any game (an engine with `played_game(options)`) names the game it
    was set up for, and the history keeps each name as a game of its own."""

    title: str = ""  # the game's name as set up; "" when the engine is the game
    bgg_id: int = 0  # its BoardGameGeek id (BG Stats' bggId), 0 when unknown
    highest_wins: bool = True
    no_points: bool = False  # won or lost, no scores (BG Stats' noPoints)
    cooperative: bool = False  # everyone wins or loses together: no rating moves
    teams: bool = False  # rated team against team


def played_game(engine: Engine, options: dict) -> PlayedGame:
    played = getattr(engine, "played_game", None)
    return played(options) if played else PlayedGame()


@dataclass(frozen=True)
class Rolled:
    """The dice an entry brought to the table, for the history's luck (history/night.py): who
    rolled them (None: the table's shared dice), their faces as numbers, and what a fair die of
    theirs averages. An engine whose entries roll says it with `rolled(state, action)`."""

    seat: int | None
    faces: tuple[int, ...]
    fair_mean: float


def rolled(engine: Engine, state: dict, action: dict) -> Rolled | None:
    """The dice `action` rolls in `state` (before it is played), or None: not a roll, or a game
    whose dice are not random rolls (Yahtzee's entry is the dice a player kept)."""
    said = getattr(engine, "rolled", None)
    return said(state, action) if said else None


def rolls_dice(engine: Engine) -> bool:
    return getattr(engine, "rolled", None) is not None


def points_kept(engine: Engine, state: dict) -> bool:
    """Whether a play has scores (a pad's game won or lost, or its co-op game without a score,
    has none: AG-7); every engine with its own rules keeps points."""
    kept = getattr(engine, "points_kept", None)
    return kept(state) if kept else True


def is_pad(engine: Engine) -> bool:
    """An engine for many games: its plays are listed under the games it was set up for."""
    return hasattr(engine, "played_game")


def history_key(slug: str, title: str) -> str:
    """What the history groups plays by: the slug, or for a pad the slug and the game's name
    ignoring case ("any-game:carcassonne")."""
    return f"{slug}:{title.casefold()}" if title else slug


# ---------------------------------------------------------------------------------------------
# Shared helpers


def require(condition: bool, message: str | Callable[[], str], code: str = "bad_action") -> None:
    """Raise BadAction unless the action has the expected shape. `message` may be a function that
    says it: a check made on every entry then translates and formats its refusal only when it
    refuses (issue 13: said on every entry, they were two thirds of applying a Hang Four action)."""
    if not condition:
        raise BadAction(code, message() if callable(message) else message)


def fresh_copy(state: dict) -> dict:
    """A deep copy of a JSON state, by an orjson round trip: about 8x faster than copy.deepcopy on
    a game's state (issue 13), and the state is plain JSON by contract (the conformance test)."""
    try:
        return orjson.loads(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))
    except orjson.JSONEncodeError:  # text no database stores (a lone surrogate): the service
        return copy.deepcopy(state)  # refuses it before the engine, a direct caller may not


def shown(value: Any) -> str:
    """A value as the client wrote it, in JSON's words (null, true, "text"), cut short: refusals
    quote what was sent, never a Python repr (G-2)."""
    if value is None:
        return _("empty (null)")
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = _("a value that is not JSON")
    return text if len(text) <= 40 else text[:37] + "..."


def and_join(words: list[str], last: str = "and") -> str:
    """["Ann", "Ben", "Cleo"] -> "Ann, Ben and Cleo" ("or" with last="or"), in the language
    chosen; one word alone; nothing for none."""
    if len(words) <= 1:
        return "".join(words)
    joiner = _("or") if last == "or" else _("and")
    return ", ".join(words[:-1]) + f" {joiner} " + words[-1]


@cache
def seat_mention(word: str) -> re.Pattern:
    """A seat as a sentence says it: "Seat 2", or the word of the sentence's language ("Siège 2")."""
    said = sorted({"Seat", word})
    return re.compile(
        r"\b(?:" + "|".join(f"[{w[0].upper()}{w[0].lower()}]{re.escape(w[1:])}" for w in said) + r") (\d+)\b"
    )


def name_seats(message: str, names: list[str]) -> str:
    """Engines speak of seats as the API does ("Seat 2"); people read names ("Cleo") (G-2). The
    word for a seat is the catalog's, in the language the sentence was said in."""

    word = _("Seat {seat}").replace("{seat}", "").strip() or "Seat"
    said, start = [], 0
    for match in seat_mention(word).finditer(message):
        seat = int(match.group(1))
        if seat < len(names):  # "de Siège 0" is "d'Ann" (elision.py)
            said += [elide_before(message[start : match.start()], names[seat]), names[seat]]
            start = match.end()
    return "".join(said) + message[start:]


JSON_KINDS = {
    bool: gettext_noop("true or false"),
    int: gettext_noop("a whole number"),
    str: gettext_noop("a text"),
    list: gettext_noop("a list"),
    dict: gettext_noop("an object"),
}


# The largest whole number a client may set where the app keeps one (a target, an id, a total):
# PostgreSQL's `integer` column holds 32 bits where SQLite's holds 64, so past this a number is
# refused (400) on both alike, before anything is written (issue 41).
WHOLE_MAX = 2**31 - 1
# A seat key's digits at most: far beyond any table's seats, and int() of it never refuses (a key
# of thousands of digits was a 500: Python converts at most 4,300).
SEAT_KEY_DIGITS = 9


def is_int(value: Any) -> bool:
    # bool is an int subclass in Python; JSON true is never a seat or a count.
    return isinstance(value, int) and not isinstance(value, bool)


def is_seat_key(key: Any) -> bool:
    """A seat as a JSON object's key, written one way only: "0", "12"; never "00", "+1", " 1" or
    "١" (which all read as a seat, so that "0" and "00" in one object would drop a value)."""
    return (
        isinstance(key, str)
        and 0 < len(key) <= SEAT_KEY_DIGITS
        and key.isascii()
        and key.isdigit()
        and str(int(key)) == key
    )


def validate_options(engine: Engine, options: dict | None) -> dict:
    """The engine's defaults overlaid with `options`; unknown names or wrong types are BadAction."""
    options = options or {}
    require(isinstance(options, dict), lambda: _("Options must be an object."), "bad_options")
    merged = dict(engine.options)
    for name, value in options.items():
        if name not in engine.options:
            known = ", ".join(sorted(engine.options)) or "none"
            raise BadAction(
                "unknown_option",
                _("{name} has no option '{name2}' (known: {known}).").format(
                    name=engine.name, name2=name, known=known
                ),
            )
        default = engine.options[name]
        if type(value) is not type(default):
            raise BadAction(
                "bad_option",
                _("Option '{name}' must be {get}, not {shown}.").format(
                    name=name, get=_(JSON_KINDS.get(type(default), "a value")), shown=shown(value)
                ),
            )
        merged[name] = value
    return merged


def seat_range(engine: Engine, options: dict) -> tuple[int, int]:
    """The fewest and most players of a table with these options: the engine's, or narrower where
    its options say (a rules sheet's own players, for an engine with `seat_range`)."""
    said = getattr(engine, "seat_range", None)
    return said(options) if said else (engine.min_players, engine.max_players)


def check_players(engine: Engine, players: int) -> None:
    if not (engine.min_players <= players <= engine.max_players):
        raise BadAction(
            "bad_player_count",
            _("{name} is for {min_players} to {max_players} players, not {players}.").format(
                name=engine.name,
                min_players=engine.min_players,
                max_players=engine.max_players,
                players=players,
            ),
        )


def action_kind(engine: Engine, action: Any, fields: dict[str, set[str]] | None = None) -> str:
    """The action's type, after the shape checks every game shares: an object, a known type and,
    with `fields` (type -> allowed field names), no field the type does not have. BadAction else."""
    require(isinstance(action, dict), lambda: _("The action must be an object."))
    kind = action.get("type")
    require(isinstance(kind, str) and kind != "", lambda: _("The action needs a 'type' string."))
    known = engine.action_types
    require(
        kind in known,
        lambda: _("{name} has no action {shown}: use {join}.").format(
            name=engine.name, shown=shown(kind), join=" or ".join(map(repr, known))
        ),
    )
    if fields is not None:
        extra = sorted(set(action) - fields[kind])
        require(
            not extra,
            lambda: _("A {kind} has no field {join}.").format(kind=kind, join=", ".join(map(shown, extra))),
        )
    return kind


# ---------------------------------------------------------------------------------------------
# Declared shapes (issue 31): an engine may say each action type's fields once, as `action_shapes`
# (type -> field -> Field), and play checks them before apply, a 400 with a sentence for the first
# field that is wrong. Its apply then reads fields it knows are well formed.


@dataclass(frozen=True)
class Field:
    """One field of an action: what a sentence calls the value it wants, and the test it passes,
    or `check(value, state)`, which raises the game's own BadAction (a field whose sentence names
    the part of the value that is wrong, or whose values the table's setup decides)."""

    wants: str = ""  # marked with gettext_noop: "a seat number", "five dice, each 1 to 6"
    test: Callable[[Any], bool] | None = None
    required: bool = True  # JSON null means left out, in every game (G-2)
    check: Callable[[Any, dict], None] | None = None
    missing: str | None = None  # the sentence when it is left out, if not "A {kind} needs ..."
    judges_null: bool = False  # `check` also says what is wrong with a field left out


def checked(check: Callable[[Any], Any], **options) -> Field:
    """A field whose own check reads its value alone (not the table): it raises the game's 400."""
    return Field(check=lambda value, state: check(value), **options)


def seat_field() -> Field:
    return Field(gettext_noop("a seat number (0, 1, ...)"), lambda value: is_int(value) and value >= 0)


def one_of(values: tuple[str, ...], wants: str) -> Field:
    return Field(wants, lambda value: isinstance(value, str) and value in values)


def whole_numbers(count: int, low: int, high: int, wants: str) -> Field:
    """A list of exactly `count` whole numbers, each from `low` to `high`."""
    return Field(
        wants,
        lambda value: (
            isinstance(value, list)
            and len(value) == count
            and all(is_int(item) and low <= item <= high for item in value)
        ),
    )


def declared_fields(shapes: dict[str, dict[str, Field]]) -> dict[str, set[str]]:
    """The action_fields of declared shapes: each type's fields and its "type"."""
    return {kind: {"type", *fields} for kind, fields in shapes.items()}


def check_shape(shapes: dict[str, dict[str, Field]], kind: str, action: dict, state: dict) -> None:
    """Each declared field of `action` in order: present when required, then of its shape."""
    for name, field in shapes[kind].items():
        value = action.get(name)
        if value is None and field.judges_null:
            field.check(value, state)
            continue
        if value is None:
            if field.required:
                raise BadAction("bad_action", _missing_text(kind, name, field))
            continue
        if field.test is not None and not field.test(value):
            raise BadAction(
                "bad_action",
                _("'{name}' must be {wants}, not {shown}.").format(
                    name=name, wants=_(field.wants), shown=shown(value)
                ),
            )
        if field.check is not None:
            field.check(value, state)


def _missing_text(kind: str, name: str, field: Field) -> str:
    if field.missing:
        return _(field.missing).format(kind=kind, name=name, field=name)
    return _("A {kind} needs '{name}': {wants}.").format(kind=kind, name=name, wants=_(field.wants))


def check_seat(engine: Engine, state: dict, seat: int) -> None:
    """A seat the table does not have is refused, citing the game's ruling on the seats (G-1)."""
    players = len(state["seats"])
    if not 0 <= seat < players:
        raise RuleViolation(
            "unknown_seat",
            _(
                "This table has {players} players, so there is no seat {seat} (seats "
                "are numbered 0 to {number}) ({players_rule})."
            ).format(players=players, seat=seat, number=players - 1, players_rule=engine.players_rule),
            engine.players_rule,
        )


def game_over_text(engine: Engine) -> str:
    return _("The game is over: no more entries can be made ({end_rule}).").format(end_rule=engine.end_rule)


def check_turn(engine: Engine, state: dict, kind: str, seat: int | None = None) -> None:
    """The checks every game shares, made by each engine's apply once the action's shape is
    checked (a malformed action is a 400 whatever the state) and before the game's own rules, in
    one fixed order: game over -> a seat the table does not have -> an action not accepted now ->
    a seat that may not act now. Every refusal cites its ruling (G-1)."""
    refusal = turn_refusal(engine, state, kind, seat)
    if refusal is not None:
        raise refusal


def turn_refusal(engine: Engine, state: dict, kind: str, seat: int | None = None) -> RuleViolation | None:
    """check_turn's refusal of `kind` by `seat` now, or None: the one order of the shared checks,
    asked by apply (which raises it) and by the legal listing (which tells it)."""
    if engine.result(state) is not None:
        return RuleViolation("game_over", game_over_text(engine), engine.end_rule)
    if seat is not None:
        try:
            check_seat(engine, state, seat)
        except RuleViolation as refused:
            return refused
    expected = engine.expect(state)
    if kind not in expected["actions"]:
        return engine.not_now(state, kind, seat)
    if seat is not None and expected["seats"] and seat not in expected["seats"]:
        return engine.not_your_turn(state, kind, seat)
    return None


def legal(engine: Engine, state: dict, seat: int) -> dict:
    """What `seat` may enter now for any game: the game's own listing where it has one, then the
    types allowed and the refusal of each other type (what GET /tables/{id}/legal answers)."""
    listing = engine.legal(state, seat) if hasattr(engine, "legal") else {}
    return {**listing, **engine.entries(state, seat)}


def play(engine: Engine, state: dict, action: Any) -> dict:
    """Apply `action`: its shape first (an object of a known type with only that type's fields,
    and the declared shape of each field where the engine declares them: a 400 otherwise), then
    engine.apply, which checks the rest of the shape (undeclared), then check_turn, then
    the game's own rules. The stale version is the service's check, before all of these."""
    kind = action_kind(engine, action, engine.action_fields)
    shapes = getattr(engine, "action_shapes", None)
    if shapes is not None:
        check_shape(shapes, kind, action, state)
    seat = action.get("seat")
    require(seat is None or is_int(seat), lambda: _("'seat' must be a seat number."))
    return engine.apply(state, action)  # each engine's apply works on a copy


def describe(engine: Engine, before: dict, action: Any, names: list[str]) -> str:
    """The log sentence of `action` on `before`, played through play (the one door into an engine)."""
    return engine.describe(before, action, play(engine, before, action), names)


def replay(engine: Engine, players: int, options: dict, actions: list[dict]) -> dict:
    """Rebuild a state from setup and its log (used by undo and by tests)."""
    state = engine.setup(players, options)
    for action in actions:
        state = play(engine, state, action)
    return state


def read_components(path, what: str, keys: tuple[str, ...]) -> tuple[dict, str]:
    """A components data file as a dict with exactly `keys` (keys starting with "_" are comments),
    and the phrase that names it in errors. A broken file raises ValueError naming the problem, so
    the app refuses to start with it (DESIGN.md: data files are checked when loaded)."""
    where = _("{what} components file {path}").format(what=what, path=path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{where} cannot be read: {error}") from error
    if not isinstance(data, dict):
        raise ValueError(f"{where} must hold an object.")
    missing = [key for key in keys if key not in data]
    if missing:
        raise ValueError(f"{where}: {', '.join(map(repr, missing))} missing.")
    unknown = sorted(key for key in data if key not in keys and not key.startswith("_"))
    if unknown:
        raise ValueError(f"{where}: unknown key {', '.join(map(repr, unknown))}.")
    return data, where
