"""The pages: fetch, call the service, render. No rules here."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpResponse, HttpResponseForbidden, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from companion import errors, tokens
from companion.games import base, registry, rulebook, screen_kit
from companion.groups import access as group_access
from companion.groups.models import Group
from companion.sheets.parse import PAD as SCORE_SHEETS_GAME

from . import access, live_cache, qr, replay, score_chart, services
from .forms import (
    NewTableForm,
    known_player_names,
    like_options,
    own_rules_options,
    past_options,
    sheet_options,
)
from .limits import limit_tables, limit_writes
from .models import Table

LOG_LENGTH = 200  # newest entries sent with a table page
LOG_NEWEST = 5  # of those, shown before "Show the earlier entries"
DONE_KEY = "done:"  # + table id: the words confirming a write, for the page after its redirect
REDO_KEY = "redo:"  # + table id: the entry this phone just undid, which it may enter again
REDO_SECONDS = 10  # how long the phone that undid an entry offers to redo it (issue 43)
GUIDE_KEY = "guide:"  # + table id: this phone put the setup guide away (issue 32)


@dataclass(frozen=True)
class Done:
    """A write confirmed in words, on the phone that made it; an undo names the entry to redo."""

    words: str = ""
    redo: int | None = None

    def shown_in(self, context: dict) -> None:
        context.update(done=self.words, redo=self.redo, redo_seconds=REDO_SECONDS)


def home(request):
    known = access.known_table_ids(request)
    mine = access.held_tables(request, Table.objects.filter(pk__in=known).order_by("-created")[:20])
    return render(
        request,
        "tables/home.html",
        {
            # Without a default group a table starts from its group's page.
            "engines": registry.all_engines() if settings.DEFAULT_GROUP else [],
            "my_tables": [_summary(table) for table in mine],
            "my_groups": group_access.known_groups(request),
        },
    )


def _summary(table: Table) -> dict:
    return {"table": table, "engine": services.engine_for(table), "names": services.seat_names(table)}


@limit_tables
def new_table(request, slug: str):
    if slug not in registry.GAMES:
        raise Http404("No such game")
    engine = registry.get(slug)
    group = _new_table_group(request)
    if group is None:
        messages.info(request, _("Start a table from your group's page, or start a group."))
        return redirect(reverse("tables:home") + "#groups")
    request.group_id = group.pk  # the nav's History is the group's
    initial = like_options(group, slug, request.GET.get("like"))
    # A library sheet, or the group's own (issue 44): a score sheet fills in the form, a rules
    # sheet is played whole.
    initial = initial or sheet_options(slug, request.GET.get("sheet"), group)
    fixed, fixed_name = own_rules_options(slug, request.GET.get("sheet"), group)
    form = NewTableForm(engine, request.POST or None, initial_options=initial, fixed_options=fixed)
    if request.method == "POST" and form.is_valid():
        try:
            names, options = form.cleaned_data["names"], form.cleaned_data["options"]
            table = services.create_table(slug, names, options, group)
        except base.ActionError as error:
            form.add_error(None, error.message)
        else:
            access.grant(request, table, tokens.EDIT)
            return redirect("tables:table", table.id)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "tables/new.html",
        {
            "engine": engine,
            "form": form,
            "group": group,
            "known_players": known_player_names(group),
            "past_options": past_options(group, slug, sheets=slug == SCORE_SHEETS_GAME),
            "option_applies": getattr(engine, "option_applies", {}),
            "fixed_name": fixed_name,
        },
        status=status,
    )


def _new_table_group(request) -> Group | None:
    """The group a new table joins: ?group= (which this phone must be a member of: else 404),
    else the open default group, else None."""
    group_id = request.GET.get("group")
    if not group_id:
        return Group.default() if settings.DEFAULT_GROUP else None
    if group_access.rights(request, group_id) != tokens.EDIT:
        raise Http404("No such group")
    return get_object_or_404(Group, pk=group_id)


@login_not_required
def rules_page(request, slug: str):
    """A game's rules in players' words, an anchor per ruling: where every ruling id links."""
    if slug not in registry.GAMES:
        raise Http404("No such game")
    rules = rulebook.rules(slug, translation.get_language())
    return render(request, "tables/rules.html", {"engine": registry.get(slug), "rules": rules})


# A table's own views need no account in a private deployment (COMPANION_LOGIN_REQUIRED): each
# demands the rights its share link put in the session, or answers 404.
@login_not_required
def join(request, table_id: str, token: str):
    """A share link: remember the rights in this phone's session, then drop the token from the URL."""
    table = get_object_or_404(Table, pk=table_id)
    rights = tokens.rights_for_token(table, token)
    if rights is None:
        raise Http404("No such table")
    access.grant(request, table, rights)
    # The big screen's link (the share panel's) opens the display rather than the table (issue 32).
    return redirect("tables:display" if request.GET.get("to") == "display" else "tables:table", table.id)


