"""Roll-and-writes from their rules sheet (issue 44): the kit's engine, one for every sheet."""

from .rules import RollAndWrite

engine = RollAndWrite()

__all__ = ["RollAndWrite", "engine"]
