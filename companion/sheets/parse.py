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

SCHEMA = Path(__file__).with_name("score-sheet.schema.json")
MAX_BYTES = 16_000  # the longest library sheet is under 3 kB
LANGUAGES = ("en", "fr")
PAD = AnyGame.slug  # the game a score sheet is played on


class SheetError(ValueError):
    """A sheet that cannot be played: `path` is a JSON pointer to the first wrong field."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path or '/'}: {message}")
        self.path, self.message = path or "/", message


@dataclass(frozen=True)
class ScoreSheet:
    document: dict  # the checked file, as read: what GET /api/v1/sheets/{id} gives back
    game = PAD

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
        }


def _language(language: str) -> str:
    return "fr" if (language or "").lower().startswith("fr") else "en"


@functools.cache
def _validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def parse(raw: bytes | str) -> ScoreSheet:
    """A sheet from its JSON text, or SheetError."""
    if len(raw) > MAX_BYTES:
        raise SheetError("", f"a sheet is at most {MAX_BYTES} bytes, this one is {len(raw)}")
    try:
        document = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise SheetError("", f"not JSON: {error}") from None
    return checked(document)


def checked(document) -> ScoreSheet:
    """The sheet if every field is right: the schema's bounds, then what a schema cannot say."""
    error = best_match(_validator().iter_errors(document))
    if error is not None:
        raise SheetError(_pointer(error.absolute_path), error.message)
    _check_texts(document)
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
    """(pointer, language, text) of every name a person reads."""
    for language in LANGUAGES:
        yield f"/name/{language}", language, document["name"][language]
        for index, line in enumerate(document.get("lines", [])):
            yield f"/lines/{index}/{language}", language, line[language]
            if "group" in line:
                yield f"/lines/{index}/group/{language}", language, line["group"][language]
        if "tie_breaker" in document:
            yield f"/tie_breaker/{language}", language, document["tie_breaker"][language]


def _check_texts(document: dict) -> None:
    """Every text is a name a person typed: trimmed, no hidden or turning characters; the lines
    (and the tie-breaker) of one language are named once each, ignoring case."""
    seen: dict[tuple[str, str], str] = {}
    for pointer, language, text in _texts(document):
        if names.tidy(text) != text:
            raise SheetError(pointer, "a name has no leading, trailing or doubled spaces")
        if (char := names.hidden(text)) is not None:
            raise SheetError(pointer, f"a name holds no invisible or turning characters ({char})")
        if "/group/" in pointer or pointer.startswith("/name/"):
            continue
        key = (language, text.casefold())
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
