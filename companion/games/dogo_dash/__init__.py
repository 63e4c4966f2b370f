"""Dogo Dash: simultaneous reveals of cats, dogs, bears, cookies and good boys (seeds/003, DD-1..DD-11)."""

from .rules import DogoDash

engine = DogoDash()

__all__ = ["DogoDash", "engine"]
