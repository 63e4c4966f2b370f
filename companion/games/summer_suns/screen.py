"""62 Summer Suns screens: the dice pickers, the sheet grid and a placement chosen one tap at a time.

A placement takes up to six decisions (slot, which die is written, crab copies, the hat's sun value,
the bonus number's slot and value). Each is one screen; the choices made so far ride in the query
string, so a poll that redraws the page keeps them. The engine answers every "what is legal now"
question; this module only turns its answers into buttons.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import urlencode

from companion.games import registry, screen_kit
from companion.games.summer_suns.sheet import SHEETS
from companion.games.words import _, gettext_noop, ngettext

ZONE_RULES = {
    "pair": gettext_noop("both slots of a cabin the same"),
    "sequence": gettext_noop("follow the < and > signs"),
    "no_adjacent_equal": gettext_noop("neighbours in a line differ"),
    "equal": gettext_noop("every value the same"),
    "all_different": gettext_noop("no value twice"),
}
END_TEXTS = {
    "sun_62": gettext_noop("A sun row reached 62."),
    "round_20": gettext_noop("Twenty rounds have been played."),
    "sun_row_full": gettext_noop("Every sun of the sheet is filled."),
}
DICE_FACES = [1, 2, 3, 4, 5, 6]


def engine():
    return registry.get("summer-suns")


def seat_notes(seats: list[dict]) -> dict[int, str]:
    """The scoreboard's note per seat: the sun row's last number, the shells, ✓ once written."""
    return {
        i: _("sun {value} · 🐚{shells}").format(
            value=seat["sun"][-1] if seat["sun"] else 0, shells=seat["shells"]
        )
        + (" ✓" if seat["placed"] else "")
        for i, seat in enumerate(seats)
    }


def own_sheet(sheet: dict, seat: dict | None, wizard: dict | None) -> dict:
    """This phone's sheet while it writes (`seat`, else None), lit where the entry's tap decides."""
    if seat is None:
        return {"my_grid": None, "my_sun_row": None}
    lit = (wizard["highlight"], wizard["pending"], wizard.get("refused_slot")) if wizard else ({}, {}, None)
    return {"my_grid": grid(sheet, seat, *lit), "my_sun_row": sun_row(sheet, seat)}


def viewed_sheet(sheet: dict, seat: dict | None) -> dict:
    """The sheet someone tapped to look at (`seat`, else None), with its zones' legend."""
    if seat is None:
        return {"grid": None, "sun_row": None, "zones": []}
    return {"grid": grid(sheet, seat, {}), "sun_row": sun_row(sheet, seat), "zones": zone_legend(sheet, seat)}


def context(data: dict, viewer: screen_kit.Viewer) -> dict:
    state = data["state"]
    names = [player["name"] for player in data["players"]]
    if viewer.seat is None and len(names) == 1:
        viewer = dataclasses.replace(viewer, seat=0)  # solo: the only sheet is this phone's
    sheet = SHEETS[state["sheet"]].definition
    seats = state["seats"]
    waiting = [names[seat] for seat in data["expect"]["seats"]] if state["phase"] == "place" else []
    viewed = _viewed_seat(viewer, len(names))
    wizard = None
    if viewer.can_edit and viewer.seat is not None and viewer.seat in data["expect"]["seats"]:
        if state["phase"] == "place":
            wizard = Wizard(state, viewer.seat, viewer.query, names).resolve()
    mine = viewer.seat
    writing_here = state["phase"] == "place" and mine is not None
    return {
        # The table's public facts the templates show, named here so they never read the state.
        **{key: data["state"][key] for key in ("round", "dice", "phase")},
        "scoreboard": screen_kit.scoreboard(data, seat_notes(seats)),
        **screen_kit.result(data, breakdown_parts(sheet), END_TEXTS, starfish_word),
        "dice_faces": DICE_FACES,
        "waiting": screen_kit.and_join(waiting),
        "next_player": _next_player(data, viewer, names),
        "my_seat": viewer.seat,
        "my_name": names[viewer.seat] if viewer.seat is not None else "",
        "viewed": viewed,
        "viewed_name": names[viewed] if viewed is not None else "",
        "players": [{"seat": i, "name": name, "placed": seats[i]["placed"]} for i, name in enumerate(names)],
        "wizard": wizard,
        # This phone's own sheet sits in the prompt while a round is being written, lit where a tap
        # decides; the panel shows a sheet someone tapped, or everyone's at other moments.
        **own_sheet(sheet, seats[mine] if writing_here else None, wizard),
        "show_viewed": viewed is not None
        and data["status"] != "finished"
        and not (writing_here and viewed == mine),
        **viewed_sheet(sheet, seats[viewed] if viewed is not None else None),
        "sheets": [
            {"name": names[i], "grid": grid(sheet, seats[i], {}), "sun_row": sun_row(sheet, seats[i])}
            for i in range(len(names))
        ]
        if data["status"] == "finished" or viewer.display
        else [],
        "sheet_title": _(sheet.get("title", sheet["name"])),
        "last_turns": last_turns(state, names),
        "my_entry": my_entry(viewer.log, mine) if writing_here else None,
        "shells": [seat["shells"] for seat in seats],
        "score_line": score_line(data, viewed) if viewed is not None else "",
        "my_score_line": score_line(data, mine) if mine is not None else "",
    }


