"""A score sheet read from a file or a request: bounded, checked field by field, then as a pad.

A sheet comes from strangers (a group's own, later): it is at most MAX_BYTES of JSON, its schema
bounds every list and text, and nothing in it runs: a sheet is names and choices, never code. The
first wrong field is named by its path ("/lines/3/en") with what is wrong there."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from companion.games import names
from companion.games.any_game.rules import AnyGame
from companion.games.base import BadAction, validate_options

SCHEMA = Path(__file__).with_name("score-sheet.schema.json")  # and rules-sheet.schema.json beside it
MAX_BYTES = 32_000  # the longest library score sheet is under 3 kB, a rules sheet under 12 kB
LANGUAGES = ("en", "fr")
SHOWN_VALUE = 60  # characters of a wrong value said back in a refusal
PAD = AnyGame.slug  # the game a score sheet is played on


class SheetError(ValueError):
    """A sheet that cannot be played: `path` is a JSON pointer to the first wrong field."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path or '/'}: {message}")
        self.path, self.message = path or "/", message


@dataclass(frozen=True)
class Sheet:
    """What every sheet says of itself, whatever its kind: its id, BoardGameGeek id and names."""

    document: dict  # the checked file, as read: what GET /api/v1/sheets/{id} gives back

    @property
    def id(self) -> str:
        return self.document["id"]

    @property
    def bgg_id(self) -> int:
        return self.document["bgg_id"]

    def name(self, language: str = "en") -> str:
        return self.document["name"][_language(language)]

    def names(self) -> set[str]:
        return {self.document["name"][language] for language in LANGUAGES}


@dataclass(frozen=True)
class ScoreSheet(Sheet):
    game = PAD

    def lines(self, language: str = "en") -> list[dict]:
        """The lines in order, in one language: {"name", "against", "group"} (group None or a name)."""
        language = _language(language)
        return [
            {
                "name": line[language],
                "against": bool(line.get("against")),
                "group": line["group"][language] if "group" in line else None,
            }
            for line in self.document.get("lines", [])
        ]

    def table_options(self, language: str = "en", own: bool = False) -> dict:
        """The options of a table that plays this sheet: the pad's (its lines are copied in)."""
        return self.pad_options(language)

    def pad_options(self, language: str = "en") -> dict:
        """The score pad's options that play this sheet (AG-1, AG-4..AG-7), in one language."""
        language, doc = _language(language), self.document
        tie = doc.get("tie_breaker")
        categories = [line["name"] for line in self.lines(language)] + ([tie[language]] if tie else [])
        return {
            "game_name": doc["name"][language],
            "bgg_id": doc["bgg_id"],
            "outcome": doc["outcome"],
            "mode": "categories" if categories else "rounds",
            "categories": categories,
            "lowest_wins": doc.get("wins") == "lowest",
            "target": doc.get("end_at", 0),
            "against": [line["name"] for line in self.lines(language) if line["against"]],
            "tie_breaker": tie[language] if tie else "",
            "tie_breaker_lowest": bool(tie and tie["wins"] == "lowest"),
            "headings": {line["name"]: line["group"] for line in self.lines(language) if line["group"]},
        }


def _language(language: str) -> str:
    return "fr" if (language or "").lower().startswith("fr") else "en"


@functools.cache
def _validator(schema_file: str) -> Draft202012Validator:
    schema = json.loads(SCHEMA.with_name(schema_file).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def check_against(schema_file: str, document) -> None:
    """SheetError at the first wrong field the JSON Schema finds (its most relevant, by best_match)."""
    error = best_match(_validator(schema_file).iter_errors(document))
    if error is not None:
        raise SheetError(_pointer(error.absolute_path), _in_json(error))


def _in_json(error) -> str:
    """The schema's message with the wrong value as the sheet's author wrote it, in JSON and cut
    short (jsonschema says it in Python's words and whole: [None, None, ... 25 times])."""
    message = error.message
    if error.validator in ("maxItems", "maxLength"):  # "too long" says by how much it may be
        message += f" (at most {error.validator_value})"
    said = repr(error.instance)
    if said not in message:
        return message
    shown = json.dumps(error.instance, ensure_ascii=False)
    if len(shown) > SHOWN_VALUE:
        shown = shown[: SHOWN_VALUE - 1] + "…"
    return message.replace(said, shown, 1)


def read(raw: bytes | str):
    """A sheet's JSON text as a document (bounded), or SheetError."""
    if len(raw) > MAX_BYTES:
        raise SheetError("", f"a sheet is at most {MAX_BYTES} bytes, this one is {len(raw)}")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise SheetError("", f"not JSON: {error}") from None


def parse(raw: bytes | str) -> ScoreSheet:
    """A score sheet from its JSON text, or SheetError."""
    return checked(read(raw))


def checked(document) -> ScoreSheet:
    """The sheet if every field is right: the schema's bounds, then what a schema cannot say."""
    check_against("score-sheet.schema.json", document)
    check_names(_texts(document))
    _check_groups(document.get("lines", []))
    sheet = ScoreSheet(document)
    for language in LANGUAGES:  # the pad judges the rest (AG-1: names, counts, lengths)
        try:
            AnyGame().setup(2, validate_options(AnyGame(), sheet.pad_options(language)))
        except BadAction as refusal:
            raise SheetError("", f"{language}: {refusal.message}") from None
    return sheet


def _pointer(path) -> str:
    return "".join(f"/{part}" for part in path)


def _texts(document: dict):
    """(pointer, what must be unique among, text) of every name a person reads: the lines and the
    tie-breaker of one language are named once each."""
    for language in LANGUAGES:
        yield f"/name/{language}", None, document["name"][language]
        for index, line in enumerate(document.get("lines", [])):
            yield f"/lines/{index}/{language}", ("line", language), line[language]
            if "group" in line:
                yield f"/lines/{index}/group/{language}", None, line["group"][language]
        if "tie_breaker" in document:
            yield f"/tie_breaker/{language}", ("line", language), document["tie_breaker"][language]


def check_names(texts) -> None:
    """Every text is a name a person typed: trimmed, no hidden or turning characters; those with
    the same key are each named once, ignoring case."""
    seen: dict[tuple, str] = {}
    for pointer, unique_among, text in texts:
        if names.tidy(text) != text:
            raise SheetError(pointer, "a name has no leading, trailing or doubled spaces")
        if (char := names.hidden(text)) is not None:
            raise SheetError(pointer, f"a name holds no invisible or turning characters ({char})")
        if unique_among is None:
            continue
        key = (unique_among, text.casefold())
        if key in seen:
            raise SheetError(pointer, f"{text!r} is already the name of {seen[key]}")
        seen[key] = pointer


def _check_groups(lines: list[dict]) -> None:
    """A group's lines stand together: a heading names one run of lines."""
    runs: list[str] = []
    for index, line in enumerate(lines):
        key = line["group"]["en"] if "group" in line else None
        if key is not None and key in runs and runs[-1] != key:
            raise SheetError(f"/lines/{index}/group", f"the lines of the group {key!r} stand together")
        if not runs or runs[-1] != key:
            runs.append(key)
