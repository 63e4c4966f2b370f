"""The code's shape that issue 31 asks for, checked on the source: small functions in companion/."""

from __future__ import annotations

import ast
from pathlib import Path

COMPANION = Path(__file__).resolve().parents[1] / "companion"
LONGEST = 60  # lines, docstring and blank lines included


def sources() -> list[Path]:
    return [p for p in COMPANION.rglob("*.py") if "migrations" not in p.parts and "tests" not in p.parts]


def test_no_function_in_companion_is_longer_than_sixty_lines():
    long = [
        f"{path.relative_to(COMPANION.parent)}:{node.lineno} {node.name}"
        for path in sources()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > LONGEST
    ]
    assert not long, "functions over 60 lines: " + "; ".join(long)