def _next_player(data: dict, viewer: screen_kit.Viewer, names: list[str]) -> dict | None:
    """On a phone whose player has written this round, the next player who still writes, after it
    in seat order: one tap hands the shared phone on (issue 15)."""
    due = data["expect"]["seats"] if data["state"]["phase"] == "place" else []
    if not viewer.can_edit or viewer.seat is None or viewer.seat in due or not due:
        return None
    seat = min(due, key=lambda s: (s - viewer.seat) % len(names))
    return {"seat": seat, "name": names[seat]}


def my_entry(log: list, seat: int) -> int | None:
    """The seq of this seat's entry in the round being written (it can be taken back alone)."""
    for seq, action in log:  # newest first
        if action.get("type") == "roll":
            return None
        if action.get("seat") == seat and action.get("type") in ("place", "pass"):
            return seq
    return None


def score_line(data: dict, seat: int) -> str:
    """ "Score now" spelled out, so a jump (a zone filled, the shell lead) explains itself."""
    score = data["scores"][seat]
    labels = {"sun": _("sun bonuses"), "shell_bonus": _("most shells")}
    parts = [f"{labels.get(key, key)} {value}" for key, value in score["breakdown"].items() if value]
    return (
        _("Score now: {join} = {total}").format(join=" + ".join(parts), total=score["total"])
        if parts
        else _("Score now: 0")
    )


def _viewed_seat(viewer: screen_kit.Viewer, players: int) -> int | None:
    """The sheet shown: the one asked for by a tap on a player, else this phone's own."""
    asked = screen_kit.number(viewer.query.get("view"))
    if asked is not None and asked < players:
        return asked
    return viewer.seat if viewer.seat is not None else (0 if players == 1 else None)


# The default sheet's zones as a legend names them, for the catalog: said by zone_label.
ZONE_LABELS = (
    gettext_noop("Cabins"),
    gettext_noop("Koi"),
    gettext_noop("Boats"),
    gettext_noop("Bottles"),
    gettext_noop("Gulls"),
    gettext_noop("This is the app's own sheet: the printed sheet's layout is not published"),
)


def zone_label(zone_id: str) -> str:
    return _(zone_id.capitalize())


def breakdown_parts(sheet: dict) -> list[tuple[str, str]]:
    """The result's columns; screen_kit.result says each label in the page's language."""
    zones = [(zone["id"], zone["id"].capitalize()) for zone in sheet["zones"]]
    return zones + [
        ("pearls", gettext_noop("Pearls")),
        ("sun", gettext_noop("Sun")),
        ("shell_bonus", gettext_noop("Most shells")),
    ]


def grid(
    sheet: dict, seat: dict, highlight: dict, pending: dict | None = None, refused: str | None = None
) -> list[list[dict | None]]:
    """Rows of cells as the sheet draws them; None where the sheet has no slot."""
    pending = pending or {}
    cells = seat["cells"]
    signs = _sign_positions(sheet)
    rows: list[list[dict | None]] = [[None] * sheet["cols"] for _ in range(sheet["rows"])]
    kinds = {zone["id"]: zone["kind"] for zone in sheet["zones"]}
    named = SHEETS[sheet["name"]].named
    for slot in sheet["slots"]:
        value = cells.get(slot["id"])
        rows[slot["row"]][slot["col"]] = {
            **slot,
            "words": named(slot["id"]),
            "kind": kinds[slot["zone"]],
            "value": value,
            "pearl_earned": value == slot["pearl"],
            "mark": seat.get("marks", {}).get(slot["id"], ""),
            "sign_left": signs.get((slot["id"], "left"), ""),
            "sign_top": signs.get((slot["id"], "top"), ""),
            "choice": highlight.get(slot["id"]),
            "pending": pending.get(slot["id"]),
            "chosen": slot["id"] in pending,
            "refused": slot["id"] == refused,
        }
    return rows


