"""Surf's Up!: energy bids for waves, respect, the beach and bluebottles (seeds/001, SU-1..SU-13)."""

from .rules import COMPONENTS, SurfsUp, load_components

engine = SurfsUp()

__all__ = ["COMPONENTS", "SurfsUp", "engine", "load_components"]
