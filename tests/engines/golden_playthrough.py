"""Golden playthroughs: one scripted game per engine, written step by step to golden/<slug>.txt.

A rule change then shows up as a readable diff of that file. Regenerate after a deliberate change:

    python -m tests.engines.golden_playthrough dogo-dash     (or no slug: every game listed here)

Adding a game: put its (player names, options, actions) in SCRIPTS under its slug.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.games import registry
from companion.games.base import Engine, play, validate_options

GOLDEN_DIR = Path(__file__).with_name("golden")


def _reveal(cards: dict, catnip: list[int] | None = None) -> dict:
    action = {"type": "reveal", "cards": cards}
    if catnip:
        action["catnip"] = catnip
    return action


def _collect(dash: list[int]) -> dict:
    return {"type": "collect", "dogo_dash": dash}


# Dogo Dash, 3 players, both variants: a tie, a dash, a catnip, a split, cat+cookie, and the last round.
DOGO_DASH = (
    ["Ann", "Ben", "Cleo"],
    {"catnip": True, "dogo_dash": True},
    [
        # Round 1: Ben and Cleo tie on dogs; Ben's bear wins the tie-break; Cleo dashes.
        _reveal({"0": "cat", "1": "dog", "2": "dog"}),
        _reveal({"1": "bear", "2": "dog"}),
        _collect([2]),
        # Round 2: Ann plays catnip; Ben's cookie beats Cleo's bear.
        _reveal({"1": "cookie", "2": "bear"}, catnip=[0]),
        # Round 3: Ann and Ben tie until both hands are empty: they split 9, 4 each, 1 discarded.
        _reveal({"0": "bear", "1": "bear", "2": "cat"}),
        _reveal({"0": "good_boy", "1": "dog"}),
        _reveal({"0": "cat", "1": "cat"}),
        _reveal({"0": "dog", "1": "dog"}),
        # Round 4: a cat and a cookie: the cat wins whatever else is there (DD-3).
        _reveal({"0": "cookie", "1": "cat", "2": "bear"}),
        # Round 5: Ann's bear wins; Ben could dash but does not.
        _reveal({"0": "bear", "1": "dog", "2": "cat"}),
        _collect([]),
        # Round 6: a good boy forces a three-way tie; Ben's bear wins the tie-break; Cleo dashes again.
        _reveal({"0": "good_boy", "1": "cat", "2": "dog"}),
        _reveal({"0": "cat", "1": "bear", "2": "cat"}),
        _collect([2]),
        # Round 7: Cleo plays catnip; Ben's bear beats Ann's dog and Ann dashes.
        _reveal({"0": "dog", "1": "bear"}, catnip=[2]),
        _collect([0]),
        # Round 8: Cleo's bear beats two cats.
        _reveal({"0": "cat", "1": "cat", "2": "bear"}),
        # Round 9: Ann and Ben tie on bears, Ben's cookie wins; the refill runs short (Ann draws 1
        # of 2) and empties the deck: the next round is the last.
        _reveal({"0": "bear", "1": "bear", "2": "dog"}),
        _reveal({"0": "dog", "1": "cookie"}),
        _collect([]),
        # Round 10, the last: every other card in hand goes to the Super Pot; Cleo's bear takes all.
        _reveal({"0": "cat", "1": "dog", "2": "bear"}),
    ],
)


def _roll(a: int, b: int, c: int) -> dict:
    return {"type": "roll", "dice": [a, b, c]}


def _place(seat: int, slot_die: int, write_die: int, slot: str, **extra) -> dict:
    return {
        "type": "place",
        "seat": seat,
        "slot_die": slot_die,
        "write_die": write_die,
        "slot": slot,
        **extra,
    }


# 62 Summer Suns, 2 players, default sheet: Ann completes the cabins and the bottles and meets every
# sun bonus (12 a number, 22 a shell, 32/52/62 starfish); Ben shows a crab copy onto a hat, a bonus
# number on a hat slot (no sun choice) and one completing a cabin. Ann reaches 62 first in round 12;
# Ben still places, then the game ends (SS-12). Shells tie 3-3: both get 5 (SS-8).
SUMMER_SUNS = (
    ["Ann", "Ben"],
    {"sheet": "default"},
    [
        # Round 1: Ann's crab copies 5 from c2b to c2t (pearl); Ben's from s2 onto k6's hat: sun 6.
        _roll(2, 5, 6),
        _place(0, 0, 1, "c2b", crab=["c2t"]),
        _place(1, 2, 1, "s2", crab=["k6"], sun=6),
        # Round 2: both reach 12, a bonus number: Ann completes cabin 1, Ben writes on s7's hat.
        _roll(3, 3, 6),
        _place(0, 0, 1, "c1t", bonus={"slot": "c1b", "value": 3}),
        _place(1, 0, 1, "g2", bonus={"slot": "s7", "value": 3}),
        # Round 3: Ben places first this time.
        _roll(1, 1, 4),
        _place(1, 2, 0, "g1"),
        _place(0, 0, 1, "c3t"),
        # Round 4: Ann reaches 22: a shell.
        _roll(6, 1, 6),
        _place(0, 0, 1, "c3b"),
        _place(1, 0, 2, "k5"),
        # Round 5: Ann's sun hat on c4t: she chooses 4 instead of the third die's 1.
        _roll(6, 6, 1),
        _place(0, 0, 1, "c4t", sun=4),
        _place(1, 2, 0, "s6"),
        # Round 6: Ann completes the cabins and reaches 32: 2 starfish.
        _roll(1, 6, 6),
        _place(0, 0, 1, "c4b"),
        _place(1, 1, 2, "g3"),
        _roll(2, 2, 4),
        _place(0, 0, 1, "b1"),
        _place(1, 2, 0, "c1b"),
        # Round 8: Ann's crab copies 2 from b3 to b4; 42 gives her a bonus number: 2 in b5 (shell).
        _roll(4, 2, 6),
        _place(0, 0, 1, "b3", crab=["b4"], bonus={"slot": "b5", "value": 2}),
        _place(1, 1, 0, "k4"),
        # Round 9: Ann completes the bottles.
        _roll(5, 2, 4),
        _place(0, 0, 1, "b2"),
        _place(1, 0, 1, "g5"),
        # Round 10: Ann reaches 52: 3 starfish.
        _roll(1, 1, 6),
        _place(0, 0, 1, "k1"),
        _place(1, 2, 0, "c3b"),
        _roll(3, 3, 4),
        _place(0, 0, 1, "k2"),
        _place(1, 0, 2, "s4"),
        # Round 12: Ann reaches 62 (4 starfish); Ben still places (hat, 42, a bonus number), then
        # the game is over.
        _roll(5, 5, 6),
        _place(0, 0, 1, "k3"),
        _place(1, 2, 0, "c4t", sun=5, bonus={"slot": "c4b", "value": 5}),
    ],
)


def _hf_roll(face) -> dict:
    return {"type": "roll", "face": face}


def _hf_shack(card: str) -> dict:
    return {"type": "shack", "card": card}


def _hf_second(face, target: int | None = None, cards: list[dict] | None = None) -> dict:
    action = {"type": "shack_roll", "face": face}
    if target is not None:
        action["target"] = target
    if cards is not None:
        action["cards"] = cards
    return action


def _hf_buy(*cards: tuple[str, int | None]) -> dict:
    return {"type": "buy", "cards": [{"part": part, "dog": dog} for part, dog in cards]}


# Hang Four, 3 players: the 9 cap, two Seagulls against poor opponents (each
# leaving Ann above 9: she must buy), Snags that empty a Surf Dog (HF-14), a Wipe Out with nothing
# to lose and one that loses a lone tail, a Surf Shack second roll, and Ann's win at her 4th Surf Dog
# in the middle of a purchase (the purchase is placed whole first, HF-12).
HANG_FOUR = (
    ["Ann", "Ben", "Cleo"],
    {},
    [
        _hf_roll(5),
        _hf_roll(4),
        _hf_roll(3),
        # Ann holds 8: a 5 gives 1 (9 is the cap, HF-4).
        _hf_roll(5),
        # Ben completes his first Surf Dog; Cleo's second nose has no dog lacking one: a new dog (HF-7).
        _hf_buy(("nose", 0), ("tail", 0)),
        _hf_buy(("nose", 0), ("nose", None)),
        # Ann's Seagull: Ben pays his 1, Cleo nothing; Ann holds 10 and must buy (HF-10).
        _hf_roll("shack"),
        _hf_shack("seagull"),
        _hf_second(3),
        _hf_roll(2),
        _hf_roll(5),
        # Ann buys 3: a new Surf Dog, then the later cards join it by its new index.
        _hf_buy(("character", None), ("nose", 1), ("tail", 1)),
        # Ben pays 2 for a Snag: both of Cleo's noses; her lone-nose dog is removed (HF-14).
        {"type": "buy_shack"},
        _hf_shack("snag"),
        _hf_second(
            2,
            target=2,
            cards=[{"dog": 0, "part": "nose", "to_dog": None}, {"dog": 1, "part": "nose", "to_dog": None}],
        ),
        # Cleo's Wipe Out finds no unprotected board.
        _hf_roll("shack"),
        _hf_shack("wipeout"),
        _hf_second(4, cards=[]),
        _hf_roll(5),
        _hf_roll(4),
        _hf_roll(4),
        # Ann's second Seagull: 4 from each; she holds 14 and must buy.
        _hf_roll("shack"),
        _hf_shack("seagull"),
        _hf_second(4),
        _hf_roll(5),
        _hf_roll(3),
        _hf_buy(("nose", 0), ("tail", 0), ("character", None), ("nose", 2)),
        _hf_buy(("tail", 1)),
        _hf_buy(("tail", 0), ("tail", None)),
        # Ann's Snag on Ben: the tail completes her third dog; Ben's Surf Dog 3 (index 2 before the
        # action) loses its only card and is removed.
        {"type": "buy_shack"},
        _hf_shack("snag"),
        _hf_second(
            2,
            target=1,
            cards=[{"dog": 1, "part": "tail", "to_dog": 2}, {"dog": 2, "part": "nose", "to_dog": None}],
        ),
        # Ben's Seagull: the second roll shows the Surf Shack: nothing happens (HF-5).
        _hf_roll("shack"),
        _hf_shack("seagull"),
        _hf_second("shack"),
        # Cleo's Wipe Out with a 1: she picks her lone tail, and that Surf Dog is gone.
        _hf_roll("shack"),
        _hf_shack("wipeout"),
        _hf_second(1, cards=[{"dog": 1, "part": "tail"}]),
        _hf_roll(5),
        _hf_roll(3),
        _hf_roll(2),
        _hf_roll(4),
        _hf_roll(1),
        _hf_roll(1),
        # Ann's tail completes her 4th Surf Dog at card 2 of 3; the nose is still placed, then she wins.
        _hf_buy(("character", 3), ("tail", 3), ("nose", None)),
    ],
)


def _su_wave(suit: str, points: int) -> dict:
    return {"kind": "wave", "suit": suit, "points": points}


_SU_BLUEBOTTLE = {"kind": "bluebottle"}


def _su_board(suit: str, bonus: int, cost: int) -> dict:
    return {"kind": "surfboard", "suit": suit, "bonus": bonus, "cost": cost}


def _su_energy(value: int, cost: int) -> dict:
    return {"kind": "energy", "value": value, "cost": cost}


def _su_reveal(*cards) -> dict:
    return {"type": "reveal", "energy": {str(seat): card for seat, card in enumerate(cards)}}


def _su_reward(seat: int, choice: str, slot: int | None = None, refill: dict | None = None) -> dict:
    action = {"type": "reward", "seat": seat, "choice": choice}
    if choice == "buy":
        action.update(slot=slot, refill=refill)
    return action


def _su_ocean(card: dict) -> dict:
    return {"type": "ocean", "card": card}


# Surf's Up!, 4 players, shared goals: wipe outs of two and of three (same value AND respect),
# respect tie-breaks on the same value, rests in wave and bluebottle rounds (stung at 0), Ben's
# temporary 6 bought to the towel, rested back and trashed after winning with it, forced buys at
# 4 respect, and Ann trashing her last cards by winning: down to her rest card, the game ends
# (SU-10) after her reward; then the final entry of token values and goals.
SURFS_UP = (
    ["Ann", "Ben", "Cleo", "Dev"],
    {"shared_goals": True},
    [
        {
            "type": "setup",
            "surf": [_su_wave("blue", 3), _su_wave("orange", 7), _su_wave("purple", 5)],
            "beach": [_su_board("orange", 2, 3), _su_energy(6, 2), _su_board("blue", 1, 1)],
            "goals": [
                {"name": "Three waves of one suit", "points": 4},
                {"name": "Two surfboards", "points": 3},
                {"name": "No bluebottle", "points": 2},
            ],
        },
        # Round 1: Ben and Cleo wipe out (4, respect 2); Ann wins alone; Dev rests (+1 respect).
        _su_reveal(5, 4, 4, 0),
        _su_reward(0, "respect"),
        _su_ocean(_su_wave("blue", 6)),
        # Round 2: Ann and Ben both reveal 3: Ann's respect 3 beats Ben's 2. Ben buys temporary 6.
        _su_reveal(3, 3, 2, 1),
        _su_reward(0, "respect"),
        _su_reward(1, "buy", 1, _su_board("purple", 2, 2)),
        _su_ocean(_SU_BLUEBOTTLE),
        # Round 3: Ben rests and takes his towel back, the temporary 6 included; Dev's 5 (respect
        # 3) beats Cleo's 5 (respect 2).
        _su_reveal(4, 0, 5, 5),
        _su_reward(3, "buy", 0, _su_energy(7, 3)),
        _su_reward(2, "respect"),
        _su_ocean(_su_wave("orange", 8)),
        # Round 4: Ben wins with the temporary 6: trashed.
        _su_reveal(2, "t6", 3, 4),
        _su_reward(1, "respect"),
        _su_reward(3, "respect"),
        _su_ocean(_su_wave("purple", 2)),
        # Round 5, a bluebottle: Ann and Cleo rest and are stung (0 is the lowest).
        _su_reveal(0, 1, 0, 2),
        _su_ocean(_su_wave("blue", 4)),
        # Round 6: three 3s with different respect: no wipe out. Ann and Cleo are at 4: both buy.
        _su_reveal(4, 3, 3, 3),
        _su_reward(0, "buy", 1, _su_energy(5, 1)),
        _su_reward(2, "buy", 0, _su_board("orange", 3, 4)),
        _su_ocean(_su_wave("blue", 9)),
        # Round 7: Dev holds only his 0 and rests; Ben's 4 (respect 2) beats Cleo's 4 (respect 1).
        _su_reveal(2, 4, 4, 0),
        _su_reward(1, "respect"),
        _su_reward(2, "respect"),
        _su_ocean(_SU_BLUEBOTTLE),
        # Round 8: Ann, Cleo and Dev wipe out (1, respect 2); Ben wins alone.
        _su_reveal(1, 2, 1, 1),
        _su_reward(1, "buy", 2, _su_board("blue", 1, 2)),
        _su_ocean(_su_wave("orange", 3)),
        # Round 9: Ann must rest; Ben and Cleo wipe out on 5; Dev wins with 4.
        _su_reveal(0, 5, 5, 4),
        _su_reward(3, "respect"),
        _su_ocean(_su_wave("purple", 10)),
        # Round 10, a bluebottle: Ann and Ben rest and are stung.
        _su_reveal(0, 0, 2, 3),
        _su_ocean(_su_wave("orange", 1)),
        # Round 11: Ann's 2 (respect 4) beats Dev's 2 (respect 3); at 4 she must buy.
        _su_reveal(2, 1, 0, 2),
        _su_reward(0, "buy", 0, _su_energy(4, 2)),
        _su_reward(3, "respect"),
        _su_ocean(_SU_BLUEBOTTLE),
        # Round 12: Ann wins with her last 1; Ben and Cleo wipe out. Ann has only her rest card and
        # an empty towel: after her reward the game ends (SU-10).
        _su_reveal(1, 3, 3, 0),
        _su_reward(0, "respect"),
        {
            "type": "final",
            "stings": {"0": [-1, -3], "1": [0], "2": [-2], "3": []},
            "goals": {"0": [1], "1": [0, 1], "2": [], "3": [2]},
        },
    ],
)

SCRIPTS: dict[str, tuple[list[str], dict, list[dict]]] = {
    "dogo-dash": DOGO_DASH,
    "summer-suns": SUMMER_SUNS,
    "hang-four": HANG_FOUR,
    "surfs-up": SURFS_UP,
}


def _dump(value) -> str:
    return json.dumps(value, sort_keys=True, indent=None)


def render(engine: Engine, players: list[str], options: dict, actions: list[dict]) -> str:
    """The scripted game as text: setup, then per action its JSON, log sentence, state and expect."""
    options = validate_options(engine, options)
    state = engine.setup(len(players), options)
    lines = [
        f"# {engine.name} golden playthrough: {', '.join(players)}; options {_dump(options)}",
        "# Regenerate: python -m tests.engines.golden_playthrough " + engine.slug,
        "",
        "setup",
        f"state: {_dump(state)}",
        f"expect: {_dump(engine.expect(state))}",
    ]
    for step, action in enumerate(actions, 1):
        sentence = engine.describe(state, action, players)
        state = play(engine, state, action)
        lines += [
            "",
            f"step {step}",
            f"action: {_dump(action)}",
            f"log: {sentence}",
            f"state: {_dump(state)}",
            f"expect: {_dump(engine.expect(state))}",
        ]
    lines += ["", f"scores: {_dump(engine.scores(state))}", f"result: {_dump(engine.result(state))}"]
    return "\n".join(lines) + "\n"


def golden_path(slug: str) -> Path:
    return GOLDEN_DIR / f"{slug.replace('-', '_')}.txt"


def render_slug(slug: str) -> str:
    players, options, actions = SCRIPTS[slug]
    return render(registry.get(slug), players, options, actions)


def main(argv: list[str]) -> int:
    slugs = argv or list(SCRIPTS)
    unknown = [slug for slug in slugs if slug not in SCRIPTS]
    if unknown:
        print(f"No golden script for {', '.join(unknown)} (known: {', '.join(SCRIPTS)}).", file=sys.stderr)
        return 2
    GOLDEN_DIR.mkdir(exist_ok=True)
    for slug in slugs:
        golden_path(slug).write_text(render_slug(slug), encoding="utf-8")
        print(f"wrote {golden_path(slug)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