def _load(request, table_id: str) -> tuple[Table, str]:
    table = get_object_or_404(Table, pk=table_id)
    rights = access.session_rights(request, table.id, table.links)
    if rights is None:
        _no_rights(request, table.id, table.links)
    return table, rights


def _no_rights(request, table_id: str, links: int):
    """404 as for an unknown table; 410 with a sentence for a phone whose links were renewed since
    (it knew the table: nothing leaks), which its page reloads into (table.js)."""
    if access.links_renewed(request, table_id, links):
        raise errors.LinksRenewed("table")
    raise Http404("No such table")


def _context(
    request,
    table: Table,
    rights: str,
    error: base.ActionError | None = None,
    notice: str = "",
    display=False,
    reads_group: bool | None = None,
):
    """Everything a table page shows. After a refusal the posted choices stay picked."""
    data = services.table_json(table)
    names = [player["name"] for player in data["players"]]
    screen = registry.screen(table.game)
    seat = access.my_seat(request, table.id)
    events = live_cache.log(table, _log)
    in_history = phone_reads_group(request, table) if reads_group is None else reads_group
    viewer = screen_kit.Viewer(
        can_edit=rights == tokens.EDIT,
        seat=seat if seat is not None and seat < len(names) else None,
        query=choice_query(request),
        posted=request.POST.dict() if error else {},
        log=[(event.seq, event.action) for event in events],
        noted=services.hidden_noted(table),
        display=display,
    )
    return {
        "table": table,
        "data": data,
        "engine": services.engine_for(table),
        "can_edit": rights == tokens.EDIT,
        "names": names,
        "game_dir": registry.template_dir(table.game),
        # A panel's links (whose sheet is shown) keep the choice in progress: a tap on a sheet
        # never drops a write that is not entered yet (issue 30). The replay keeps its step so.
        "panel_query": _choice_query(viewer.query),
        "screen": screen.context(data, viewer),
        "viewer": viewer,
        "query_string": urlencode(viewer.query),
        "act_url": reverse("tables:act", args=[table.id]),  # once, not in each of a screen's forms
        # The table page's stream pushes its live region; the big screen's only names versions.
        "events_url": reverse("tables:events", args=[table.id]) + ("" if display else "?live=1"),
        "events": events,
        "last_entry": events[0] if events else None,
        # The log's lines joined here, each rendered once (live_cache.log_line): the template's
        # loop over up to 200 of them cost 0.6 ms a render, the join 0.04 (issue 45).
        "log_newest": _joined_lines(events[:LOG_NEWEST]),
        "log_earlier": _joined_lines(events[LOG_NEWEST:]),
        "log_earlier_count": max(len(events) - LOG_NEWEST, 0),
        "error": error,
        "error_text": error.message if error else "",  # services named the seats (G-2)
        "notice": notice,
        "form_key": uuid.uuid4().hex,
        "score_chart": _score_chart(table, names) if data["status"] == "finished" else None,
        "in_history": in_history,
        # Which variant this region is (live_cache): a region pushed in the stream for another is
        # not taken.
        "live_variant": live_cache.fingerprint(live_cache.phone_part(rights, seat, viewer.query, in_history)),
        "guide": _guide(request, table, rights, names),
    }


def _log(table: Table) -> list:
    """The newest live entries, newest first, numbered 1..n as people count them (seq has gaps
    where entries were undone), each with its line as the page shows it."""
    live = table.events.filter(undone=False)
    # The stored answers are not read here: they are the largest columns of the log.
    events = list(live.order_by("-seq").defer("answer", "response")[:LOG_LENGTH])
    first_number = live.count() if len(events) == LOG_LENGTH else len(events)
    for offset, event in enumerate(events):
        event.number = first_number - offset
        event.html = live_cache.log_line(event, table.game)
    return events


