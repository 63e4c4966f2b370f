"""Yahtzee: five dice, three throws a turn, thirteen boxes, bonuses and jokers (RULES.md, YZ-1..YZ-9)."""

from .rules import Yahtzee

engine = Yahtzee()

__all__ = ["Yahtzee", "engine"]
