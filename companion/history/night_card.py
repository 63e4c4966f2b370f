"""The night's share card (issue 32): one PNG of the evening's results, drawn by the server with
Pillow (no outside service), for a phone to share or save. Pillow's own font (FreeType) draws the
text; a card holds the first twelve plays, then says how many more."""

from __future__ import annotations

import io

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1080, 1350
MARGIN = 72
SHOWN = 12
INK, SOFT, ACCENT, PAPER = (33, 37, 41), (108, 117, 125), (13, 110, 253), (255, 255, 255)


def png(story: dict, group_name: str) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    title, big, text, small = (ImageFont.load_default(size=size) for size in (64, 44, 36, 30))
    y = MARGIN
    draw.text((MARGIN, y), group_name, font=small, fill=SOFT)
    y += 48
    draw.text((MARGIN, y), date_format(story["day"], "l j F Y"), font=title, fill=INK)
    y += 100
    if story["champions"]:
        champion = ngettext(
            "Champion of the night: {names} ({wins} win)",
            "Champion of the night: {names} ({wins} wins)",
            story["champion_wins"],
        ).format(names=", ".join(story["champions"]), wins=story["champion_wins"])
        y = _wrapped(draw, champion, big, ACCENT, y) + 24
    for play in story["plays"][:SHOWN]:
        draw.text((MARGIN, y), play["game"], font=text, fill=INK)
        y += 46
        said = " — ".join(filter(None, [outcome(play), scores(play)]))
        line = _fitted(draw, said, small, WIDTH - 2 * MARGIN - 24)
        draw.text((MARGIN + 24, y), line, font=small, fill=SOFT)
        y += 56
    if len(story["plays"]) > SHOWN:
        more = _("and {count} more").format(count=len(story["plays"]) - SHOWN)
        draw.text((MARGIN, y), more, font=small, fill=SOFT)
    draw.text((MARGIN, HEIGHT - MARGIN - 30), "Table Companion", font=small, fill=SOFT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def outcome(play: dict) -> str:
    """A play's line under its game: who won, a co-op game won or lost together (issue 43), or
    nobody (a game left without a winner)."""
    if play.get("together"):
        return play["together"]
    if play["winners"]:
        return _("won by {names}").format(names=", ".join(play["winners"]))
    return _("nobody won")


def scores(play: dict) -> str:
    """Each player's score, where the play kept scores: "Ann 12 · Ben 9"."""
    return " · ".join(f"{name} {score}" for name, score in play["scores"] if score is not None)


def _fitted(draw: ImageDraw.ImageDraw, words: str, font, width: int) -> str:
    """`words`, cut with an ellipsis where the card's width ends."""
    if draw.textlength(words, font=font) <= width:
        return words
    while words and draw.textlength(words + "…", font=font) > width:
        words = words[:-1]
    return words.rstrip() + "…"


def _wrapped(draw: ImageDraw.ImageDraw, words: str, font, fill, y: int) -> int:
    """`words` over as many lines as the card's width needs; returns the y under them."""
    line = ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if draw.textlength(trial, font=font) > WIDTH - 2 * MARGIN and line:
            draw.text((MARGIN, y), line, font=font, fill=fill)
            y, line = y + font.size + 12, word
        else:
            line = trial
    draw.text((MARGIN, y), line, font=font, fill=fill)
    return y + font.size + 12
