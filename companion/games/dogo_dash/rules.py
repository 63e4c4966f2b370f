"""Dogo Dash rules (seeds/003_ca09bca1fb7a5bdd.txt, rulings DD-1..DD-11 in RULINGS.md).

A round: every seat reveals one card at once (one `reveal` action carries all of them), the
strongest kind takes the pot, tied seats reveal again among themselves, then hands refill from the
deck. Hands are secret, so the state holds only counts; what the engine can check is that a reveal
never shows more of a kind than the deck holds, given what has been seen face up (DD-11).

A round's life: phase "reveal" (first reveal, then tie-breaks) -> optionally "collect" (the
Dogo Dash variant: losers who revealed a dog may dash) -> refill -> next round, or "over".
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from companion.games.words import _, gettext_noop, ngettext

from ..base import (
    RuleViolation,
    and_join,
    check_players,
    check_seat,
    check_turn,
    checked,
    declared_fields,
    fresh_copy,
    is_int,
    is_seat_key,
    read_components,
    require,
    shown,
)
from ..turns import Phase, Said, Turned, Turns, said_seat

KINDS = ("cat", "dog", "bear", "cookie", "good_boy")
# DD-2: the kinds each kind beats. A good boy beats nothing: it forces a tie (DD-3).
BEATS = {
    "cat": {"cookie"},
    "dog": {"cat"},
    "bear": {"dog", "cat"},
    "cookie": {"dog", "bear"},
    "good_boy": set(),
}
BREAKDOWN = ("won", "split", "catnip", "dash")

COMPONENTS_FILE = Path(__file__).with_name("components.json")


def load_components(path: Path) -> tuple[dict[str, int], int]:
    """The deck list and hand size from `path`; a broken file raises ValueError naming the problem."""
    data, where = read_components(path, "Dogo Dash", ("deck", "hand_size"))
    deck, hand = data["deck"], data["hand_size"]
    if not isinstance(deck, dict) or set(deck) != set(KINDS):
        raise ValueError(f"{where}: 'deck' must count exactly {', '.join(KINDS)}.")
    if not all(is_int(n) and n >= 0 for n in deck.values()):
        raise ValueError(f"{where}: every count in 'deck' must be a whole number >= 0.")
    if not is_int(hand) or hand < 1:
        raise ValueError(f"{where}: 'hand_size' must be a whole number >= 1.")
    # Five seats must be dealt and still leave a deck to draw from (DD-1).
    if sum(deck.values()) <= 5 * hand:
        raise ValueError(f"{where}: the deck is too small to deal 5 hands of {hand}.")
    return {kind: deck[kind] for kind in KINDS}, hand


DECK, HAND_SIZE = load_components(COMPONENTS_FILE)
DECK_TOTAL = sum(DECK.values())


# ---------------------------------------------------------------------------------------------
# Helpers


def strongest(cards: dict[int, str]) -> tuple[str, list[int]]:
    """DD-3: the strongest kind of a reveal and the seats that revealed it (several: a tie)."""
    kinds = set(cards.values())
    if len(cards) == 1:
        # Pinned decision: a seat revealing alone wins, even with a good boy (there is nobody to tie).
        kind = next(iter(kinds))
    elif "good_boy" in kinds:
        return "good_boy", sorted(cards)
    elif "cat" in kinds and "cookie" in kinds:
        kind = "cat"  # DD-3: the designer's own description, whatever else was revealed
    else:
        kind = next(k for k in kinds if not any(k in BEATS[other] for other in kinds))
    return kind, sorted(seat for seat, k in cards.items() if k == kind)


def counted(n: int, kind: str) -> str:
    said = {
        "cat": ngettext("{count} cat", "{count} cats", n),
        "dog": ngettext("{count} dog", "{count} dogs", n),
        "bear": ngettext("{count} bear", "{count} bears", n),
        "cookie": ngettext("{count} cookie", "{count} cookies", n),
        "good_boy": ngettext("{count} good boy", "{count} good boys", n),
    }
    return said[kind].format(count=n)


def with_article(kind: str) -> str:
    return {
        "cat": _("a cat"),
        "dog": _("a dog"),
        "bear": _("a bear"),
        "cookie": _("a cookie"),
        "good_boy": _("a good boy"),
    }[kind]


def seat_list(value, field: str) -> list[int]:
    require(
        isinstance(value, list) and all(is_int(seat) for seat in value),
        lambda: _("'{field}' must be a list of seat numbers, e.g. [1, 2].").format(field=field),
    )
    return value


def parse_cards(value) -> dict[int, str]:
    require(
        isinstance(value, dict),
        lambda: _('\'cards\' must be an object from seat to kind, e.g. {"0": "cat"}.'),
    )
    cards = {}
    for key, kind in value.items():
        require(
            is_seat_key(key),
            _('\'cards\' keys are seat numbers written as strings ("0", "1"), not {shown}.').format(
                shown=shown(key)
            ),
        )
        require(
            isinstance(kind, str) and kind in KINDS,
            _("Seat {key} shows {shown}, which is no Dogo Dash card: use one of {join}.").format(
                key=key, shown=shown(kind), join=", ".join(KINDS)
            ),
        )
        cards[int(key)] = kind
    return dict(sorted(cards.items()))


def check_unseen(state: dict, shown: Counter, what: str = gettext_noop("this reveal shows")) -> None:
    """DD-11: nothing may show more of a kind than the deck holds beyond what was already seen."""
    for kind in KINDS:
        seen, total = state["seen"][kind], DECK[kind]
        if shown[kind] and seen + shown[kind] > total:
            if seen >= total:
                message = _(
                    "All {counted} have already been seen (DD-11): nobody can reveal another."
                ).format(counted=counted(total, kind))
            else:
                left = total - seen
                message = _(
                    "Only {counted} {value} still unseen ({seen} of {total} seen), but "
                    "{what} {value2} (DD-11)."
                ).format(
                    counted=counted(left, kind),
                    value=_("is") if left == 1 else _("are"),
                    seen=seen,
                    total=total,
                    what=_(what),
                    value2=shown[kind],
                )
            raise RuleViolation("card_count", message, "DD-11")


# ---------------------------------------------------------------------------------------------
# The engine


class DogoDash(Turned):
    slug = "dogo-dash"
    name = "Dogo Dash"  # a game's name is its own in every language
    min_players = 2
    max_players = 5
    options = {"catnip": False, "dogo_dash": False}
    option_labels = {
        "catnip": gettext_noop("Catnip variant: four cats go straight to your pile"),
        "dogo_dash": gettext_noop("Dogo Dash variant: rescue your dog with a second dog"),
    }
    action_types = ("reveal", "collect")
    # The actions' shapes, checked by base.play before apply (a 400 with the sentence here).
    action_shapes = {
        "reveal": {
            "cards": checked(
                parse_cards, missing=gettext_noop("A reveal needs 'cards': the card each seat shows.")
            ),
            "catnip": checked(lambda value: seat_list(value, "catnip"), required=False),
        },
        "collect": {
            "dogo_dash": checked(lambda value: seat_list(value, "dogo_dash"), required=False),
        },
    }
    action_fields = declared_fields(action_shapes)
    end_rule = "DD-7"
    players_rule = "DD-1"

    # --- setup and questions ----------------------------------------------------------------

    def setup(self, players: int, options: dict) -> dict:
        check_players(self, players)
        options = {**self.options, **(options or {})}
        return {
            "options": {name: bool(options[name]) for name in self.options},
            "round": 1,
            "phase": "reveal",
            "last_round": False,
            "deck": DECK_TOTAL - HAND_SIZE * players,  # DD-1
            "pot": 0,
            "super_pot": 0,
            "discarded": 0,
            "seen": {kind: 0 for kind in KINDS},
            "contenders": list(range(players)),
            "reveals": [],
            "catnipped": [],
            "round_dogs": [],
            "winner": None,
            "last": None,
            "end_reason": None,
            "seats": [
                {"hand": HAND_SIZE, "pile": 0, **{part: 0 for part in BREAKDOWN}} for _ in range(players)
            ],
        }

    def scores(self, state: dict) -> list[dict]:
        return [
            {"seat": i, "total": seat["pile"], "breakdown": {part: seat[part] for part in BREAKDOWN}}
            for i, seat in enumerate(state["seats"])
        ]

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        top = max(seat["pile"] for seat in state["seats"])
        winners = [i for i, seat in enumerate(state["seats"]) if seat["pile"] == top]  # DD-8
        return {"winners": winners, "end_reason": state["end_reason"]}

    def _catnippers(self, state: dict) -> list[int]:
        """DD-9 (revised): seats that may catnip now: option on, a round's first reveal (the last
        round's too), 4 cards in hand."""
        if not state["options"]["catnip"] or state["reveals"]:
            return []
        if state["seen"]["cat"] + HAND_SIZE > DECK["cat"]:
            return []  # DD-11: nobody can hold 4 unseen cats
        return [s for s in state["contenders"] if state["seats"][s]["hand"] == HAND_SIZE]

    def _dashers(self, state: dict) -> list[int]:
        """DD-10: losers of a won round who revealed a dog in it and still hold a card."""
        if not state["options"]["dogo_dash"] or state["winner"] is None or state["last_round"]:
            return []
        if state["seen"]["dog"] >= DECK["dog"]:
            return []  # DD-11: no unseen dog is left to dash with
        return [s for s in state["round_dogs"] if s != state["winner"] and state["seats"][s]["hand"] > 0]

    def _facts(self, state: dict) -> dict:
        """What expect tells besides: the phase, the last round, a tie-break, who may catnip."""
        reveal = state["phase"] == "reveal"
        return {
            "phase": state["phase"],
            "last_round": state["last_round"],
            "tie_break": reveal and bool(state["reveals"]),
            "catnip": self._catnippers(state) if reveal else [],
            "winner": state["winner"],
        }

    # The turn structure (turns.py): a round's reveals (a tie reveals again), then the dashes of a
    # won round when the variant is on, then the next round's reveal, until the end (DD-7).
    _not_yours = Said("not_your_turn", gettext_noop("Seat {seat} may not act now (DD-3)."), "DD-3", said_seat)
    turns = Turns(
        phases={
            "reveal": Phase(
                ("reveal",),
                seats=lambda self, state: list(state["contenders"]),
                not_now=Said(
                    "unexpected_action",
                    gettext_noop("Nobody can dash now: the round's cards are revealed first (DD-10)."),
                    "DD-10",
                ),
                not_yours=_not_yours,  # no Dogo Dash action names its seat: the cards' keys do
                facts=_facts,
                then=("reveal", "collect", "over"),
            ),
            "collect": Phase(
                ("collect",),
                seats=_dashers,
                not_now=Said(
                    "unexpected_action",
                    gettext_noop(
                        "Seat {winner} won the round: first enter who dashes, if anyone, "
                        "before the next reveal (DD-10)."
                    ),
                    "DD-10",
                    lambda self, state, kind, seat: {"winner": state["winner"]},
                ),
                not_yours=_not_yours,
                facts=_facts,
                then=("reveal",),  # a dash comes only before a refill that deals cards (DD-7, DD-10)
            ),
            "over": Phase(facts=_facts),
        },
    )

    # --- actions ----------------------------------------------------------------------------

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)  # a refusal must leave the caller's state untouched
        kind = action["type"]  # base.play checked its shape: the one door into the engine
        check_turn(self, state, kind)
        if kind == "reveal":
            cards = {int(seat): card for seat, card in action["cards"].items()}
            self._reveal(state, dict(sorted(cards.items())), action.get("catnip") or [])
        else:
            self._collect(state, action.get("dogo_dash") or [])
        return state

    def _check_seats(self, state: dict, seats: list[int], what: str, rule: str) -> None:
        """Seats named in a list exist and appear once (`what` a seat does at most once a round)."""
        for seat in seats:
            check_seat(self, state, seat)
        twice = sorted(s for s, n in Counter(seats).items() if n > 1)
        if twice:
            raise RuleViolation(
                "listed_twice",
                _("Seat {value} is listed twice: a seat {what} at most once a round ({rule}).").format(
                    value=twice[0], what=what, rule=rule
                ),
                rule,
            )

    def _reveal(self, state: dict, cards: dict[int, str], catnip: list[int]) -> None:
        """DD-3..DD-9: check the reveal whole, then play it and decide the round."""
        self._check_reveal(state, cards, catnip)
        shown = Counter(cards.values())
        shown["cat"] += HAND_SIZE * len(catnip)
        check_unseen(
            state, shown, _("this reveal (catnip counts 4 cats) shows") if catnip else _("this reveal shows")
        )
        self._play_reveal(state, cards, catnip, shown)
        self._decide_round(state, cards, catnip)

    def _check_reveal(self, state: dict, cards: dict[int, str], catnip: list[int]) -> None:
        """Who may reveal and who may play catnip now (DD-3, DD-4, DD-6, DD-7, DD-9)."""
        seats, contenders = state["seats"], state["contenders"]
        tie_break = bool(state["reveals"])
        self._check_seats(state, list(cards), "reveals", "DD-3")
        self._check_seats(state, catnip, _("plays catnip"), "DD-9")
        if catnip:
            self._check_catnip(state, catnip)
        for seat in cards:
            if seat in catnip:
                raise RuleViolation(
                    "catnip_and_card",
                    _("Seat {seat} plays catnip and cannot also reveal a card (DD-9).").format(seat=seat),
                    "DD-9",
                )
            # In a tie-break the tie is the reason (DD-4), even for a seat whose hand is empty.
            if tie_break and seat not in contenders:
                raise RuleViolation(
                    "not_in_tie",
                    _("Seat {seat} is not in the tie and does not reveal again (DD-4).").format(seat=seat),
                    "DD-4",
                )
            if seats[seat]["hand"] == 0:
                rule = "DD-7" if state["last_round"] else "DD-6"
                raise RuleViolation(
                    "no_card",
                    _("Seat {seat} holds no card and cannot reveal ({rule}).").format(seat=seat, rule=rule),
                    rule,
                )
        self._check_nobody_missing(state, cards, catnip)

    def _check_catnip(self, state: dict, catnip: list[int]) -> None:
        """DD-9: the variant is on, it is a round's first reveal, and each catnip seat holds 4."""
        seats, tie_break = state["seats"], bool(state["reveals"])
        if not state["options"]["catnip"]:
            raise RuleViolation("catnip_off", _("The catnip variant is off at this table (DD-9)."), "DD-9")
        if tie_break:
            raise RuleViolation(
                "catnip_tie_break",
                _("Catnip is played at the start of a round, not in a tie-break (DD-9)."),
                "DD-9",
            )
        for seat in catnip:
            held = seats[seat]["hand"]
            if held != HAND_SIZE:
                needs = _("catnip needs {HAND_SIZE} cats in hand (DD-9)").format(HAND_SIZE=HAND_SIZE)
                message = _("Seat {seat} holds {plural}: {needs}.").format(
                    seat=seat,
                    plural=ngettext("{count} card", "{count} cards", held).format(count=held),
                    needs=needs,
                )
                raise RuleViolation("catnip_hand", message, "DD-9")

    def _check_nobody_missing(self, state: dict, cards: dict[int, str], catnip: list[int]) -> None:
        """Every seat that must reveal does, or plays catnip (DD-3, DD-4, DD-7, DD-9)."""
        contenders, tie_break = state["contenders"], bool(state["reveals"])
        missing = [s for s in contenders if s not in cards and s not in catnip]
        if missing:
            who = and_join([_("Seat {s}").format(s=s) for s in missing])
            verb = _("must") if len(missing) == 1 else _("must each")
            if tie_break:
                reason, rule = _("the tied seats reveal again"), "DD-4"
            elif state["last_round"]:
                reason, rule = _("in the last round every seat with a card reveals one"), "DD-7"
            elif self._catnippers(state):
                reason, rule = _("every seat reveals a card or plays catnip"), "DD-9"
            else:
                reason, rule = _("every seat reveals a card"), "DD-3"
            raise RuleViolation(
                "missing_card",
                _("{who} {verb} reveal a card: {reason} ({rule}).").format(
                    who=who, verb=verb, reason=reason, rule=rule
                ),
                rule,
            )

    def _play_reveal(self, state: dict, cards: dict[int, str], catnip: list[int], shown: Counter) -> None:
        """The checked reveal changes the hands, piles, pot and counts (DD-7, DD-9)."""
        seats = state["seats"]
        for seat in catnip:  # DD-9: 4 cats straight to the own pile
            seats[seat]["hand"] = 0
            seats[seat]["pile"] += HAND_SIZE
            seats[seat]["catnip"] += HAND_SIZE
        state["catnipped"] = sorted(state["catnipped"] + catnip)
        for seat, kind in cards.items():
            seats[seat]["hand"] -= 1
            if kind == "dog" and seat not in state["round_dogs"]:
                state["round_dogs"] = sorted(state["round_dogs"] + [seat])
        for kind, n in shown.items():
            state["seen"][kind] += n
        state["pot"] += len(cards)
        state["reveals"].append({str(seat): kind for seat, kind in cards.items()})
        if state["last_round"]:  # DD-7: every other card in hand goes face down to the Super Pot
            for seat in seats:
                state["super_pot"] += seat["hand"]
                seat["hand"] = 0

    def _decide_round(self, state: dict, cards: dict[int, str], catnip: list[int]) -> None:
        """The strongest card wins the round; a tie reveals again or splits (DD-3, DD-4, DD-7, DD-10)."""
        seats = state["seats"]
        last = {
            "round": state["round"],
            "cards": {str(seat): kind for seat, kind in cards.items()},
            "catnip": sorted(catnip),
            "outcome": "none",
            "kind": None,
            "seats": [],
            "pot": state["pot"],
            "super_pot": state["super_pot"],
            "share": 0,
            "discarded": 0,
            "dash": [],
        }
        state["last"] = last
        if not cards:
            # Everyone played catnip: nobody wins and nobody leads the refill. Pinned: seat 0 first.
            self._end_round(state, first=0)
            return
        kind, best = strongest(cards)
        last.update(kind=kind, seats=best)
        if len(best) == 1:
            state["winner"] = best[0]
            last["outcome"] = "win"
            if self._dashers(state):  # DD-10: they may dash before the winner takes the pot
                state["phase"], state["contenders"] = "collect", []
            else:
                self._take(state, best[0])
        elif state["last_round"] or any(seats[s]["hand"] == 0 for s in best):
            self._split(state, best)  # DD-7 (no replay in the last round), DD-4
        else:
            last["outcome"] = "tie"
            state["contenders"] = best  # DD-4: the tied seats reveal again, drawing nothing

    def _collect(self, state: dict, dash: list[int]) -> None:
        seats, winner = state["seats"], state["winner"]
        self._check_seats(state, dash, "dashes", "DD-10")
        for seat in dash:
            if seat == winner:
                raise RuleViolation(
                    "dash_winner",
                    _("Seat {seat} won the round and has no dog to rescue (DD-10).").format(seat=seat),
                    "DD-10",
                )
            if seat not in state["round_dogs"]:
                raise RuleViolation(
                    "dash_no_dog",
                    _("Seat {seat} revealed no dog this round and cannot dash (DD-10).").format(seat=seat),
                    "DD-10",
                )
            if seats[seat]["hand"] == 0:
                raise RuleViolation(
                    "dash_no_card",
                    _("Seat {seat} holds no card and cannot dash (DD-10).").format(seat=seat),
                    "DD-10",
                )
        check_unseen(state, Counter(dog=len(dash)), _("these dashes show"))
        for seat in sorted(dash):  # DD-10: one revealed dog leaves the pot, both dogs go to the pile
            state["pot"] -= 1
            seats[seat]["hand"] -= 1
            seats[seat]["pile"] += 2
            seats[seat]["dash"] += 2
        state["seen"]["dog"] += len(dash)
        state["last"]["dash"] = sorted(dash)
        self._take(state, winner)

    # --- end of a round ---------------------------------------------------------------------

    def _take(self, state: dict, winner: int) -> None:
        """DD-5 (and DD-7: the last round's winner also takes the Super Pot)."""
        taken = state["pot"] + state["super_pot"]
        state["seats"][winner]["pile"] += taken
        state["seats"][winner]["won"] += taken
        state["last"].update(outcome="win", pot=state["pot"], super_pot=state["super_pot"])
        state["pot"] = state["super_pot"] = 0
        self._end_round(state, first=winner)

    def _split(self, state: dict, tied: list[int]) -> None:
        """DD-4: floor(pot / tied) each, the remainder discarded (it was seen, DD-11)."""
        total = state["pot"] + state["super_pot"]
        share = total // len(tied)
        for seat in tied:
            state["seats"][seat]["pile"] += share
            state["seats"][seat]["split"] += share
        state["discarded"] += total - share * len(tied)
        state["last"].update(outcome="split", share=share, discarded=total - share * len(tied))
        state["pot"] = state["super_pot"] = 0
        self._end_round(state, first=min(tied))  # DD-6: after a split the lowest tied seat draws first

    def _end_round(self, state: dict, first: int) -> None:
        seats = state["seats"]
        if state["last_round"]:
            self._over(state, "last_round")
            return
        # DD-6: one seat at a time fills up fully, starting with `first`, then in seat order.
        for i in range(len(seats)):
            seat = seats[(first + i) % len(seats)]
            drawn = min(HAND_SIZE - seat["hand"], state["deck"])
            seat["hand"] += drawn
            state["deck"] -= drawn
        state.update(
            round=state["round"] + 1,
            phase="reveal",
            last_round=state["deck"] == 0,  # DD-7: announced from the refill that emptied the deck
            contenders=[i for i, seat in enumerate(seats) if seat["hand"] > 0],
            reveals=[],
            catnipped=[],
            round_dogs=[],
            winner=None,
        )
        if not state["contenders"]:
            self._over(state, "no_cards")

    def _over(self, state: dict, reason: str) -> None:
        state.update(phase="over", end_reason=reason, contenders=[], winner=None)

    # --- log and random play ----------------------------------------------------------------

    def describe(self, state_before: dict, action: dict, after: dict, names: list[str]) -> str:

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat)

        last, parts = after["last"], []
        if action["type"] == "reveal":
            cards = parse_cards(action["cards"])
            shown = [
                (_("{name} revealed {card}") if i == 0 else "{name} {card}").format(
                    name=name(s), card=with_article(k)
                )
                for i, (s, k) in enumerate(cards.items())
            ]
            for seat in sorted(action.get("catnip", [])):
                parts.append(
                    _("{name} played catnip: {HAND_SIZE} cats to their pile.").format(
                        name=name(seat), HAND_SIZE=HAND_SIZE
                    )
                )
            if shown:
                parts.append(
                    (_("Last round: ") if state_before["last_round"] else "") + and_join(shown) + "."
                )
            if state_before["last_round"] and last["super_pot"]:
                parts.append(_("The Super Pot holds {super_pot} cards.").format(super_pot=last["super_pot"]))
            parts.append(self._outcome(after, name))
        else:
            if last["dash"]:
                who = and_join([name(s) for s in last["dash"]])
                each = _(" each") if len(last["dash"]) > 1 else ""
                parts.append(_("{who} dashed: 2 dogs{each} to their pile.").format(who=who, each=each))
            else:
                parts.append(_("Nobody dashed."))
            parts.append(
                _("{name} takes the pot of {pot}.").format(name=name(state_before["winner"]), pot=last["pot"])
            )
        if after["phase"] == "reveal" and after["last_round"] and not state_before["last_round"]:
            parts.append(_("The deck is empty: the next round is the last."))
        result = self.result(after)
        if result:
            top = after["seats"][result["winners"][0]]["pile"]
            who = and_join([name(s) for s in result["winners"]])
            verb = _("wins") if len(result["winners"]) == 1 else _("share the win")
            parts.append(_("Game over: {who} {verb} with {top} cards.").format(who=who, verb=verb, top=top))
        return " ".join(parts)

    def _outcome(self, after: dict, name) -> str:
        last = after["last"]
        if last["outcome"] == "none":
            return _("Nobody revealed a card: no one wins the round.")
        who = and_join([name(s) for s in last["seats"]])
        pot = _("the pot of {pot}").format(pot=last["pot"])
        if last["super_pot"]:
            pot = _("the {pot} revealed cards and the Super Pot of {super_pot}").format(
                pot=last["pot"], super_pot=last["super_pot"]
            )
        if last["outcome"] == "tie":
            cause = (
                _("A good boy forces a tie")
                if last["kind"] == "good_boy"
                else _("Tie on {with_article}").format(with_article=with_article(last["kind"]))
            )
            return _("{cause}: {who} reveal again.").format(cause=cause, who=who)
        if last["outcome"] == "split":
            rest = (
                _(", {discarded} discarded").format(discarded=last["discarded"]) if last["discarded"] else ""
            )
            return _("{who} tie and split {pot}: {share} each{rest}.").format(
                who=who, pot=pot, share=last["share"], rest=rest
            )
        if after["phase"] == "collect":
            dashers = and_join([name(s) for s in self._dashers(after)])
            return _("{who} wins the round; {dashers} may dash before {pot} is taken.").format(
                who=who, dashers=dashers, pot=pot
            )
        return _("{who} takes {pot}.").format(who=who, pot=pot)

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        unseen = {kind: DECK[kind] - state["seen"][kind] for kind in KINDS}
        if state["phase"] == "collect":
            dashers = [s for s in self._dashers(state) if rng.random() < 0.5][: unseen["dog"]]
            return {"type": "collect", "dogo_dash": dashers}
        catnip = []
        for seat in self._catnippers(state):
            if unseen["cat"] >= HAND_SIZE and rng.random() < 0.2:
                catnip.append(seat)
                unseen["cat"] -= HAND_SIZE
        cards = {}
        # Always possible: the unseen cards include every card in hand (DD-11).
        for seat in state["contenders"]:
            if seat not in catnip:
                kind = rng.choices(KINDS, weights=[unseen[k] for k in KINDS])[0]
                unseen[kind] -= 1
                cards[str(seat)] = kind
        action = {"type": "reveal", "cards": cards}
        if catnip:
            action["catnip"] = catnip
        return action
