"""Any game: a score pad for every game the group plays that has no rules engine here (RULINGS
AG-1..AG-6). The app keeps the score and the history; the table keeps the rules."""

from .rules import AnyGame

engine = AnyGame()

__all__ = ["AnyGame", "engine"]
