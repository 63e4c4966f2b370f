"""A BG Stats export and a BoardGameGeek plays file, written for the tests as the apps write them
(shared/HISTORY_FORMATS.md): every case the importers must read, with the outcome each must give.

BG Stats (BGSTATS below), six plays, five imported:
  1 Catan 2024-03-01 20:15  Ann 10 (won), Ben "8.5" (rounded to 9), Anonymous guest "" (no score)
  2 Pandemic (co-op) 2024-03-08  Ann, Ben: won together; + the expansion "Pandemic: On the Brink"
  3 Pandemic (co-op) 2024-04-12  Ann, Cleo: lost together
  4 Codenames (no points, teams) 2024-04-19  Red: Ann, Cleo (won); Blue: Ben, Dan
  5 Catan 2024-05-03  Ann 9 and Ben 9, both marked winners (a tie shared); Cleo "n/a" (no number)
  6 Catan 2024-05-10  ignored in BG Stats: left out
Per player: Ann 5 plays 4 wins; Ben 4 plays 2 wins; Cleo 3 plays 1 win; Dan 1 play 0 wins;
Anonymous 1 play 0 wins.

BGG (BGG below), three <play> elements, four plays imported:
  101 Azul 2024-06-01 quantity 2: Ann 50 (win), Ben "49-46ish" (no number) -> two plays
  102 Azul 2024-06-02 incomplete -> left out
  103 Hanabi 2024-06-03 no scores: Ann and Ben win (a game without points)
"""

from __future__ import annotations

import json

GAMES = [
    {
        "id": 1,
        "uuid": "g-catan",
        "name": "Catan",
        "bggId": 13,
        "highestWins": True,
        "noPoints": False,
        "cooperative": False,
    },
    {
        "id": 2,
        "uuid": "g-pandemic",
        "name": "Pandemic",
        "bggId": 30549,
        "highestWins": True,
        "noPoints": False,
        "cooperative": True,
    },
    {"id": 3, "uuid": "g-brink", "name": "Pandemic: On the Brink", "bggId": 40849, "isExpansion": True},
    {
        "id": 4,
        "uuid": "g-codenames",
        "name": "Codenames",
        "bggId": 178900,
        "highestWins": True,
        "noPoints": True,
        "usesTeams": True,
    },
]
PLAYERS = [
    {"id": 11, "uuid": "p-ann", "name": "Ann", "isAnonymous": False},
    {"id": 12, "uuid": "p-ben", "name": "Ben", "isAnonymous": False},
    {"id": 13, "uuid": "p-cleo", "name": "Cleo", "isAnonymous": False},
    {"id": 14, "uuid": "p-dan", "name": "Dan", "isAnonymous": False},
    {"id": 15, "uuid": "p-anon", "name": "Anonymous player", "isAnonymous": True},
]


def score(player: int, points: str = "", winner: bool = False, **more) -> dict:
    return {"playerRefId": player, "score": points, "winner": winner, "rank": 0, **more}


PLAYS = [
    {
        "uuid": "play-1", "gameRefId": 1, "playDate": "2024-03-01 20:15:00", "durationMin": 75, "locationRefId": 21,
        "ignored": False, "comments": "First game of the year",
        "playerScores": [score(11, "10", True, seatOrder=1), score(12, "8.5", seatOrder=2), score(15, "", seatOrder=3)],
    },
    {
        "uuid": "play-2", "gameRefId": 2, "playDate": "2024-03-08 19:00:00", "durationMin": 45,
        "expansionPlays": [{"gameRefId": 3, "bggId": 40849}],
        "playerScores": [score(11, "", True), score(12, "", True)],
    },
    {
        "uuid": "play-3", "gameRefId": 2, "playDate": "2024-04-12 19:00:00", "durationMin": 50,
        "playerScores": [score(11), score(13)],
    },
    {
        "uuid": "play-4", "gameRefId": 4, "playDate": "2024-04-19 21:00:00", "durationMin": 20, "usesTeams": True,
        "playerScores": [
            score(11, "", True, team="Red", role="Spymaster"), score(12, "", False, team="Blue"),
            score(13, "", True, team="Red"), score(14, "", False, team="Blue", role="Spymaster"),
        ],
    },
    {
        "uuid": "play-5", "gameRefId": 1, "playDate": "2024-05-03 20:00:00", "durationMin": 90,
        "playerScores": [score(11, "9", True), score(12, "9", True), score(13, "n/a")],
    },
    {
        "uuid": "play-6", "gameRefId": 1, "playDate": "2024-05-10 20:00:00", "ignored": True,
        "playerScores": [score(11, "3"), score(12, "12", True)],
    },
]  # fmt: skip

BGSTATS = {
    "games": GAMES,
    "players": PLAYERS,
    "locations": [{"id": 21, "uuid": "l-home", "name": "Ann's place"}],
    "plays": PLAYS,
    "userInfo": {"meRefId": 11, "bggUsername": ""},
}


def bgstats(**changes) -> bytes:
    return json.dumps({**BGSTATS, **changes}).encode()


BGG = b"""<?xml version="1.0" encoding="utf-8"?>
<plays username="ann" userid="1" total="3" page="1" termsofuse="https://boardgamegeek.com/xmlapi/termsofuse">
  <play id="101" date="2024-06-01" quantity="2" length="40" incomplete="0" nowinstats="0" location="Club">
    <item name="Azul" objecttype="thing" objectid="230802"><subtypes><subtype value="boardgame"/></subtypes></item>
    <players>
      <player username="ann" userid="1" name="Ann" startposition="1" color="" score="50" new="0" rating="0" win="1"/>
      <player username="" userid="0" name="Ben" startposition="2" color="" score="49-46ish" new="0" rating="0" win="0"/>
    </players>
  </play>
  <play id="102" date="2024-06-02" quantity="1" length="0" incomplete="1" nowinstats="0" location="">
    <item name="Azul" objecttype="thing" objectid="230802"/>
    <players><player name="Ann" score="12" win="0"/></players>
  </play>
  <play id="103" date="2024-06-03" quantity="1" length="30" incomplete="0" nowinstats="0" location="">
    <item name="Hanabi" objecttype="thing" objectid="98778"/>
    <comments>A fine show</comments>
    <players>
      <player name="Ann" score="" win="1"/>
      <player name="Ben" score="" win="1"/>
    </players>
  </play>
</plays>
"""
