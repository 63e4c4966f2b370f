"""Hang Four: surf dogs, sand dollars, a custom die and two decks (seeds/000, HF-1..HF-14)."""

from .rules import COMPONENTS, HangFour, load_components, place_card

engine = HangFour()

__all__ = ["COMPONENTS", "HangFour", "engine", "load_components", "place_card"]
