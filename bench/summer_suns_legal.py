"""How long engine.legal takes on a half-full default sheet (the legal-move list runs on every tap).

Builds a reachable state by random legal play until seat 0 has about half its slots written, rolls
dice, and prints the median of many timings of engine.legal(state, 0). No assertions.

    .venv/bin/python bench/summer_suns_legal.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.base import play  # noqa: E402
from companion.games.summer_suns import SHEETS, engine  # noqa: E402

RUNS = 5000


def half_full_state(seed: int = 1) -> dict:
    """A 2-seat game played at random until seat 0 has half the slots written, then freshly rolled."""
    half = len(SHEETS["default"].slot_ids) // 2
    rng = random.Random(seed)
    while True:
        state = engine.setup(2, {"sheet": "default"})
        while engine.result(state) is None:
            if state["phase"] == "roll" and len(state["seats"][0]["cells"]) >= half:
                return play(engine, state, {"type": "roll", "dice": [2, 4, 5]})
            state = play(engine, state, engine.sample_action(state, rng))
        seed += 1000
        rng = random.Random(seed)


def main() -> None:
    state = half_full_state()
    cells = state["seats"][0]["cells"]
    found = engine.legal(state, 0)
    timings = []
    for _ in range(RUNS):
        start = time.perf_counter()
        engine.legal(state, 0)
        timings.append(time.perf_counter() - start)
    median = statistics.median(timings) * 1e6
    print(
        f"engine.legal on the default sheet, {len(cells)} of {len(SHEETS['default'].slot_ids)} slots "
        f"written, dice {state['dice']}: {len(found['placements'])} placements; "
        f"median of {RUNS} runs {median:.1f} µs (min {min(timings) * 1e6:.1f} µs)"
    )


if __name__ == "__main__":
    main()