def _sign_positions(sheet: dict) -> dict[tuple[str, str], str]:
    """Each koi sign drawn on the edge it shares with the slot before it (left or top)."""
    where = {slot["id"]: (slot["row"], slot["col"]) for slot in sheet["slots"]}
    found = {}
    for zone in sheet["zones"]:
        for group, signs in zip(zone["groups"], zone.get("signs", []), strict=False):
            for before, after, sign in zip(group, group[1:], signs, strict=False):
                (r1, c1), (r2, c2) = where[before], where[after]
                if r1 == r2 and c2 == c1 + 1:
                    found[(after, "left")] = sign
                elif r1 == r2 and c2 == c1 - 1:
                    found[(before, "left")] = {"<": ">", ">": "<"}[sign]
                elif c1 == c2 and r2 == r1 + 1:
                    found[(after, "top")] = {"<": "∧", ">": "∨"}[sign]
                elif c1 == c2 and r2 == r1 - 1:
                    found[(before, "top")] = {"<": "∨", ">": "∧"}[sign]
    return found


def sun_row(sheet: dict, seat: dict) -> dict:
    totals = seat["sun"]
    bonuses = sheet["sun_bonuses"]
    return {
        "suns": [
            {
                "total": totals[i] if i < len(totals) else None,
                "bonus": str(totals[i]) in bonuses if i < len(totals) else False,
            }
            for i in range(sheet["suns"])
        ],
        "total": totals[-1] if totals else 0,
        "bonuses": [
            {"at": int(at), "text": bonus_text(bonus), "reached": int(at) in totals}
            for at, bonus in sorted(bonuses.items(), key=lambda item: int(item[0]))
        ],
    }


def bonus_text(bonus: dict) -> str:
    if "number" in bonus:
        return _("a bonus number")
    return _("{starfish} starfish").format(
        starfish=bonus["starfish"]
    )  # SS-10: a sun bonus is starfish or a bonus number


def zone_legend(sheet: dict, seat: dict) -> list[dict]:
    cells = seat["cells"]
    legend = []
    for zone in sheet["zones"]:
        slots = [slot for group in zone["groups"] for slot in group]
        filled = sum(1 for slot in slots if slot in cells)
        legend.append(
            {
                "id": zone["id"],
                "label": zone_label(zone["id"]),
                "kind": zone["kind"],
                "rule": _(ZONE_RULES[zone["kind"]]),
                "starfish": zone["starfish"],
                "filled": filled,
                "size": len(slots),
            }
        )
    return legend


def last_turns(state: dict, names: list[str]) -> list[str]:
    """This round's entries so far, one short line per seat that has placed."""
    lines, named = [], SHEETS[state["sheet"]].named
    for i, seat in enumerate(state["seats"]):
        last = seat.get("last")
        if not last or last.get("round") != state["round"] or not seat["placed"]:
            continue
        if last.get("pass"):
            lines.append(
                _("{value} passed, sun {sun_total}").format(value=names[i], sun_total=last["sun_total"])
            )
        else:
            copies = f" (+{', '.join(map(named, last['crab']))})" if last.get("crab") else ""
            lines.append(
                _("{value}: {value2} in {named}{copies}, sun {sun_total}").format(
                    value=names[i],
                    value2=last["value"],
                    named=named(last["slot"]),
                    copies=copies,
                    sun_total=last["sun_total"],
                )
            )
    return lines


