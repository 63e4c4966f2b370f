"""A login's device in a few words ("Firefox · Android"), for the account page: enough for a person
to tell their phone from their laptop, nothing more is read from the User-Agent."""

from __future__ import annotations

# Checked in order: Edge and Opera say "Chrome" too, Chrome says "Safari".
BROWSERS = [
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
]
SYSTEMS = [
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
]


def describe(user_agent: str) -> str:
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    if browser and system:
        return f"{browser} · {system}"
    return browser or system or user_agent[:40]
