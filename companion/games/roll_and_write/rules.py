"""Roll-and-writes played from their rules sheet (issue 44; docs/sheets.md, RW-1..RW-6): the dice
as they lie after a roll, then each step's marks and passes, until the sheet's end. The sheet is
data: which dice, the boxes, who marks after a roll and where (marks.py), the score (scoring.py).
The table keeps the sheet it started with in its state: a sheet changed later changes no table."""

from __future__ import annotations

import random

from companion.games.base import (
    BadAction,
    Field,
    PlayedGame,
    Rolled,
    RuleViolation,
    and_join,
    check_turn,
    declared_fields,
    fresh_copy,
    is_int,
    seat_field,
    shown,
)
from companion.games.turns import Phase, Turned, Turns
from companion.games.words import _, gettext_noop, said
from companion.sheets import functions

from . import marks, scoring
from .sheets import checked_sheet, library, library_ids

# What each kind of a sheet's rule is about, as its title on the rules page says it.
ABOUT = {
    "players": {"en": "players", "fr": "joueurs"},
    "roll": {"en": "the roll", "fr": "le lancer"},
    "turn": {"en": "who marks", "fr": "qui coche"},
    "value": {"en": "what a mark takes", "fr": "ce que prend une marque"},
    "order": {"en": "where a mark goes", "fr": "où va une marque"},
    "repeat": {"en": "no repeat", "fr": "sans répétition"},
    "last_needs": {"en": "the last box", "fr": "la dernière case"},
    "lock": {"en": "closing a row", "fr": "fermer une rangée"},
    "penalty": {"en": "penalties", "fr": "pénalités"},
    "end": {"en": "the end", "fr": "la fin"},
    "score": {"en": "the score", "fr": "le score"},
    "joker": {"en": "the joker", "fr": "le joker"},
}


def _roll_check(value, state: dict) -> None:
    in_play = dice_in_play(state["sheet"], state["out"])
    if not isinstance(value, dict) or sorted(value) != sorted(die["id"] for die in in_play):
        names = ", ".join(die["id"] for die in in_play)
        raise BadAction(
            "bad_action", _("A roll gives every die in play its face: {names}.").format(names=names)
        )
    for die in in_play:
        face = value[die["id"]]
        if not is_int(face) or face not in die["faces"]:
            raise BadAction(
                "bad_action",
                _("{die} shows one of {faces}, not {shown}.").format(
                    die=said(die["name"]),
                    faces=", ".join(map(str, sorted(set(die["faces"])))),
                    shown=shown(face),
                ),
            )


def dice_in_play(sheet: dict, out: list[str]) -> list[dict]:
    return [die for die in sheet["dice"] if die["id"] not in out]


def step_seats(state: dict) -> list[int]:
    """The seats the current step asks to mark or pass (everyone, the active player, the others)."""
    who = state["sheet"]["turn"]["steps"][state["step"]]["who"]
    seats = range(len(state["seats"]))
    if who == "active":
        return [state["active"]]
    if who == "others":
        return [seat for seat in seats if seat != state["active"]]
    return list(seats)


def named_bonuses(sheet: dict) -> dict:
    """A seat's bonuses from the sheet's named functions, by score line, kept in its state only
    where the sheet names one (the other sheets' states and golden files stay as they were)."""
    named = functions.named(sheet)
    return {"bonuses": {function.key: 0 for function in named}} if named else {}