class Wizard(screen_kit.StepMachine):
    """Resolve the choices made so far (the query) into the next decision, or a complete action."""

    KEYS = ("slot", "sd", "wd", "crab", "nocrab", "sun", "bslot", "bval", "die", "why")
    UNDO = (("bval",), ("bslot",), ("sun",), ("nocrab",), ("crab",), ("sd", "wd"), ("slot",), ("die",))
    LIST_KEYS = frozenset({"crab"})
    CARRIED_OVER = frozenset({"why"})  # "why is this slot dark" is a question, not a decision

    def __init__(self, state: dict, seat: int, query: dict, names: list[str]):
        super().__init__(state, query)
        self.seat = seat
        self.names = names
        self.legal = engine().legal(state, seat)
        self.named = SHEETS[state["sheet"]].named  # slots in words (issue 15)

    def posted(self, action: dict) -> dict:
        return form_fields(action)

    def says(self, action: dict) -> str:
        return screen_kit.log_words(engine(), self.state, action, self.names)

    def resolve(self) -> dict:
        step = super().resolve()
        step["highlight"] = {
            option["slot"]: {**option, "writes": self._writes(step["name"], option)}
            for option in step["options"]
            if option.get("slot") and step["name"] in ("slot", "crab", "bonus_slot")
        }
        if step["name"] == "slot":
            # An unlit slot answers a tap with the rule that keeps it dark.
            for slot in self._slot_order():
                if slot not in step["highlight"]:
                    step["highlight"][slot] = {
                        "slot": slot,
                        "explain": True,
                        "href": "?" + urlencode({"why": slot}),
                    }
            if self.query.get("why") in step["highlight"] and self.query["why"] not in self._lit_slots():
                step["refusal"] = self.why_not(self.query["why"])
                step["refused_slot"] = self.query["why"]
        step["query"] = self.query
        step["pending"] = self._pending()
        return step

    def _writes(self, step: str, option: dict) -> int | None:
        """The number a lit slot writes at one tap (None when the tap asks how): shown in it."""
        fields = option.get("fields")
        if not fields:
            return None
        if step == "bonus_slot":
            return int(fields["bonus_value"])
        return self.state["dice"][int(fields["write_die"])]

    def _pending(self) -> dict[str, int]:
        """Values chosen but not yet entered, drawn faintly on the sheet while the choice goes on."""
        query, dice = self.query, self.state["dice"]
        pending = {}
        if query.get("slot") and query.get("wd") not in {"0", "1", "2"}:
            pending[query["slot"]] = ""  # chosen, value still open
        if query.get("slot") and query.get("wd") in {"0", "1", "2"}:
            value = dice[int(query["wd"])]
            for slot in [query["slot"], *[c for c in query.get("crab", "").split(",") if c]]:
                pending[slot] = value
        if query.get("bslot") and screen_kit.number(query.get("bval")) is not None:
            pending[query["bslot"]] = screen_kit.number(query["bval"])
        return pending

    # Each branch returns the next decision; "done" carries the finished action.
    def _step(self, query: dict) -> dict:
        dice = self.state["dice"]
        placements = self.legal["placements"]
        if not placements:
            return self._pass_steps(query, dice)
        slot = query.get("slot")
        slots = self._lit_slots()
        if slot not in slots:
            return {
                "name": "slot",
                "title": _("Tap a lit slot to write in it"),
                "options": [{"slot": s, "label": self.named(s), "set": {"slot": s}} for s in slots],
            }
        ways = [p for p in placements if p["slot"] == slot]
        chosen = [
            p
            for p in ways
            if str(p["slot_die"]) == query.get("sd") and str(p["write_die"]) == query.get("wd")
        ]
        if not chosen:
            return {
                "name": "way",
                "title": _("How to fill {named}").format(named=self.named(slot)),
                "options": self._way_options(ways),
            }
        placement = chosen[0]
        value = placement["value"]
        chain = [c for c in query.get("crab", "").split(",") if c]
        action = {
            "type": "place",
            "seat": self.seat,
            "slot_die": placement["slot_die"],
            "write_die": placement["write_die"],
            "slot": slot,
        }
        if not query.get("nocrab"):
            crab = self._crab_step(slot, value, chain)
            if crab is not None:
                return crab
        if chain:
            action["crab"] = chain
        if engine().sun_choice_needed(self.state, slot, chain):
            if query.get("sun") not in {str(v) for v in DICE_FACES}:
                return {
                    "name": "sun",
                    "title": _("Sun hat: choose the value for the sun row"),
                    "options": self._sun_options(),
                }
            action["sun"] = int(query["sun"])
        return self._bonus_steps(query, action, self._summary_place(slot, value, chain, action))

    def _crab_step(self, slot: str, value: int, chain: list[str]) -> dict | None:
        """SS-7: the next crab copy to offer after writing `value` in `slot` and `chain`, or None."""
        offers = engine().crab_offers(self.state, self.seat, slot, value, chain)
        if not offers:
            return None
        source = chain[-1] if chain else slot
        return {
            "name": "crab",
            "title": _("Crab in {named}: copy the {value} next door?").format(
                named=self.named(source), value=value
            ),
            "options": [
                {
                    "slot": offer["slot"],
                    "label": _("Copy to {named}").format(named=self.named(offer["slot"]))
                    + self._earns(offer["slot"], value),
                    "dead": [self.named(s) for s in offer["dead"]],  # SS-5: warned before the tap
                    "set": {"crab": ",".join(chain + [offer["slot"]])},
                }
                for offer in offers
            ]
            + [{"label": _("No copy"), "set": {"nocrab": "1"}}],
        }

    def _pass_steps(self, query: dict, dice: list[int]) -> dict:
        if query.get("die") not in {"0", "1", "2"}:
            total = self._sun_total()
            options, seen = [], set()
            for i, value in enumerate(dice):
                if value not in seen:
                    seen.add(value)
                    options.append(
                        {
                            "label": _("Sun +{value} = {number}").format(value=value, number=total + value),
                            "die": value,
                            "set": {"die": str(i)},
                        }
                    )
            return {
                "name": "pass",
                "title": _("No slot can take these dice: choose the die for the sun row"),
                "options": options,
            }
        die = int(query["die"])
        action = {"type": "pass", "seat": self.seat, "sun_die": die}
        return self._bonus_steps(
            query,
            action,
            _("Pass; sun +{value} = {number}").format(value=dice[die], number=self._sun_total() + dice[die]),
        )

    def _bonus_steps(self, query: dict, action: dict, summary: str) -> dict:
        offer = engine().bonus_choices(self.state, self.seat, action)
        if offer and offer["choices"]:
            bslot = query.get("bslot")
            if bslot not in offer["choices"]:
                return {
                    "name": "bonus_slot",
                    "title": _("Sun total {total}: a bonus number! Tap the slot for it").format(
                        total=offer["total"]
                    ),
                    "options": [
                        {"slot": s, "label": self.named(s), "set": {"bslot": s}} for s in offer["choices"]
                    ],
                }
            values = offer["choices"][bslot]
            if query.get("bval") not in {str(v) for v in values}:
                return {
                    "name": "bonus_value",
                    "title": _("Bonus number in {named}: which value?").format(named=self.named(bslot)),
                    "options": [
                        {
                            "label": str(v),
                            "value": v,
                            "dead": [self.named(s) for s in offer["dead"][bslot][v]],
                            "set": {"bval": str(v)},
                        }
                        for v in values
                    ],
                }
            action = {**action, "bonus": {"slot": bslot, "value": int(query["bval"])}}
            summary += _("; bonus {bval} in {named}").format(bval=query["bval"], named=self.named(bslot))
        elif offer:
            summary += _("; the bonus number of {total} is lost (no slot can take one)").format(
                total=offer["total"]
            )
        return {"name": "done", "action": action, "summary": summary}

    def _way_options(self, ways: list[dict]) -> list[dict]:
        dice, total, options, seen = self.state["dice"], self._sun_total(), [], set()
        pearls = {slot["id"]: slot["pearl"] for slot in self._sheet()["slots"]}
        for way in ways:
            third = engine().third_die(way["slot_die"], way["write_die"])
            hat = engine().sun_choice_needed(self.state, way["slot"], [])
            key = (way["value"], None if hat else dice[third])
            if key in seen:
                continue  # equal dice give the same entry twice
            seen.add(key)
            sun = (
                _("sun: your choice (hat)")
                if hat
                else _("sun +{value} = {number}").format(value=dice[third], number=total + dice[third])
            )
            options.append(
                {
                    "label": _("Write {value}").format(value=way["value"]),
                    "detail": sun,
                    "value": way["value"],
                    "pearl": way["value"] == pearls[way["slot"]],
                    "dead": [self.named(s) for s in way["dead"]],
                    "set": {"sd": str(way["slot_die"]), "wd": str(way["write_die"])},
                }
            )
        return options

    def _sun_options(self) -> list[dict]:
        total, bonuses = self._sun_total(), self._sheet()["sun_bonuses"]
        return [
            {
                "label": str(v),
                "detail": f"= {total + v}" + (" ★" if str(total + v) in bonuses else ""),
                "set": {"sun": str(v)},
            }
            for v in DICE_FACES
        ]

    def _earns(self, slot: str, value: int) -> str:
        """What writing `value` in `slot` brings, for the button that offers it."""
        sheet_slot = next(s for s in self._sheet()["slots"] if s["id"] == slot)
        gains = [_("★ pearl")] if sheet_slot["pearl"] == value else []
        gains += (
            [_("🐚 shell")] * sheet_slot["shell"]
            + [_("🐸 hat")] * sheet_slot["hat"]
            + [_("🦀 crab")] * sheet_slot["crab"]
        )
        return f" ({', '.join(gains)})" if gains else ""

    def _summary_place(self, slot: str, value: int, chain: list[str], action: dict) -> str:
        dice = self.state["dice"]
        sun = action.get("sun", dice[engine().third_die(action["slot_die"], action["write_die"])])
        copies = _(", copy to {join}").format(join=", ".join(map(self.named, chain))) if chain else ""
        return _("Write {value} in {named}{copies}; sun +{sun} = {number}").format(
            value=value, named=self.named(slot), copies=copies, sun=sun, number=self._sun_total() + sun
        )

    def _sun_total(self) -> int:
        sun = self.state["seats"][self.seat]["sun"]
        return sun[-1] if sun else 0

    def _lit_slots(self) -> list[str]:
        return sorted({p["slot"] for p in self.legal["placements"]}, key=self._slot_order().index)

    def why_not(self, slot: str) -> dict:
        """The engine's own refusal for the ways a die could pick this slot, or why none can."""
        sheet_slot = next(s for s in self._sheet()["slots"] if s["id"] == slot)
        dice = self.state["dice"]
        if slot in self.state["seats"][self.seat]["cells"]:
            return {
                "message": _("{named} is already written.").format(named=self.named(slot)),
                "rule": "SS-3",
            }
        pickers = [i for i, value in enumerate(dice) if value == sheet_slot["pearl"]]
        if not pickers:
            pearl = sheet_slot["pearl"]
            message = _(
                "No die shows the pearl of {named} ({pearl}): the die that picks a slot must equal it."
            ).format(named=self.named(slot), pearl=pearl)
            return {"message": message, "rule": "SS-3"}
        reasons: dict[str, list[int]] = {}  # the engine's reason -> the values it refuses for it
        rule = None
        for i in pickers:
            for j in sorted({0, 1, 2} - {i}):
                refused = engine().write_problem(self.state, self.seat, slot, dice[j])
                if refused is None:
                    continue
                reason, rule = refused[0], rule or refused[1]
                if dice[j] not in reasons.setdefault(reason, []):
                    reasons[reason].append(dice[j])
        sentences = [
            _("Cannot write {join} in {named}: {why}.").format(
                join=" or ".join(map(str, vals)), named=self.named(slot), why=why
            )
            for why, vals in reasons.items()
        ]
        return {"message": " ".join(sentences), "rule": rule}

    def _slot_order(self) -> list[str]:
        return [slot["id"] for slot in self._sheet()["slots"]]

    def _sheet(self) -> dict:
        return SHEETS[self.state["sheet"]].definition