def _joined_lines(events: list) -> str:
    return mark_safe("".join(event.html for event in events))  # each line rendered and escaped


def _guide(request, table: Table, rights: str, names: list[str]) -> dict | None:
    """Before the first entry, how to set the game up for this many players, and who starts where
    the rulebook says (issue 32); until this phone puts it away."""
    guide = registry.guide(table.game)
    if guide is None or rights != tokens.EDIT or table.last_seq or table.abandoned is not None:
        return None
    if request.session.get(GUIDE_KEY + table.id):
        return None
    return {
        "steps": guide.steps(len(names), table.options),
        "first": _(guide.FIRST_PLAYER)
        if guide.FIRST_PLAYER and not request.session.get(GUIDE_KEY + "first:" + table.id)
        else "",
        "names": names,
    }


def choice_query(request) -> dict:
    """The step this phone has open (its address's query), without what only the loop adds: the
    version a poll shows, the stream's wish for pushed regions."""
    return {key: request.GET.get(key) for key in request.GET if key not in ("v", "live")}


def _choice_query(query: dict) -> str:
    choice = {key: value for key, value in query.items() if key != "view" and value}
    return urlencode(choice) + "&" if choice else ""


def phone_reads_group(request, table: Table) -> bool:
    """Whether this phone reads the table's group (then its finished play links to the group's
    history, and the nav's History is that group's)."""
    if group_access.rights(request, table.group_id) is None:
        return False
    request.group_id = table.group_id
    return True


def _score_chart(table: Table, names: list[str]) -> dict | None:
    """The finished game's scores after every entry, drawn by the history's chart."""
    return score_chart.table_chart(table, names, replay.live_events(table))


@login_not_required
def table_page(request, table_id: str):
    table, rights = _load(request, table_id)
    context = _context(request, table, rights)
    Done(
        request.session.pop(DONE_KEY + table.id, ""), request.session.pop(REDO_KEY + table.id, None)
    ).shown_in(context)
    if request.htmx and not request.htmx.history_restore_request:
        # A step of a choice in progress (e.g. which slot, then which die): only the live region.
        return render(request, "tables/table.html#live", context)
    view_path, view_qr = (
        reverse("tables:join", args=[table.id, table.view_token]),
        reverse("tables:qr", args=[table.id, "view"]),
    )
    context["share"] = {
        "view": request.build_absolute_uri(view_path),
        "view_qr": view_qr,
        # The watch link that opens the table on a big screen (issue 32).
        "display": request.build_absolute_uri(view_path + "?to=display"),
        "display_path": view_path + "?to=display",
        "display_qr": view_qr + "?to=display",
    }
    if rights == tokens.EDIT:
        context["share"].update(
            edit=request.build_absolute_uri(reverse("tables:join", args=[table.id, table.token])),
            edit_qr=reverse("tables:qr", args=[table.id, "edit"]),
            renew=reverse("tables:renew", args=[table.id]),
        )
    return render(request, "tables/table.html", context)


@login_not_required
@require_POST
@limit_writes
def renew_links(request, table_id: str):
    """New play and watch links (issue 41): a link that leaked, or a phone that should leave the
    table, opens nothing from now on, on every server and in every open stream. This phone keeps
    playing."""
    table, rights = _load(request, table_id)
    if rights != tokens.EDIT:
        return HttpResponseForbidden(_("Only a phone with the play link can renew the links."))
    table = services.renew_links(table.id, table.links)
    if table is None:  # another phone renewed them first: this one's link is among the old ones
        raise errors.LinksRenewed("table")
    access.grant(request, table, tokens.EDIT)
    messages.success(
        request,
        _("New links made: the old ones open nothing now. Show the new QR codes to the phones that stay."),
    )
    return redirect("tables:table", table.id)


@login_not_required
@require_GET
def display(request, table_id: str):
    """The table on a big screen in the middle of the table (issue 32, API.md): the scores, what the
    game waits for, the last entry and the game's public board, large; nothing that writes. It
    follows the table as a phone does (table.js): `?v=` answers 204 while the version is shown."""
    table, _rights = _load(request, table_id)
    if "v" in request.GET:
        if str(table.version) == request.GET["v"]:
            return HttpResponse(status=204)
        return render(request, "tables/display.html#live", _display_context(request, table))
    return render(request, "tables/display.html", _display_context(request, table))


