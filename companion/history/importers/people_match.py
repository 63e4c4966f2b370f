"""Who each person of a file is in the group (issue 42): found by who the file says they are
first (a BG Stats uuid, a BGG user id or username, remembered per group by earlier imports), then
as the member chose, then by name; a person found nowhere is a new player. Two people of one
name stay two: "Alex" and "Alex (alex_k)". Guests stay guests: players of their own, never ranked."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from companion.history.models import PersonOrigin
from companion.tables.models import Player

from .records import NAME_MAX, Person, free_name, typed_name

# Identities of one kind: a player who has one of a kind is not someone of another of that kind.
KINDS = ("bgstats:", "bgg-user:", "bgg-name:")


def match(group, people: dict[str, Person], chosen: dict[str, str] | None = None) -> dict[str, dict]:
    """Each person's entry (their key -> {"name": label, "player": the group's name, "new",
    "guest", "plays", "username", "how"}); `chosen` maps a label (or a name) to a player's name."""
    matching = _Matching(group, chosen)
    order = sorted(people.values(), key=lambda person: -person.plays)  # sorted() keeps file order on ties
    for person in order:  # first who the member chose, then who the file says they are
        if not matching.as_chosen(person):
            matching.by_identity(person)
    for person in order:  # then by name, else a new player
        if person.key not in matching.entries:
            matching.by_name_or_new(person)
    return {key: matching.entries[key] for key in people}  # in the file's order


class _Matching:
    """The group's players and what the matching has decided so far."""

    def __init__(self, group, chosen: dict[str, str] | None):
        self.chosen = {key.casefold(): value for key, value in (chosen or {}).items() if isinstance(key, str)}
        players = list(Player.objects.filter(group=group))
        self.by_id = {player.pk: player for player in players}
        self.by_name = {player.name.casefold(): player for player in players}
        self.origins = dict(PersonOrigin.objects.filter(group=group).values_list("key", "player_id"))
        self.keys_of = defaultdict(set)
        for key, player_id in self.origins.items():
            self.keys_of[player_id].add(key)
        self.taken = set(self.by_name)
        self.claimed: set[int] = set()
        self.chosen_new: dict[
            str, str
        ] = {}  # new players the member named: a later person of that name is them
        self.entries: dict[str, dict] = {}

    def found(self, person: Person, player: Player, how: str) -> None:
        self.claimed.add(player.pk)
        self.entries[person.key] = _entry(person, player.name, new=False, guest=player.guest, how=how)

    def new(self, person: Person, name: str, how: str) -> None:
        name = free_name(name, self.taken)
        self.taken.add(name.casefold())
        self.entries[person.key] = _entry(person, name, new=True, guest=person.guest, how=how)

    def as_chosen(self, person: Person) -> bool:
        """The player the member chose for `person`, if they chose one."""
        wanted = self.chosen.get(person.label.casefold())
        if not wanted:
            return False
        where = _("The player chosen for {name}").format(name=person.label)
        target = typed_name(wanted, where, _("the name"), NAME_MAX)
        if (player := self.by_name.get(target.casefold())) is not None:
            self.found(person, player, "chosen")
        elif target.casefold() in self.chosen_new:
            self.entries[person.key] = _entry(
                person, self.chosen_new[target.casefold()], True, person.guest, "chosen"
            )
        else:
            self.new(person, target, "chosen")
            self.chosen_new[target.casefold()] = self.entries[person.key]["player"]
        return True

    def by_identity(self, person: Person) -> None:
        player_id = next((self.origins[key] for key in person.identities if key in self.origins), None)
        if player_id is not None and player_id in self.by_id:
            self.found(person, self.by_id[player_id], "identity")

    def by_name_or_new(self, person: Person) -> None:
        named = (person.label or person.name).casefold()
        if named in self.chosen_new:
            self.entries[person.key] = _entry(
                person, self.chosen_new[named], new=True, guest=person.guest, how="chosen"
            )
            return
        player = self.by_name.get(person.name.casefold())
        if (
            player is not None
            and player.pk not in self.claimed
            and player.guest == person.guest
            and not _someone_else(self.keys_of[player.pk], person.identities)
        ):
            self.found(person, player, "name")
        else:
            self.new(person, person.label or person.name, "new")


def _someone_else(theirs: set[str], identities: list[str]) -> bool:
    """Whether a player known by `theirs` cannot be the person of `identities`: both have an
    identity of one kind, and not the same one."""
    return any(
        any(key.startswith(kind) for key in theirs)
        and any(key.startswith(kind) for key in identities)
        and not theirs.intersection(key for key in identities if key.startswith(kind))
        for kind in KINDS
    )


def _entry(person: Person, player: str, new: bool, guest: bool, how: str) -> dict:
    return {
        "name": person.label or person.name,
        "player": player,
        "new": new,
        "guest": guest,
        "plays": person.plays,
        "username": person.username,
        "how": how,
        "used": False,
    }


def remember(group, people: dict[str, Person], players: dict[str, Player]) -> None:
    """Who each person is, kept for the next import: their identities -> their player (a key the
    group has already keeps its player: the member's earlier choice stands)."""
    rows = [
        PersonOrigin(group=group, player=players[key], key=identity, data=person.data)
        for key, person in people.items()
        if key in players
        for identity in person.identities
    ]
    PersonOrigin.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
