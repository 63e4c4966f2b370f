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


# The apps in one direction (issue 31): groups below tables below history. The modules every app
# shares (the JSON API's plumbing, the tokens, the charts) sit below all three.
LAYERS = {"groups": 0, "tables": 1, "history": 2}
SHARED = ("json_api.py", "tokens.py", "charts.py")


def imported(tree: ast.AST, module: str) -> list[tuple[str, bool]]:
    """(the companion module each import names, whether it is inside a function), for `module`'s tree."""
    found = []
    in_function = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:  # relative: within the module's own package
                name = ".".join(module.split(".")[: -node.level] + ([name] if name else []))
            names = [name] + [f"{name}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [(name, id(node) in in_function) for name in names if name.startswith("companion.")]
    return found


def app_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_tables_groups_and_history_import_each_other_in_one_direction_only():
    upward, in_functions = [], []
    for path in sources():
        relative = path.relative_to(COMPANION.parent).with_suffix("")
        module = ".".join(relative.parts)
        own = app_of(module)
        if own is not None:
            level = LAYERS[own]
        elif path.parent == COMPANION and path.name in SHARED:
            level = -1  # below every app: imports none
        else:
            continue  # the project's wiring (urls, settings, middleware) sees every app
        for name, inside in imported(ast.parse(path.read_text(encoding="utf-8")), module):
            other = app_of(name)
            if other is None or other == own:
                continue
            if LAYERS[other] > level:
                upward.append(f"{module} imports {name}")
            elif inside and own is not None:
                in_functions.append(f"{module} imports {name} inside a function")
    assert not upward, "an app imports one above it: " + "; ".join(upward)
    assert not in_functions, "; ".join(in_functions)
