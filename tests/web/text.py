"""Page text as a player reads it: the ruling ids' links (rule_links) reduced to their ids."""

import re

RULE_LINK = re.compile(r'<a class="rule-link" href="[^"]*" title="[^"]*">([^<]*)</a>')


def read(html: str) -> str:
    return RULE_LINK.sub(r"\1", html)


def spread(links: list[str], most: int = 6) -> list[str]:
    """A grid of card faces (Surf's Up!: 30 waves) leads to the same next step from every face:
    a few spread over it stand for all, so a walk three steps deep stays a few hundred pages."""
    if len(links) <= most * 2:
        return links
    return links[:: len(links) // most]
