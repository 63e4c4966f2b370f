"""The golden playthrough's script: player names, options and every action of one scripted game.

tests/engines/golden_playthrough.py writes it step by step to golden.txt beside this file, so a rule
change shows as a readable diff. Regenerate after a deliberate change: make golden.
"""

from __future__ import annotations


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
SCRIPT = (
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
