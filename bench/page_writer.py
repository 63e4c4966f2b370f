"""The phone that writes a convention table's entries from its page (issue 45), as table.js does:
the share link opened, the table's page read, each entry posted as the page's form (its fields, the
CSRF token from the page's hx-headers, HX-Request) to the table's act address, its live region
taken from the answer.

It knows the table as the phone's player does: it holds the game's state itself, applying each
entry the server accepted with the game's own engine, and picks each next entry from the engine's
legal sample (never one that ends the game: a convention table plays on for the whole step).
"""

from __future__ import annotations

import json
import random
import time

from bench.loop import Phone, text_of
from companion.games import registry

# The games of a convention hall, and how often a table plays each: the score pad for the many
# games without rules here, then the checked ones (issue 45: "every game in the mix").
MIX = (("any-game", 0.4), ("hang-four", 0.2), ("summer-suns", 0.2), ("yahtzee", 0.1), ("dogo-dash", 0.1))
OPTIONS = {"any-game": {"game_name": "Wingspan"}}


def games_for(count: int, rng: random.Random) -> list[str]:
    """`count` tables' games in MIX's proportions (rounded, the rest the pad's), shuffled."""
    games = [game for game, share in MIX for _ in range(round(count * share))][:count]
    games += [MIX[0][0]] * (count - len(games))
    rng.shuffle(games)
    return games


def form_fields(game: str, action: dict) -> dict[str, str]:
    """The fields the game's page posts for `action` (what its screen's action_from_form reads)."""
    if game == "any-game":
        return {f"points_{seat}": str(points) for seat, points in action["points"].items()}
    if game == "summer-suns":
        return summer_suns_fields(action)
    if game == "dogo-dash":
        return dogo_dash_fields(action)
    return {"action": json.dumps(action)}  # Hang Four and Yahtzee: the button's whole action


def summer_suns_fields(action: dict) -> dict[str, str]:
    if action["type"] == "roll":
        return {"type": "roll", **{f"die_{i}": str(die) for i, die in enumerate(action["dice"])}}
    fields = {"type": action["type"], "seat": str(action["seat"])}
    for key in ("slot_die", "write_die", "sun", "sun_die", "slot"):
        if key in action:
            fields[key] = str(action[key])
    if action.get("crab"):
        fields["crab"] = ",".join(action["crab"])
    if "bonus" in action:
        fields["bonus_slot"], fields["bonus_value"] = action["bonus"]["slot"], str(action["bonus"]["value"])
    return fields


def dogo_dash_fields(action: dict) -> dict[str, str]:
    if action["type"] == "collect":
        return {f"dash_{seat}": "on" for seat in action["dogo_dash"]}
    fields = {f"card_{seat}": card for seat, card in action["cards"].items()}
    return {**fields, **{f"card_{seat}": "catnip" for seat in action.get("catnip", [])}}


class PageWriter(Phone):
    """The table's writing phone: its page open, its entries posted as the page posts them."""

    def __init__(self, base: str, table, bench, game: str):
        super().__init__(base, table, bench)
        self.game, self.engine = game, registry.get(game)
        self.state = table.state
        self.csrf = ""

    def show(self, region: str) -> None:
        super().show(region)
        if "hx-headers=" in region:  # the whole page: its CSRF token, as table.js reads it
            headers = region.split("hx-headers='", 1)[1].split("'", 1)[0]
            self.csrf = json.loads(headers)["X-CSRFToken"]

    def next_action(self, rng: random.Random) -> dict | None:
        """A legal entry that does not end the game, or None when the table has none left."""
        for _ in range(50):
            action = self.engine.sample_action(self.state, rng)
            if action.get("type") in ("finish", "abandon"):
                continue
            after = self.engine.apply(self.state, action)
            if self.engine.result(after) is None:
                return action
        return None

    async def write(self, rng: random.Random) -> float | None:
        """One entry from the page: the seconds from its post to the last byte of its answer (the
        region the phone swaps in), or None when the table has nothing left to enter."""
        action = self.next_action(rng)
        if action is None:
            return None
        fields = {
            **form_fields(self.game, action),
            "expected_version": str(self.version),
            "idempotency_key": f"{self.table.id}-{self.version}",
            "csrfmiddlewaretoken": self.csrf,
        }
        headers = {"HX-Request": "true", "X-CSRFToken": self.csrf}
        started = time.perf_counter()
        async with self.http.post(f"/t/{self.table.id}/act/", data=fields, headers=headers) as answer:
            body = await text_of(answer)
        elapsed = time.perf_counter() - started
        outcome = answer.headers.get("Companion-Outcome")
        if answer.status != 200 or outcome != "applied":
            raise self.bench.BenchError(
                f"{self.game} entry {action} on table {self.table.id} answered {answer.status} {outcome}: "
                f"{body[:300]!r}"
            )
        self.state = self.engine.apply(self.state, action)
        self.show(body)
        self.table.version = self.version
        return elapsed
