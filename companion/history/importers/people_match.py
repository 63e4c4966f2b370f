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
    chosen = {key.casefold(): value for key, value in (chosen or {}).items() if isinstance(key, str)}
    players = list(Player.objects.filter(group=group))
    by_id = {player.pk: player for player in players}
    by_name = {player.name.casefold(): player for player in players}
    origins = dict(PersonOrigin.objects.filter(group=group).values_list("key", "player_id"))
    keys_of = defaultdict(set)
    for key, player_id in origins.items():
        keys_of[player_id].add(key)
    taken = set(by_name)
    claimed: set[int] = set()
    chosen_new: dict[str, str] = {}  # new players the member named: a later person of that name is them
    entries: dict[str, dict] = {}

    def found(person: Person, player: Player, how: str) -> None:
        claimed.add(player.pk)
        entries[person.key] = _entry(person, player.name, new=False, guest=player.guest, how=how)

    def new(person: Person, name: str, how: str) -> None:
        name = free_name(name, taken)
        taken.add(name.casefold())
        entries[person.key] = _entry(person, name, new=True, guest=person.guest, how=how)

    order = sorted(people.values(), key=lambda person: -person.plays)  # sorted() keeps file order on ties
    for person in order:
        wanted = chosen.get(person.label.casefold())
        if wanted:
            where = _("The player chosen for {name}").format(name=person.label)
            target = typed_name(wanted, where, _("the name"), NAME_MAX)
            if (player := by_name.get(target.casefold())) is not None:
                found(person, player, "chosen")
            elif target.casefold() in chosen_new:
                entries[person.key] = _entry(
                    person, chosen_new[target.casefold()], True, person.guest, "chosen"
                )
            else:
                new(person, target, "chosen")
                chosen_new[target.casefold()] = entries[person.key]["player"]
            continue
        player_id = next((origins[key] for key in person.identities if key in origins), None)
        if player_id is not None and player_id in by_id:
            found(person, by_id[player_id], "identity")
    for person in order:
        if person.key in entries:
            continue
        if (person.label or person.name).casefold() in chosen_new:
            name = chosen_new[(person.label or person.name).casefold()]
            entries[person.key] = _entry(person, name, new=True, guest=person.guest, how="chosen")
            continue
        player = by_name.get(person.name.casefold())
        if (
            player is not None
            and player.pk not in claimed
            and player.guest == person.guest
            and not _someone_else(keys_of[player.pk], person.identities)
        ):
            found(person, player, "name")
        else:
            new(person, person.label or person.name, "new")
    return {key: entries[key] for key in people}  # in the file's order


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