def _display_context(request, table: Table) -> dict:
    context = _context(request, table, tokens.VIEW, display=True)  # for everyone: it never writes
    folder = registry.folder(table.game) / "templates" / context["game_dir"]
    # A game's own big-screen board (every sheet side by side), else its board and its panel.
    parts = ["_display.html"] if (folder / "_display.html").exists() else ["_board.html", "_panel.html"]
    context["boards"] = [f"{context['game_dir']}/{part}" for part in parts if (folder / part).exists()]
    return context


def _render_live(request, table: Table, rights: str, error=None, notice="", status=200, done=Done()):
    """After a write: the live region for htmx, the whole page otherwise. `done` confirms an
    applied write in words ("Undone: ..."), where the eye is, and may offer to redo it."""
    if request.htmx and error is None and not notice and not done.words and done.redo is None:
        # A plain entry: the region every phone of this one's variant shares (issue 45), rendered
        # once for this answer and the other phones' pushes, or already rendered for them.
        found = shared_region(request, table, rights, phone_reads_group(request, table))
        if found is not None:
            return HttpResponse(live_cache.filled(found[1], get_token(request)))
    context = _context(request, table, rights, error=error, notice=notice)
    done.shown_in(context)
    if request.htmx:
        # htmx 2 leaves 4xx answers unswapped, so a refusal is a 200 carrying its message.
        return render(request, "tables/table.html#live", context)
    if error is None and not notice:
        if done.words:  # said on the page the redirect opens, once (a reload does not post again)
            request.session[DONE_KEY + table.id] = done.words
        if done.redo is not None:
            request.session[REDO_KEY + table.id] = done.redo
        return redirect("tables:table", table.id)
    return render(request, "tables/table.html", context, status=status)


def _write(request, table_id: str, run) -> HttpResponse:
    """Run one write; the answer says how it went in its Companion-Outcome header (applied, stale,
    refused), which the phone's outbox (static/js/table.js) reads when it sends an entry again."""
    table, rights = _load(request, table_id)
    if rights != tokens.EDIT:
        response = HttpResponseForbidden(_("This link can only watch the table."))
        response["Companion-Outcome"] = "forbidden"
        return response
    error, notice, status, outcome, done = None, "", 200, "applied", Done()
    try:
        said = run(table)
        # A run may confirm its write in words, and an undo offer to redo it.
        done = said if isinstance(said, Done) else Done(said if isinstance(said, str) else "")
    except base.ActionError as exc:
        error, status, outcome = exc, exc.status, "refused"
    except services.StaleVersion:
        notice, status, outcome = _stale_notice(table), 409, "stale"
    table = services.after_write(table)  # the row this write committed: no read (issue 45)
    response = _render_live(request, table, rights, error=error, notice=notice, status=status, done=done)
    response["Companion-Outcome"] = outcome
    if request.htmx and outcome == "applied":
        # The entry is made: the address leaves the steps of the choice behind (issue 12).
        response["HX-Replace-Url"] = reverse("tables:table", args=[table.id])
    return response


def _still_held(request, row: Table | None) -> None:
    """The grant checked again on the row the entry writes: links renewed since the page was read
    (issue 41) leave this phone's entry unwritten."""
    if row is None or access.session_rights(request, row.id, row.links) != tokens.EDIT:
        raise errors.LinksRenewed("table")


def _stale_notice(table: Table) -> str:
    newest = table.events.filter(undone=False).order_by("-seq").first()
    if newest is None:
        return _("Another phone wrote first, so yours was not sent. Here is the table now.")
    return _("Another phone entered “{entry}” first, so yours was not sent. Here is the table now.").format(
        entry=newest.said
    )


def _key(request) -> str | None:
    """The form's idempotency key, if it is one a database can store (printable, <= 64)."""
    key = (request.POST.get("idempotency_key") or "")[:64]
    return key if key.isprintable() and key.strip() else None


@login_not_required
@require_POST
@limit_writes
def act(request, table_id: str):
    def run(table: Table):
        # The values noted in secret reach the final entry here, and nowhere else (issue 30).
        data = {**services.table_json(table), "hidden_values": services.hidden_values(table)}
        action = registry.screen(table.game).action_from_form(request.POST, data)
        services.play_action(
            table.id,
            action,
            _int(request.POST.get("expected_version")),
            _key(request),
            authorize=lambda row: _still_held(request, row),
        )

    return _write(request, table_id, run)


