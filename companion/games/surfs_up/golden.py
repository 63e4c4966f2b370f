"""The golden playthrough's script: player names, options and every action of one scripted game.

tests/engines/golden_playthrough.py writes it step by step to golden.txt beside this file, so a rule
change shows as a readable diff. Regenerate after a deliberate change: make golden.
"""

from __future__ import annotations


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
SCRIPT = (
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
