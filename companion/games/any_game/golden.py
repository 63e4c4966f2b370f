"""The golden playthrough's script: player names, options and every action of one scripted game.

tests/engines/golden_playthrough.py writes it step by step to golden.txt beside this file, so a rule
change shows as a readable diff. Regenerate after a deliberate change: make golden.
"""

from __future__ import annotations


def _round(*points: int) -> dict:
    return {"type": "score", "points": {str(seat): value for seat, value in enumerate(points)}}


# Hearts on the pad, 4 players, the lowest total wins, first to 100 ends it (AG-5, AG-6): a shoot
# the moon (26 to everyone else), a negative correction typed by hand, and the round that takes Dan
# past 100 ends the game at once; Ben and Cleo tie for the lowest total and share the win.
SCRIPT = (
    ["Ann", "Ben", "Cleo", "Dan"],
    {"game_name": "Hearts", "bgg_id": 6887, "lowest_wins": True, "target": 100},
    [
        _round(13, 4, 9, 0),
        _round(0, 26, 0, 0),
        _round(26, 0, 26, 26),  # Ben shoots the moon
        _round(5, 8, 3, 10),
        _round(-5, 0, 0, 5),  # a mistake of the last round, put right by hand
        _round(20, 10, 10, 26),
        _round(0, 6, 6, 14),
        _round(0, 0, 0, 26),  # Dan reaches 107: the pad ends
    ],
)
