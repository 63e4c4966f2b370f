"""G-1 and G-2 as checks every refusal must pass: a 422 names a ruling that exists (a heading of a
registered game's RULES.md, a note of ADOPTED.md or NOTES.md, or one of shared/RULINGS.md's
rulings for every game, carried here so the suite runs without shared/) and cites it in its sentence;
no sentence, 400 or 422, carries a program's words (None, True, False, a Python type or repr);
a 422 names no bare field (`slot_die`, 'refill'). The engine tests' refuse() and the hostile walk
run these on every refusal they meet; a scan of the engines' source checks that every
RuleViolation names one."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games import registry, rulebook

ROOT = Path(__file__).resolve().parents[2]
# shared/RULINGS.md's rulings for every game that no game's RULES.md restates (its "Every game").
EVERY_GAME = {"G-1", "G-2"}
NOTES = ROOT / "companion" / "games" / "NOTES.md"
ADOPTED = ROOT / "companion" / "games" / "ADOPTED.md"
RULING_ID = re.compile(r"^- ([A-Z]{1,2}-N?\d+)\b", re.MULTILINE)
PROGRAM_WORDS = re.compile(r"\b(None|True|False|NoneType|dict|str|int|bool|float)\b|<class ")
CLIENT_TEXT = re.compile(r'"(?:[^"\\]|\\.)*"')
BARE_FIELD = re.compile(r"\b[a-z]+_[a-z_]+\b|'[a-z_]+'")


def ruling_ids() -> set[str]:
    """Every ruling id the project can cite: each game's RULES.md's, and the project's own notes'."""
    found = set(EVERY_GAME)
    for slug in registry.GAMES:
        found |= rulebook.rules(slug).ids()
    for notes in (NOTES, ADOPTED):
        found |= set(RULING_ID.findall(notes.read_text(encoding="utf-8")))
    assert {"HF-9", "SU-14", "DD-9", "SS-10", "G-1", "HF-N9", "T-N1"} <= found, "a rulings file was not read"
    return found


KNOWN = ruling_ids()


def wording_problems(error) -> list[str]:
    """What is wrong with a refusal's wording (empty when it keeps G-1 and G-2)."""
    problems = []
    message = error.message
    # A text the client sent, quoted back in JSON (base.shown), is the client's own words: a key
    # "None" in it is not the program speaking (hypothesis sent {"None": null}).
    if PROGRAM_WORDS.search(CLIENT_TEXT.sub('""', message)):
        problems.append(f"a program's word in {message!r}")
    if not message.endswith("."):
        problems.append(f"not a sentence: {message!r}")
    if error.status == 422:
        if error.rule not in KNOWN:
            problems.append(f"the ruling {error.rule!r} of {error.code} is in no rulings file")
        elif error.rule not in message:
            problems.append(f"the sentence does not cite {error.rule}: {message!r}")
        if BARE_FIELD.search(CLIENT_TEXT.sub('""', message)):  # a client's "buy_shack" is its own word
            problems.append(f"a bare field name in {message!r}")
    return problems