def form_fields(action: dict) -> dict:
    """A finished action as the flat hidden fields its button posts (read by action_from_form)."""
    fields = {key: value for key, value in action.items() if key not in ("crab", "bonus")}
    if action.get("crab"):
        fields["crab"] = ",".join(action["crab"])
    if action.get("bonus"):
        fields["bonus_slot"], fields["bonus_value"] = action["bonus"]["slot"], action["bonus"]["value"]
    return fields


def action_from_form(post, data: dict) -> dict:
    """The roll form's three dice, or a finished placement/pass carried in hidden fields."""
    kind = post.get("type", "")
    if kind == "roll":
        return {"type": "roll", "dice": [_int(post.get(f"die_{i}")) for i in range(3)]}
    action = {"type": kind, "seat": _int(post.get("seat"))}
    for key in ("slot_die", "write_die", "sun", "sun_die"):
        if post.get(key, "") != "":
            action[key] = _int(post.get(key))
    if post.get("slot"):
        action["slot"] = post["slot"]
    if post.get("crab"):
        action["crab"] = post["crab"].split(",")
    if post.get("bonus_slot"):
        action["bonus"] = {"slot": post["bonus_slot"], "value": _int(post.get("bonus_value"))}
    return action


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def starfish_word(number: int) -> str:
    return ngettext("starfish", "starfish", number)
