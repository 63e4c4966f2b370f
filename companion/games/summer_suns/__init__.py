"""62 Summer Suns: a roll-and-write with shared dice and one score sheet per seat (seeds/004, SS-1..SS-13)."""

from .rules import SummerSuns
from .sheet import SHEETS, Sheet, SheetError, load_sheet

engine = SummerSuns()

__all__ = ["SHEETS", "Sheet", "SheetError", "SummerSuns", "engine", "load_sheet"]
