"""Page text as a player reads it: the ruling ids' links (rule_links) reduced to their ids."""

import re

RULE_LINK = re.compile(r'<a class="rule-link" href="[^"]*" title="[^"]*">([^<]*)</a>')


def read(html: str) -> str:
    return RULE_LINK.sub(r"\1", html)
