"""Ratings beyond wins and averages (issue 16): an OpenSkill rating per player and game, from the
Plackett-Luce model (multiplayer, ties; open, unlike the patented TrueSkill), run over the game's
finished plays in the order they finished.

Computed from the plays on every read, so an undo back into progress, an abandon, an import or a
merge of two players changes the ratings with nothing stored to go stale. Two queries for a game,
whatever its number of plays; the model's work grows with the plays (~40 µs a play)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from openskill.models import PlackettLuce

from companion.tables.models import Player, Seat, Table

from . import stats


@dataclass(frozen=True)
class Rated:
    player: Player
    mu: float  # the skill the model believes
    sigma: float  # how unsure it is: wide at first, narrowing with every play
    plays: int

    @property
    def rating(self) -> float:
        """The skill the model is nearly sure of (mu - 3 sigma): the leaderboard's order."""
        return self.mu - 3 * self.sigma


def game_ratings(key: str) -> list[Rated]:
    """Every player of the game `key` (a history key), best rating first."""
    return boards([key])[key]


def boards(keys: list[str]) -> dict[str, list[Rated]]:
    """The leaderboard of each game of `keys`, from one pass over their plays (two queries)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    plays = Table.objects.filter(status=stats.FINISHED, played__in=keys).order_by("finished", "pk")
    model = PlackettLuce()
    ratings: dict[str, dict] = {key: {} for key in keys}
    counts: dict[tuple[str, int], int] = {}
    players: dict[int, Player] = {}
    for table in plays.prefetch_related(seats):
        seated = list(table.seats.all())
        ranks = stats.seat_ranks(table, seated)
        if len(seated) < 2 or None in ranks:  # a solo play, or a seat without a score: no ranking
            continue
        game = ratings[table.played]
        teams = [[game.get(seat.player_id) or model.rating()] for seat in seated]
        for seat, (rating,) in zip(seated, model.rate(teams, ranks=ranks), strict=True):
            game[seat.player_id] = rating
            counts[table.played, seat.player_id] = counts.get((table.played, seat.player_id), 0) + 1
            players[seat.player_id] = seat.player
    return {
        key: sorted(
            (Rated(players[pid], r.mu, r.sigma, counts[key, pid]) for pid, r in game.items()),
            key=lambda one: (-one.rating, one.player.name.lower()),
        )
        for key, game in ratings.items()
    }


def player_ratings(player: Player, keys: list[str]) -> dict[str, dict]:
    """Per game of `keys`: the player's rating and place among that game's players."""
    found = {}
    for key, board in boards(keys).items():
        for place, one in enumerate(board, 1):
            if one.player.pk == player.pk:
                found[key] = {"rated": one, "place": place, "of": len(board)}
    return found
