"""Each game's rules as the app keeps them, in players' words: its folder's RULES.md (issue 15, "the
rule, one tap away"). Every ruling id a refusal or a log line cites has an entry there, so the id
is a link to its text; a group that edits a components file reads there what applies.

The file is plain: a "# Title" line, an optional paragraph, then "## <ID> <title>" and its text
for each ruling, in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from . import registry

HEADING = re.compile(r"^## ([A-Z]{2}-N?\d+) (.+)$")
RULING_ID = re.compile(r"\b([A-Z]{2}-N?\d+)\b")


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Rules:
    title: str
    intro: str
    rulings: tuple[Ruling, ...]

    def ids(self) -> frozenset[str]:
        return frozenset(ruling.id for ruling in self.rulings)


def rules_path(slug: str, language: str | None = None) -> Path:
    """RULES.md, or its translation RULES.<language>.md (issue 17) when the folder has one."""
    folder = registry.folder(slug)
    translated = folder / f"RULES.{language}.md"
    return translated if language and translated.exists() else folder / "RULES.md"


@cache
def rules(slug: str, language: str | None = None) -> Rules:
    """The game's rules in `language` (English when it has none), read once; a malformed file
    raises ValueError naming the line."""
    path = rules_path(slug, language)
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ValueError(f"{path}: the first line is the title, '# ...'.")
    intro, rulings, current = [], [], None
    for number, line in enumerate(lines[1:], 2):
        heading = HEADING.match(line)
        if heading:
            current = [heading.group(1), heading.group(2), []]
            rulings.append(current)
        elif line.startswith("#"):
            raise ValueError(f"{path}, line {number}: a ruling's heading is '## <ID> <title>'.")
        elif line.strip():
            (current[2] if current else intro).append(line.strip())
    entries = tuple(Ruling(id_, title, " ".join(text)) for id_, title, text in rulings)
    # A kit's engine may hold more rulings than its file: each library rules sheet's (issue 44).
    more = getattr(registry.get(slug), "more_rulings", None)
    if more is not None:
        entries += tuple(Ruling(*ruling) for ruling in more(language or "en"))
    return Rules(lines[0][2:].strip(), " ".join(intro), entries)


def cited(text: str) -> list[str]:
    """The ruling ids a sentence cites, in order."""
    return RULING_ID.findall(text)
