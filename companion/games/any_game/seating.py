"""The seats' own options on a pad, checked once the number of players is known: teams (AG-8) and
roles (AG-10). A setup outside these is refused whole (HTTP 400), citing its ruling."""

from __future__ import annotations

from companion.games.words import _

from .. import names as name_rules
from ..base import BadAction, is_int, is_seat_key, shown

ROLE_MAX = 40


def refuse(message: str, rule: str) -> None:
    raise BadAction("bad_options", _("{message} ({rule}).").format(message=message, rule=rule))


def checked_teams(value, players: int, outcome: str) -> list[list[int]]:
    """AG-8: a list of teams, each a list of seats; every seat in exactly one, two teams at least,
    not in a co-op game. Kept with each team's seats in order, the teams by their first seat."""
    if value == []:
        return []
    if outcome == "coop":
        refuse(_("A co-op game is played by everyone together: it has no teams"), "AG-8")
    if not isinstance(value, list) or not all(
        isinstance(team, list) and all(is_int(seat) for seat in team) for team in value
    ):
        refuse(_("The teams are a list of teams, each a list of seat numbers, e.g. [[0, 2], [1, 3]]"), "AG-8")
    seats = [seat for team in value for seat in team]
    strangers = sorted({seat for seat in seats if not 0 <= seat < players})
    if strangers:
        refuse(
            _("This table has no seat {seat}: its seats are 0 to {last}").format(
                seat=strangers[0], last=players - 1
            ),
            "AG-8",
        )
    twice = sorted({seat for seat in seats if seats.count(seat) > 1})
    if twice:
        refuse(_("Seat {seat} is in two teams: each seat is in one team").format(seat=twice[0]), "AG-8")
    missing = sorted(set(range(players)) - set(seats))
    if missing:
        refuse(_("Seat {seat} is in no team: every seat is in one").format(seat=missing[0]), "AG-8")
    teams = [sorted(team) for team in value if team]
    if len(teams) < 2:
        refuse(_("Teams play against each other: two teams at least"), "AG-8")
    return sorted(teams)


def checked_roles(value, players: int) -> dict[str, str]:
    """AG-10: seat -> a role of up to 40 characters (a faction, a colour, a character)."""
    if not isinstance(value, dict):
        refuse(_('The roles are an object from seat to role, e.g. {{"0": "Red"}}'), "AG-10")
    roles = {}
    for key, role in value.items():
        if not is_seat_key(key) or int(key) >= players:
            refuse(_("A role's key is a seat of this table, not {shown}").format(shown=shown(key)), "AG-10")
        if not isinstance(role, str):
            refuse(_("Seat {key}'s role is a text, not {shown}").format(key=key, shown=shown(role)), "AG-10")
        role = name_rules.tidy(role)
        if (char := name_rules.hidden(role)) is not None:
            refuse(
                _(
                    "A role cannot hold invisible characters or ones that turn the text around ({char})"
                ).format(char=char),
                "AG-10",
            )
        if len(role) > ROLE_MAX:
            refuse(
                _("A role has at most {count} characters: {shown}").format(count=ROLE_MAX, shown=shown(role)),
                "AG-10",
            )
        if role:
            roles[str(int(key))] = role
    return dict(sorted(roles.items(), key=lambda item: int(item[0])))
