"""An imported play's result as people read it (issue 42): from its seats, not from the pad's
snapshot, which keeps 0 for a score that was no number and marks every recorded winner as if a
tie had been settled.

- A side is a team (the pad's `teams`) or a seat alone. An import gives each member of a team the
  team's score, so a team's score is that one score, counted once (summed only when its members'
  scores differ: then they were each member's own).
- "wins the tie" only when a side that did not win has the winner's score; a winner without a
  score reads "wins", never "with 0 points"; a score that was no number shows as "—".
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.games.base import and_join

NO_SCORE = "—"


def side_score(scores: list[int | None], imported: bool) -> int | None:
    """A side's score: None when a member's is unknown; an imported team's copies count once."""
    if not scores or any(score is None for score in scores):
        return None
    if imported and len(set(scores)) == 1:
        return scores[0]
    return sum(scores)


def sides(table, seats: list) -> list[list]:
    """The play's sides in seat order: its teams, else each seat alone (seats of no team alone)."""
    options = table.options if isinstance(table.options, dict) else {}
    by_position = {seat.position: seat for seat in seats}
    teams = [[by_position[p] for p in team if p in by_position] for team in options.get("teams") or []]
    teams = [team for team in teams if team]
    placed = {seat.position for team in teams for seat in team}
    return teams + [[seat] for seat in seats if seat.position not in placed]


def headline(table, seats: list) -> str:
    """Who won, in a sentence, as the file recorded it."""
    options = table.options if isinstance(table.options, dict) else {}
    outcome = options.get("outcome", "points")
    if outcome == "coop":
        if any(seat.won for seat in seats):
            return _("Everyone won together")
        return _("The game won: everyone lost together")
    all_sides = sides(table, seats)
    won = [side for side in all_sides if any(seat.won for seat in side)]
    if not won:
        return _("Nobody won")
    who = and_join([seat.player.name for side in won for seat in side])
    many = len(won) > 1 or len(won[0]) > 1
    if outcome == "win_loss":
        return _("{who} win").format(who=who) if many else _("{who} wins").format(who=who)
    imported = bool(table.source)
    scores = [side_score([seat.score for seat in side], imported) for side in won]
    if len(won) > 1:
        if None in scores or len(set(scores)) > 1:
            return _("{who} share the win").format(who=who)
        return ngettext(
            "{who} share the win with {count} point", "{who} share the win with {count} points", scores[0]
        ).format(who=who, count=scores[0])
    score = scores[0]
    if score is None:
        return _("{who} win").format(who=who) if many else _("{who} wins").format(who=who)
    others = [side_score([seat.score for seat in side], imported) for side in all_sides if side not in won]
    if score in others:
        if many:
            return ngettext(
                "{who} win the tie with {count} point", "{who} win the tie with {count} points", score
            ).format(who=who, count=score)
        return ngettext(
            "{who} wins the tie with {count} point", "{who} wins the tie with {count} points", score
        ).format(who=who, count=score)
    if many:
        return ngettext(
            "{who} win with {count} point together", "{who} win with {count} points together", score
        ).format(who=who, count=score)
    return ngettext("{who} wins with {count} point", "{who} wins with {count} points", score).format(
        who=who, count=score
    )


def result(table, seats: list) -> dict:
    """The result card's fields (templates/tables/_result.html) for an imported play: the headline,
    and each seat's score as recorded ("—" for none), no breakdown (no rounds were kept)."""
    options = table.options if isinstance(table.options, dict) else {}
    outcome = options.get("outcome", "points")
    scored = any(seat.score is not None for seat in seats)
    return {
        "winner_text": headline(table, seats),
        "trophy": any(seat.won for seat in seats),  # a co-op loss, or nobody won: no trophy (issue 43)
        # A co-op play shows its shared score when it had one (AG-7).
        "breakdown_shown": outcome == "points" or (outcome == "coop" and scored),
        "breakdown_by_part": False,
        "breakdown_parts": [],
        "breakdown_rows": [
            {
                "name": seat.player.name,
                "values": [],
                "total": NO_SCORE if seat.score is None else seat.score,
                "winner": seat.won,
            }
            for seat in seats
        ],
    }