@login_not_required
@require_POST
@limit_writes
def note_hidden(request, table_id: str):
    """A value a seat's player notes in secret on their phone (a bluebottle token, issue 30)."""

    def run(table: Table) -> str:
        seat, index, value = (_int(request.POST.get(key)) for key in ("seat", "index", "value"))
        services.note_hidden(table.id, seat, index, value)
        return _("Noted: nobody sees it until the end.")

    return _write(request, table_id, run)


@login_not_required
@require_POST
@limit_writes
def undo(request, table_id: str):
    def run(table: Table) -> str:
        seq = _seq(request.POST.get("seq"))
        live = table.events.filter(undone=False)
        target = (live.filter(seq=seq) if seq is not None else live.order_by("-seq")).first()
        services.undo(table.id, _int(request.POST.get("expected_version")), seq, _key(request))
        if target is None:
            return _("Undone.")
        return Done(_("Undone: {entry}").format(entry=target.said), redo=target.seq)

    return _write(request, table_id, run)


@login_not_required
@require_POST
@limit_writes
def redo(request, table_id: str):
    """The entry this phone undid a moment ago, entered again as it was (issue 43): refused like
    any entry once the table has moved on (another entry, another undo: the version tells)."""

    def run(table: Table) -> str:
        seq = _seq(request.POST.get("seq"))
        undone = table.events.filter(seq=seq, undone=True).first() if seq is not None else None
        if undone is None:
            said = _("There is no undone entry to enter again (T-N1).")
            raise base.RuleViolation("nothing_to_redo", said, "T-N1")
        services.play_action(
            table.id,
            undone.action,
            _int(request.POST.get("expected_version")),
            _key(request),
            authorize=lambda row: _still_held(request, row),
        )
        return _("Entered again: {entry}").format(entry=undone.said)

    return _write(request, table_id, run)


@login_not_required
@require_POST
@limit_writes
def abandon(request, table_id: str):
    """Stop a game before its end: it leaves the statistics and refuses entries until resumed."""
    return _write(
        request,
        table_id,
        lambda table: services.abandon(table.id, _int(request.POST.get("expected_version")), _key(request)),
    )


@login_not_required
@require_POST
@limit_writes
def resume(request, table_id: str):
    return _write(
        request,
        table_id,
        lambda table: services.resume(table.id, _int(request.POST.get("expected_version")), _key(request)),
    )


@login_not_required
@require_POST
@limit_tables
def play_again(request, table_id: str):
    """ "Play again with the same players": the finished table's next game, made by the first
    phone that asks; every other phone of the table follows it with the rights it holds here."""
    table, rights = _load(request, table_id)
    if rights != tokens.EDIT:
        if table.rematch_id is None:
            return HttpResponseForbidden(_("This link can only watch the table."))
        return _follow(request, table.rematch, tokens.VIEW)
    try:
        rematch = services.play_again(table.id)
    except base.ActionError as error:
        return _render_live(request, table, rights, error=error, status=error.status)
    return _follow(request, rematch, tokens.EDIT)


def _follow(request, rematch: Table, rights: str):
    """Into the next game with the rights held at this one, while its links are the ones it was
    made with: once they were renewed (issue 41), only its new links open it (a phone shut out of
    it must not come back through the game before)."""
    if rematch.links != 0:
        raise errors.LinksRenewed("table")
    access.grant(request, rematch, rights)
    return redirect("tables:table", rematch.id)


@login_not_required
@require_POST
def put_guide_away(request, table_id: str):
    """The setup guide's Done or Skip: one tap, and this phone shows the table's first decision."""
    table, _rights = _load(request, table_id)
    request.session[GUIDE_KEY + table.id] = True
    if request.htmx:
        return _render_live(request, table, _rights)
    return redirect("tables:table", table.id)


@login_not_required
@require_POST
@limit_writes
def choose_first(request, table_id: str):
    """Who starts, as the rulebook says (HF-1): that player takes seat 1 before the first entry."""

    def run(table: Table) -> str:
        version, seat = (_int(request.POST.get(key)) for key in ("expected_version", "seat"))
        services.choose_first(table.id, version, seat, _key(request))
        request.session[GUIDE_KEY + "first:" + table.id] = True  # asked and answered on this phone
        table.refresh_from_db()
        return _("{name} starts.").format(name=services.seat_names(table)[0])

    return _write(request, table_id, run)