class RollAndWrite(Turned):
    slug = "roll-and-write"
    name = gettext_noop("Roll and write")
    new_table_heading = gettext_noop("A roll-and-write, from its sheet")
    min_players = 1
    max_players = 12
    options = {"sheet": "qwixx", "rules": {}}
    option_labels = {"sheet": gettext_noop("The game")}
    hidden_options = ("rules",)  # a group's own sheet, put in by the app: never typed in the form
    fixed_state = ("sheet",)  # the sheet never changes once the table starts (golden files write it once)
    action_types = ("roll", "mark", "pass")
    action_shapes = {
        "roll": {"dice": Field(gettext_noop("each die in play and its face"), check=_roll_check)},
        "mark": {
            "seat": seat_field(),
            "row": Field(gettext_noop("a row's id"), lambda value: isinstance(value, str)),
            "box": Field(
                gettext_noop("a box's place in its row, from 0"), lambda value: is_int(value) and value >= 0
            ),
            "value": Field(gettext_noop("a whole number"), is_int, required=False),
        },
        "pass": {"seat": seat_field()},
    }
    action_fields = declared_fields(action_shapes)
    end_rule = "RW-6"
    players_rule = "RW-1"

    def more_rulings(self, language: str) -> list[tuple[str, str, str]]:
        """Each library rules sheet's rules, under its name: (id, title, text) for the rules page."""
        language = "fr" if language.startswith("fr") else "en"
        return [
            (rule["id"], f"{sheet.name(language)}: {ABOUT[rule['about']][language]}", rule[language])
            for sheet in library.rules_sheets()
            for rule in sheet.document["rules"]
        ]

    @property
    def option_choices(self) -> dict:
        return {"sheet": [(sheet_id, name) for sheet_id, name in library_ids()]}

    # --- setup and questions ----------------------------------------------------------------

    def setup(self, players: int, options: dict) -> dict:
        sheet = checked_sheet({**self.options, **(options or {})})
        low, high = sheet["players"]["min"], sheet["players"]["max"]
        if not low <= players <= high:
            rule = marks.rule_id(sheet, "players")
            raise BadAction(
                "bad_player_count",
                _("{game} is for {low} to {high} players, not {players} ({rule}).").format(
                    game=said(sheet["name"]), low=low, high=high, players=players, rule=rule
                ),
                rule,
            )
        return {
            "sheet": sheet,
            "active": 0,
            "rolls": 0,
            "phase": "roll",
            "dice": {},
            "out": [],
            "locked": [],
            "closing": [],
            "step": 0,
            "step_marks": [0] * players,
            "step_done": [False] * players,
            "roll_marks": [0] * players,
            "seats": [
                {
                    "rows": {row["id"]: [None] * len(row["boxes"]) for row in sheet["rows"]},
                    "locks": [],
                    "penalties": 0,
                    # A named function's bonuses, by score line: only where the sheet names one.
                    **(
                        {"bonuses": {f.key: 0 for f in functions.named(sheet)}}
                        if sheet.get("functions")
                        else {}
                    ),
                }
                for _ in range(players)
            ],
            "end_reason": None,
            "last": [],
        }

    def seat_range(self, options: dict) -> tuple[int, int]:
        """The sheet's own players (a group's Climb: 2 to 4), or the kit's when the options name
        no playable sheet (setup then says why)."""
        if not options.get("rules"):
            return self.min_players, self.max_players  # a library sheet is chosen on the form
        try:
            players = checked_sheet({**self.options, **options})["players"]
        except BadAction:
            return self.min_players, self.max_players
        return players["min"], players["max"]

    def played_game(self, options: dict) -> PlayedGame:
        """Each sheet is a game of its own in the history, under its English name."""
        try:
            sheet = checked_sheet({**self.options, **(options or {})})
        except BadAction:
            return PlayedGame(title=str(options.get("sheet", "")))
        return PlayedGame(
            title=sheet["name"]["en"], bgg_id=sheet["bgg_id"], highest_wins=sheet["wins"] == "highest"
        )

    def rolled(self, state: dict, action: dict) -> Rolled | None:
        """The active player's roll of the dice in play, each die against its own faces (RW-2)."""
        dice = action.get("dice") if action.get("type") == "roll" else None
        if not isinstance(dice, dict):
            return None
        rolled = [
            (dice[die["id"]], sum(die["faces"]) / len(die["faces"]))
            for die in dice_in_play(state["sheet"], state["out"])
            if isinstance(dice.get(die["id"]), int)
        ]
        if not rolled:
            return None
        fair = sum(mean for _face, mean in rolled) / len(rolled)
        return Rolled(state["active"], tuple(face for face, _mean in rolled), fair)

    def _marking(self, state: dict) -> list[str]:
        # A waiting seat always has a mark open to it (one without is done at once): an obligatory
        # step takes marks only (RW-3).
        return ["mark", "pass"] if self.step(state).get("optional") else ["mark"]

    def _still_to_mark(self, state: dict) -> list[int]:
        return [seat for seat in step_seats(state) if not state["step_done"][seat]]

    def _nothing_to_mark(self, state: dict, kind: str, seat: int) -> RuleViolation:
        waiting = self.expect(state)["seats"]
        who = and_join([_("Seat {seat}").format(seat=other) for other in waiting])
        return marks.refuse(
            state["sheet"],
            "not_your_turn",
            _("Seat {seat} has nothing to mark now: {who} still to mark or pass").format(seat=seat, who=who),
            "turn",
        )

    # The turn structure (turns.py): the active player's roll, then the sheet's steps of marks in
    # turn (who marks each: everyone, the active player, each in turn), then the next player's roll,
    # until the sheet's end. Every refusal cites the sheet's own rule (marks.refuse).
    turns = Turns(
        phase_of=lambda state: "over" if state["end_reason"] is not None else state["phase"],
        phases={
            "roll": Phase(
                ("roll",),
                seats=lambda self, state: [state["active"]],
                not_now=lambda self, state, kind, seat: marks.refuse(
                    state["sheet"],
                    "unexpected_action",
                    _("Enter the roll first: the dice as they lie"),
                    "roll",
                ),
                not_yours=lambda self, state, kind, seat: marks.refuse(
                    state["sheet"],
                    "not_your_turn",
                    _("It is Seat {active}'s roll, not Seat {seat}'s").format(
                        active=state["active"], seat=seat
                    ),
                    "roll",
                ),
                facts=lambda self, state: {"active": state["active"]},
                then=("mark", "roll", "over"),
            ),
            "mark": Phase(
                _marking,
                seats=_still_to_mark,
                not_now=lambda self, state, kind, seat: marks.refuse(
                    state["sheet"], "unexpected_action", _("Finish this roll's marks first"), "turn"
                ),
                refuses={
                    "pass": lambda self, state, kind, seat: marks.refuse(
                        state["sheet"],
                        "must_mark",
                        _("This roll must be marked: a box is open to it"),
                        "turn",
                    )
                },
                not_yours=lambda self, state, kind, seat: self._nothing_to_mark(state, kind, seat),
                facts=lambda self, state: {"active": state["active"], "step": state["step"]},
                then=("mark", "roll", "over"),
            ),
            "over": Phase(),
        },
    )

    def step(self, state: dict) -> dict:
        return state["sheet"]["turn"]["steps"][state["step"]]

    def legal_marks(self, state: dict, seat: int) -> list[marks.Mark]:
        """The marks `seat` may make now (none outside a step of theirs)."""
        if (
            self.result(state) is not None
            or state["phase"] != "mark"
            or seat not in self.expect(state)["seats"]
        ):
            return []
        return marks.legal(state["sheet"], state, self.step(state), seat)

    def legal(self, state: dict, seat: int) -> dict:
        """Each mark `seat` may make now: a mark action's row, box and value (the same for every
        sheet, docs/sheets.md); base.legal adds what it may enter and why not."""
        offered = [
            {"row": mark.row, "box": mark.box, "value": mark.value} for mark in self.legal_marks(state, seat)
        ]
        return {"marks": offered}

    def scores(self, state: dict) -> list[dict]:
        return [
            {"seat": i, **scoring.seat_score(state["sheet"], seat)} for i, seat in enumerate(state["seats"])
        ]

    def result(self, state: dict) -> dict | None:
        if state["end_reason"] is None:
            return None
        totals = [score["total"] for score in self.scores(state)]
        best = max(totals) if state["sheet"]["wins"] == "highest" else min(totals)
        return {
            "winners": [i for i, total in enumerate(totals) if total == best],
            "end_reason": state["end_reason"],
        }

    # --- actions ----------------------------------------------------------------------------

    def apply(self, state: dict, action: dict) -> dict:
        state = fresh_copy(state)
        kind, seat = action["type"], action.get("seat")
        check_turn(self, state, kind, seat)
        state["last"] = []
        if kind == "roll":
            state["dice"] = {die: action["dice"][die] for die in sorted(action["dice"])}
            state["phase"], state["step"] = "mark", 0
            self._start_step(state)
            return state
        sheet, step = state["sheet"], self.step(state)
        if kind == "mark":
            mark = self._mark(state, action)
            refused = marks.refusal(sheet, state, step, seat, mark)
            if refused is not None:
                raise refused
            earned = self._bonuses(state, seat)  # judged on the sheet before the mark (YZ-7)
            self._write(state, seat, mark)
            for key, points in earned.items():
                state["seats"][seat]["bonuses"][key] += points
                state["last"][-1]["bonus"] = points
            # Done with the step's marks, or with nothing more it may mark: no tap for a forced pass.
            if state["step_marks"][seat] >= step.get("marks", 1) or not marks.legal(sheet, state, step, seat):
                state["step_done"][seat] = True
        else:
            if not step.get("optional") and marks.legal(sheet, state, step, seat):
                raise marks.refuse(
                    sheet, "must_mark", _("This roll must be marked: a box is open to it"), "turn"
                )
            state["step_done"][seat] = True
            state["last"].append({"passed": seat})
        if all(state["step_done"][seat] for seat in step_seats(state)):
            self._end_step(state)
        return state

    def _mark(self, state: dict, action: dict) -> marks.Mark:
        """The mark an action asks for: a printed box's number, a named box's points, or a written
        value (said by the action, or the only one these dice give the box)."""
        sheet, step = state["sheet"], self.step(state)
        row = marks.row_of(sheet, action["row"])
        if row is None:
            raise BadAction(
                "bad_action", _("This sheet has no row {shown}.").format(shown=shown(action["row"]))
            )
        box, value = action["box"], action.get("value")
        if value is not None or box >= len(row["boxes"]):
            return marks.Mark(row["id"], box, -1 if value is None else value)
        printed = row["boxes"][box]
        if isinstance(printed, int):
            return marks.Mark(row["id"], box, printed)
        offered = marks.offered(sheet, state, step, action["seat"], row, box)
        if isinstance(printed, dict) or len(offered) == 1:
            return marks.Mark(row["id"], box, next(iter(offered), -1))
        if not offered:
            raise marks.refuse(
                sheet,
                "not_these_dice",
                _("These dice give {row} nothing to write").format(row=said(row["name"])),
                "value",
            )
        choices = ", ".join(map(str, sorted(offered)))
        raise BadAction(
            "bad_action", _("Say the 'value' to write: these dice make {choices}.").format(choices=choices)
        )

    def _bonuses(self, state: dict, seat: int) -> dict[str, int]:
        """What the sheet's named functions add for this throw beside its box, by score line."""
        if self.step(state)["value"] != "box":
            return {}
        sheet, faces = state["sheet"], list(state["dice"].values())
        earned = {
            function.key: function.bonus(sheet, state["seats"][seat]["rows"], faces)
            for function in functions.named(sheet)
        }
        return {key: points for key, points in earned.items() if points}

    def _write(self, state: dict, seat: int, mark: marks.Mark) -> None:
        sheet = state["sheet"]
        row = marks.row_of(sheet, mark.row)
        sheet_of_seat = state["seats"][seat]
        sheet_of_seat["rows"][mark.row][mark.box] = mark.value
        state["step_marks"][seat] += 1
        state["roll_marks"][seat] += 1
        locks = row.get("locks") and mark.box == len(row["boxes"]) - 1
        if locks:  # the lock's cross counts; the row closes for all after this step
            sheet_of_seat["locks"].append(mark.row)
            if mark.row not in state["closing"]:
                state["closing"].append(mark.row)
        state["last"].append(
            {"seat": seat, "row": mark.row, "box": mark.box, "value": mark.value, "locks": bool(locks)}
        )

    def _start_step(self, state: dict) -> None:
        """A seat with nothing it may mark is done at once: no tap for a pass it cannot avoid."""
        sheet, step = state["sheet"], self.step(state)
        seats = len(state["seats"])
        state["step_marks"], state["step_done"] = [0] * seats, [True] * seats
        for seat in step_seats(state):
            state["step_done"][seat] = not marks.legal(sheet, state, step, seat)
        if all(state["step_done"]):
            self._end_step(state)

    def _end_step(self, state: dict) -> None:
        sheet = state["sheet"]
        for row_id in state["closing"]:
            if row_id not in state["locked"]:
                state["locked"].append(row_id)
                die = marks.row_of(sheet, row_id).get("die")
                if die and die not in state["out"]:
                    state["out"].append(die)
        state["closing"] = []
        if self._ended(state):
            return
        if state["step"] + 1 < len(sheet["turn"]["steps"]):
            state["step"] += 1
            self._start_step(state)
            return
        active = state["active"]
        if sheet["turn"].get("penalty_if_active_marks_nothing") and state["roll_marks"][active] == 0:
            seat = state["seats"][active]
            seat["penalties"] = min(seat["penalties"] + 1, sheet["penalties"]["max"])
            state["last"].append({"penalty": active})
        state["rolls"] += 1
        if self._ended(state):
            return
        state["active"] = (active + 1) % len(state["seats"])
        state["phase"], state["dice"], state["step"] = "roll", {}, 0
        state["roll_marks"] = [0] * len(state["seats"])
        state["step_marks"], state["step_done"] = [0] * len(state["seats"]), [False] * len(state["seats"])

    def _ended(self, state: dict) -> bool:
        """RW-6: the sheet's end, checked after each step; `end_reason` names the first met."""
        end, seats = state["sheet"]["end"], state["seats"]
        if "penalties" in end and any(seat["penalties"] >= end["penalties"] for seat in seats):
            state["end_reason"] = "penalties"
        elif "locked_rows" in end and len(state["locked"]) >= end["locked_rows"]:
            state["end_reason"] = "locked_rows"
        elif end.get("filled") and all(
            value is not None for seat in seats for values in seat["rows"].values() for value in values
        ):
            state["end_reason"] = "filled"
        elif "rolls" in end and state["rolls"] >= end["rolls"]:
            state["end_reason"] = "rolls"
        return state["end_reason"] is not None

    # --- refusals ---------------------------------------------------------------------------

    # --- the log ------------------------------------------------------------------------------

    def describe(self, before: dict, action: dict, after: dict, names: list[str]) -> str:
        sheet = after["sheet"]

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat)

        parts = []
        if action["type"] == "roll":
            rolled = dice_in_play(sheet, before["out"])
            alike = len({said(die["name"]) for die in rolled}) == 1  # five "Die"s: the faces say it all
            faces = ", ".join(
                str(action["dice"][die["id"]])
                if alike
                else f"{said(die['name'])} {action['dice'][die['id']]}"
                for die in rolled
            )
            parts.append(_("{name} rolled: {faces}.").format(name=name(before["active"]), faces=faces))
        for event in after["last"]:
            if "passed" in event:
                parts.append(_("{name} marks nothing.").format(name=name(event["passed"])))
            elif "penalty" in event:
                seat = after["seats"][event["penalty"]]
                parts.append(
                    _("{name} takes a penalty ({count} of {most}).").format(
                        name=name(event["penalty"]), count=seat["penalties"], most=sheet["penalties"]["max"]
                    )
                )
            else:
                row = marks.row_of(sheet, event["row"])
                parts.append(self._mark_words(row, event, name(event["seat"])))
        closed = [row for row in after["locked"] if row not in before["locked"]]
        if closed:
            rows = and_join([said(marks.row_of(sheet, row)["name"]) for row in closed])
            parts.append(_("{rows} closed for everyone.").format(rows=rows))
        if after["end_reason"] is not None:
            parts.append(self.end_sentence(after, names))
        return " ".join(parts)

    def _mark_words(self, row: dict, event: dict, name: str) -> str:
        box = row["boxes"][event["box"]]
        if isinstance(box, dict):
            if event.get("bonus"):  # a named function's bonus (yahtzee-joker: YZ-7)
                return _("{name} scored {value} in {box}, and a bonus of {bonus}.").format(
                    name=name, value=event["value"], box=said(box["name"]), bonus=event["bonus"]
                )
            return _("{name} scored {value} in {box}.").format(
                name=name, value=event["value"], box=said(box["name"])
            )
        if box is None:
            return _("{name} wrote {value} in {row}, box {number}.").format(
                name=name, value=event["value"], row=said(row["name"]), number=event["box"] + 1
            )
        if event["locks"]:
            return _("{name} crossed {value} in {row} and its lock.").format(
                name=name, value=event["value"], row=said(row["name"])
            )
        return _("{name} crossed {value} in {row}.").format(
            name=name, value=event["value"], row=said(row["name"])
        )

    def end_sentence(self, state: dict, names: list[str]) -> str:
        winners = self.result(state)["winners"]
        totals = {score["seat"]: score["total"] for score in self.scores(state)}
        who = and_join(
            [names[seat] if seat < len(names) else _("Seat {seat}").format(seat=seat) for seat in winners]
        )
        if len(winners) == 1:
            return _("Game over: {who} wins with {total}.").format(who=who, total=totals[winners[0]])
        return _("Game over: {who} share the win with {total}.").format(who=who, total=totals[winners[0]])

    def sample_action(self, state: dict, rng: random.Random) -> dict:
        if state["phase"] == "roll" or state["end_reason"] is not None:
            dice = dice_in_play(state["sheet"], state["out"])
            return {"type": "roll", "dice": {die["id"]: rng.choice(die["faces"]) for die in dice}}
        seat = rng.choice(self.expect(state)["seats"])
        found = self.legal_marks(state, seat)
        optional = self.step(state).get("optional")
        if not found or (optional and rng.random() < 0.3):
            return {"type": "pass", "seat": seat}
        mark = rng.choice(found)
        return {"type": "mark", "seat": seat, "row": mark.row, "box": mark.box, "value": mark.value}
