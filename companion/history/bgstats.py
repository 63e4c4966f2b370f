"""A "Send to BG Stats" link: the play in the format BG Stats documents for other apps
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).

`playDate` is in UTC (issue 29): BG Stats' description gives the format ("2020-10-23 19:16:58") and
no zone, the apps that send it send UTC (shared/HISTORY_FORMATS.md: three independent ones), and
BG Stats shows the play at the phone's local time; a local time sent as is would shift every
play by the phone's offset. Pinned by tests/history/test_pages.py."""

from __future__ import annotations

import datetime as dt
import json
from urllib.parse import quote

from companion.games import base, registry
from companion.tables.models import Table

from . import stats

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html?data="


def play_data(table: Table) -> dict:
    """The play as BG Stats reads it. `table` comes from stats.archive (seats and length loaded)."""
    seats = list(table.seats.all())
    facts = base.played_game(registry.get(table.game), table.options)
    ranks = stats.seat_ranks(table, seats)
    started = (table.first_entry or table.created).astimezone(dt.UTC)
    team_of = {seat: n for n, team in enumerate(table.options.get("teams") or [], 1) for seat in team}
    roles = table.options.get("roles") or {}
    return {
        "sourceName": "Table Companion",
        "sourcePlayId": table.id,
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": stats.length_minutes(table) or 0,
        "location": table.place,
        "comments": table.comments,
        "board": "",
        "game": {
            "name": table.game_name,
            "sourceGameId": table.played,
            **({"bggId": facts.bgg_id} if facts.bgg_id else {}),
            "highestWins": facts.highest_wins,
            "noPoints": facts.no_points,
        },
        "players": [
            {
                "name": seat.player.name,
                "sourcePlayerId": str(seat.player_id),
                "score": seat.score,
                "winner": seat.won,
                "rank": rank,
                "startPlayer": seat.position == 0,
                "role": roles.get(str(seat.position), ""),
                **({"team": str(team_of[seat.position])} if team_of else {}),
            }
            for seat, rank in zip(seats, ranks, strict=True)
        ],
    }


def play_link(table: Table) -> str:
    data = json.dumps(play_data(table), ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY_URL + quote(data, safe="")