@login_not_required
@require_POST
def choose_seat(request, table_id: str):
    """ "This is my sheet": remember which seat this phone plays (empty: none, a shared phone)."""
    table, _rights = _load(request, table_id)
    seat = _int(request.POST.get("seat"))
    access.set_seat(request, table.id, seat if seat is not None and 0 <= seat < table.seats.count() else None)
    return redirect("tables:table", table.id)


@login_not_required
@require_GET
def poll(request, table_id: str):
    """Answers 204 while the version the phone shows is current: one indexed query, no rendering."""
    row = Table.objects.filter(pk=table_id).values_list("version", "links").first()
    if row is None:
        raise Http404("No such table")
    version, links = row
    if access.session_rights(request, table_id, links) is None:
        _no_rights(request, table_id, links)
    if str(version) == request.GET.get("v"):
        return HttpResponse(status=204)
    table, rights = _load(request, table_id)
    reads_group = phone_reads_group(request, table)  # read once: the variant's and the page's
    found = shared_region(request, table, rights, reads_group)
    if found is None:  # this phone's own region (its setup guide, its secret notes): rendered for it
        context = _context(request, table, rights, reads_group=reads_group)
        return render(request, "tables/table.html#live", context)
    _part, html = found
    return HttpResponse(live_cache.filled(html, get_token(request)))


def shared_region(request, table: Table, rights: str, reads_group: bool) -> tuple[tuple, str] | None:
    """The live region of `table` as every phone of this one's variant shares it (with the
    live_cache placeholders), and what the phone brings to the variant (live_cache.phone_part);
    None where the region is the phone's own. The poll view's answer, and what a table page's
    stream pushes (live_push.py)."""
    seat = access.my_seat(request, table.id)
    key = live_cache.variant(table, rights, seat, choice_query(request), reads_group)
    if key is None:
        return None

    def render_shared() -> str:
        placeholders = {"form_key": live_cache.FORM_KEY, "csrf_token": live_cache.CSRF_TOKEN}
        context = _context(request, table, rights, reads_group=reads_group)
        return render_to_string("tables/table.html#live", {**context, **placeholders}, request)

    return key[1], live_cache.shared(key, table.version, render_shared)


def phone_part(request, table: Table, rights: str) -> tuple:
    """What this phone brings to its region's variant (live_cache.phone_part), known without a
    render: a table page's stream learns it when it opens (live_push.py)."""
    seat = access.my_seat(request, table.id)
    return live_cache.phone_part(rights, seat, choice_query(request), phone_reads_group(request, table))


@login_not_required
@require_GET
def qr_code(request, table_id: str, kind: str):
    table, rights = _load(request, table_id)
    if kind == "edit" and rights != tokens.EDIT:
        return HttpResponseForbidden(_("Only a phone with the edit link can share it."))
    if kind not in ("edit", "view"):
        raise Http404("No such link")
    token = table.token if kind == "edit" else table.view_token
    url = request.build_absolute_uri(reverse("tables:join", args=[table.id, token]))
    if request.GET.get("to") == "display":
        url += "?to=display"
    return HttpResponse(qr.svg(url), content_type="image/svg+xml")


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


NO_ENTRY = 0  # an entry's seq counts from 1


def _seq(value) -> int | None:
    """The entry an undo names: None when the form names none (the newest is taken back), else its
    seq; a text that is no number names no entry, refused as T-N1 says (issue 41: "²" or 5,000
    digits took back the newest entry)."""
    if value is None or value == "":
        return None
    seq = _int(value)
    return NO_ENTRY if seq is None else seq


def too_many_requests(request, exception=None):
    """429 for a client over its rate (RATELIMIT_VIEW). An htmx request gets the sentence in the
    page's flash area instead of replacing the table."""
    message = _("Too many entries from this address in a short time: wait a minute, then try again.")
    if request.path.startswith("/api/"):
        body = {"error": {"code": "rate_limited", "message": message, "rule": None}}
        return JsonResponse(body, status=429)
    response = render(request, "tables/_flash.html", {"message": message}, status=429)
    if request.htmx:
        response["HX-Retarget"], response["HX-Reswap"] = "#flash", "innerHTML"
    return response
