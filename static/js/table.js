// The table loop on the phone (issue 12), for a table page only. A file of our own, not inline:
// the Content-Security-Policy forbids inline script. htmx still does every swap.
//
// - Push: an EventSource on the table's stream hears "version N" and asks htmx to refresh the
//   live region ("refresh-table"), or gets the new region itself ("live") and swaps it in. When the stream cannot be held (no EventSource, a proxy that
//   buffers, a dropped connection) the page polls every 2 s meanwhile, and the stream is tried
//   again with backoff.
// - The connection mark says live, reconnecting or offline since when, with the last update.
// - The outbox: an entry that could not reach the server (offline, a timeout, a 5xx) is kept in
//   localStorage with its idempotency key and version, said plainly, and sent again with backoff
//   and when the phone comes back online. The server's answer decides what the phone shows.
// - A choice in progress that another phone's entry changed is said so ("choose again").
// - The screen stays on (Screen Wake Lock, where the browser has it), with a switch.
// - Keypad forms (the score pad): Enter moves on, what is typed survives a refresh.
(function () {
  "use strict";
  // The page's language, from Django's JavaScript catalog (jsi18n); English when it did not load
  // (a table opened offline from the worker's copy).
  var gettext = window.gettext || function (text) { return text; };
  function named(text, values) {
    if (window.interpolate) return window.interpolate(text, values, true);
    return text.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }
  var loop = document.getElementById("table-loop");
  if (!loop || !window.htmx) return;
  var tableId = loop.getAttribute("data-table");
  var mark = document.getElementById("connection");
  var POLL_MS = 2000;
  var HELD_MS = 5000; // the stream's first event must come this soon, or it is not being held
  var MAX_BACKOFF_MS = 30000;

  function live() { return document.getElementById("live"); }
  function shownVersion() { return Number(live().getAttribute("data-version")); }
  function clock(date, seconds) {
    var options = { hour: "2-digit", minute: "2-digit" };
    if (seconds) options.second = "2-digit";
    return date.toLocaleTimeString([], options);
  }
  function backoff(failures) {
    return Math.min(MAX_BACKOFF_MS, 1000 * Math.pow(2, failures)) * (0.75 + Math.random() / 4);
  }

  // --- The connection mark ---------------------------------------------------------------------
  var state = "connecting", offlineSince = null, updated = new Date();
  // A page the service worker kept (templates/pwa/sw.js): the table as this phone last saw it.
  var copySeen = document.body.getAttribute("data-offline-copy");
  if (copySeen !== null) {
    updated = new Date(copySeen || Date.now());
    if (isNaN(updated)) updated = new Date();
  }
  function show(newState) {
    if (copySeen !== null && location.search && (newState === "live" || newState === "polling")) {
      // The worker keeps the table's own page, not its steps: the address names a step the copy
      // cannot show, and the server answers again, so load that step (the outbox is kept).
      location.reload();
      return;
    }
    if (newState === "live") copySeen = null; // the server answers: no longer a kept copy
    if (newState === "offline" && state !== "offline") offlineSince = new Date();
    if (newState !== "offline") offlineSince = null;
    state = newState;
    var words = {
      connecting: gettext("Connecting…"),
      live: gettext("Live"),
      polling: gettext("Not live: updating every 2 s"),
      reconnecting: gettext("Reconnecting…"),
      offline: offlineSince ? named(gettext("Offline since %(time)s"), { time: clock(offlineSince) }) : gettext("Offline"),
    }[state];
    if (copySeen !== null && state !== "live" && state !== "polling") {
      words = gettext("Offline: the table as this phone last saw it");
    }
    mark.setAttribute("data-state", state);
    mark.querySelector(".connection-text").textContent =
      named(gettext("%(state)s · updated %(time)s"), { state: words, time: clock(updated, true) });
  }
  function touched() { updated = new Date(); show(state === "offline" ? "reconnecting" : state); }

  // --- Refreshing the live region --------------------------------------------------------------
  // htmx queues a refresh asked for while one is on its way (hx-sync "queue last"), so the newest
  // version heard is always fetched; a region older than it asks again.
  var stepBefore = null, heard = 0;
  function refresh() {
    if (!live()) return;
    if (stepBefore === null && choosing()) stepBefore = stepSignature();
    htmx.trigger(live(), "refresh-table");
  }
  function isRefresh(detail) {
    if (detail.pushed) return true; // a region the stream pushed
    return detail.requestConfig && detail.requestConfig.verb === "get" &&
      /\/poll\/$/.test(detail.requestConfig.path.split("?")[0]);
  }

  // --- Push, with polling while the stream is down ---------------------------------------------
  var source = null, failures = 0, heldTimer = null, retryTimer = null, pollTimer = null;
  // This phone renews the links itself: its page comes back with the new ones (and its rights), so
  // its stream's "renewed" must not reload the old page before the answer has arrived.
  var renewing = false;
  document.addEventListener("submit", function (event) {
    if (event.target.closest(".renew-links")) {
      renewing = true;
      if (source) source.close();
    }
  });
  var fanoutDown = false;
  var pollsFailed = false; // no signal, as opposed to a proxy that only refuses the stream
  function startPolling() {
    if (!pollTimer) pollTimer = setInterval(refresh, POLL_MS);
  }
  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }
  function connect() {
    clearTimeout(retryTimer);
    if (!window.EventSource) {
      show("polling");
      startPolling();
      return;
    }
    source = new EventSource(loop.getAttribute("data-events"));
    heldTimer = setTimeout(drop, HELD_MS);
    source.addEventListener("version", function (event) {
      held(Number(event.data));
      if (Number(event.data) !== shownVersion()) refresh();
      else touched();
    });
    // The live region itself (issue 33): the first line names its version and variant, the rest is
    // the region. Taken when this page shows the same variant and nothing of its own is on its way;
    // otherwise the page fetches its own, as for a version.
    source.addEventListener("live", function (event) {
      var cut = event.data.indexOf("\n");
      var head = event.data.slice(0, cut).split(" ");
      var version = Number(head[0]);
      held(version);
      if (version <= shownVersion()) touched();
      else if (head[1] === live().getAttribute("data-variant") && !busy()) takePushed(event.data.slice(cut + 1));
      else refresh();
    });
    // The server's fan-out lost its backend (a stopped Redis, say): the stream stays open but other
    // servers' entries do not reach it, so poll, marked as not live, until it says "up" (issue 28).
    source.addEventListener("fanout", function (event) {
      fanoutDown = event.data === "down";
      if (fanoutDown) {
        show("polling");
        startPolling();
      } else {
        stopPolling();
        show("live");
        refresh();
      }
    });
    // This phone no longer holds the table (its links were renewed, or its account signed out,
    // issue 41): the page reloads and says why.
    source.addEventListener("renewed", function () {
      source.close();
      if (!renewing) window.location.reload();
    });
    source.onerror = drop;
  }
  function held(version) {
    // The stream answers: it is live (unless its server's fan-out is down), and the version is known.
    clearTimeout(heldTimer);
    failures = 0;
    if (!fanoutDown) {
      stopPolling();
      show("live");
    }
    heard = Math.max(heard, version);
  }
  function busy() {
    // A request of this page's region on its way (an entry, a step, a refresh): its answer decides.
    return pending !== null || live().matches(".htmx-request") || live().querySelector(".htmx-request") !== null;
  }
  function takePushed(html) {
    keepTyped();
    htmx.swap(live(), html, { swapStyle: "outerHTML" }, { eventInfo: { pushed: true } });
  }
  function drop() {
    clearTimeout(heldTimer);
    fanoutDown = false;
    if (source) source.close();
    source = null;
    show(navigator.onLine === false ? "offline" : "reconnecting");
    startPolling();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, backoff(failures++));
  }

  // --- The outbox ------------------------------------------------------------------------------
  var KEY = "table-outbox:" + tableId;
  var banner = document.getElementById("outbox");
  var sending = false, sendTimer = null, sendFailures = 0, pending = null;
  function outbox() {
    try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch (error) { return []; }
  }
  function keep(entries) {
    if (entries.length) localStorage.setItem(KEY, JSON.stringify(entries));
    else localStorage.removeItem(KEY);
  }
  function say(text, waiting) {
    banner.querySelector(".outbox-text").textContent = text;
    banner.querySelector(".outbox-buttons").hidden = !waiting;
    banner.classList.toggle("alert-warning", waiting);
    banner.classList.toggle("alert-success", !waiting);
    banner.hidden = false;
  }
  function sayWaiting() {
    var entries = outbox();
    if (!entries.length) { banner.hidden = true; return; }
    var why = navigator.onLine === false ? gettext("no connection") : gettext("the server did not answer");
    say(named(gettext("Not sent yet: %(why)s. Your entry “%(entry)s” will be sent when the phone is back online."),
      { why: why, entry: entryWords(entries[0]) }), true);
  }
  function describe(form, submitter) {
    // A form of one row per player says each row as the log will ("Round 5: Ann 5, Ben 3"), so
    // whoever holds the phone can compare a kept entry with what the table recorded (issue 30).
    var rows = form ? rowsSaid(form) : "";
    var prefix = form && form.getAttribute("data-says-prefix");
    if (rows) return prefix ? named(gettext("%(what)s: %(entry)s"), { what: prefix, entry: rows }) : rows;
    // An option that is a whole entry on a screen of several decisions says itself (a die face).
    var says = (submitter && submitter.dataset.says) || form.dataset.says;
    if (says) return says;
    var title = form.querySelector(".prompt-title") || live().querySelector(".prompt-title");
    var shown = submitter && (submitter.querySelector(".option-label") || submitter); // not the hint
    var label = shown ? shown.textContent.trim().replace(/\s+/g, " ") : "";
    var what = title ? title.textContent.trim().replace(/\s+/g, " ") : "";
    if (what && label && label !== what) return what + ": " + label;
    return label || what || gettext("entry");
  }
  function rowsSaid(form) {
    return Array.from(form.querySelectorAll("[data-says-name]")).map(function (row) {
      var value = rowValue(row);
      return value ? row.getAttribute("data-says-name") + " " + value : "";
    }).filter(Boolean).join(", ");
  }
  function rowValue(row) {
    // A tapped choice says its label (a card's name, not its icon); a typed one its number, with
    // the minus key beside it.
    var picked = Array.from(row.querySelectorAll("input:checked")).filter(function (input) {
      return input.type === "radio" && shown(input);
    })[0];
    if (picked) {
      var label = row.querySelector('label[for="' + picked.id + '"]');
      // The words may be the label's own or, where the label shows an icon, an attribute's.
      var words = label && (label.querySelector("[data-says-value]") || label);
      if (!words) return picked.value;
      return (words.getAttribute("data-says-value") || words.textContent).trim().replace(/\s+/g, " ");
    }
    var field = row.querySelector("input[type=text], input[type=number]");
    if (!field || !field.value.trim()) return "";
    var minus = row.querySelector('input[type=checkbox][name^="minus_"]:checked');
    var number = field.value.trim().replace(/^-/, "−");
    return minus && number.charAt(0) !== "−" ? "−" + number : number;
  }
  function entryWords(entry) {
    // An entry kept by an older page says "Your entry “…”" whole: keep only what it quotes.
    return entry.words.replace(/^Your entry “([\s\S]*)”$/, "$1");
  }
  function stash(entry) {
    var entries = outbox();
    if (!entries.some(function (kept) { return kept.key === entry.key && kept.path === entry.path; })) {
      entries.push(entry);
    }
    keep(entries);
    sayWaiting();
    scheduleSend();
  }
  function scheduleSend() {
    clearTimeout(sendTimer);
    if (outbox().length) sendTimer = setTimeout(send, backoff(sendFailures));
  }
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }
  function send() {
    var entries = outbox();
    if (sending || !entries.length) return;
    sending = true;
    clearTimeout(sendTimer);
    var entry = entries[0];
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && setTimeout(function () { controller.abort(); }, 10000);
    fetch(entry.path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(entry.params).toString(),
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      if (response.status === 410) { // this phone no longer holds the table: its entries go nowhere
        keep([]);
        window.location.reload();
        return new Promise(function () {});
      }
      if (response.status >= 500 || response.status === 429) throw new Error("server " + response.status);
      return response.text().then(function (html) { return { response: response, html: html }; });
    }).then(function (answer) {
      sendFailures = 0;
      keep(outbox().filter(function (kept) { return kept.key !== entry.key || kept.path !== entry.path; }));
      var outcome = answer.response.headers.get("Companion-Outcome");
      if (outcome === "forbidden") {
        say(named(gettext("Your entry “%(entry)s” was not sent: this phone may only watch the table."),
          { entry: entryWords(entry) }), false);
      } else {
        htmx.swap(live(), answer.html, { swapStyle: "outerHTML" });
        if (outcome === "applied") say(named(gettext("Sent: “%(entry)s”."), { entry: entryWords(entry) }), false);
        else banner.hidden = true; // the table's own message says why (stale, refused)
      }
      if (outbox().length) sayWaiting();
      else if (outcome === "applied") setTimeout(function () { if (!outbox().length) banner.hidden = true; }, 4000);
      touched();
    }).catch(function () {
      sendFailures++;
      sayWaiting();
    }).then(function () {
      clearTimeout(timer);
      sending = false;
      scheduleSend();
    });
  }
  function lost(detail) {
    // An entry (a POST from the page) that got no answer, or a server error: keep it.
    var config = detail.requestConfig || {};
    if (config.verb !== "post" || !pending || pending.path !== config.path) return false;
    stash(pending);
    pending = null;
    return true;
  }

  banner.addEventListener("click", function (event) {
    var button = event.target.closest("[data-outbox]");
    if (!button) return;
    if (button.getAttribute("data-outbox") === "send") {
      sendFailures = 0;
      send();
    } else {
      var entries = outbox();
      entries.shift();
      keep(entries);
      sayWaiting();
    }
  });

  // --- A choice in progress changed by another phone -------------------------------------------
  var notice = document.getElementById("step-notice");
  function choosing() {
    var query = new URLSearchParams(location.search);
    query.delete("view"); // whose sheet is shown is not a choice
    return Array.from(query.keys()).length > 0;
  }
  function stepSignature() {
    // What this phone is choosing among: whose turn or which round, the step links and the buttons
    // and fields of its forms, versions and keys aside (they change with every entry).
    var status = live().querySelector("h1 + small"); // whose turn, which round: each game's _status.html
    var parts = [status ? status.textContent.trim() : ""];
    live().querySelectorAll("a[hx-get], button, input, select").forEach(function (element) {
      if (element.closest(".log")) return;
      if (/^(expected_version|idempotency_key|csrfmiddlewaretoken)$/.test(element.name || "")) return;
      parts.push(element.tagName + ":" + (element.getAttribute("hx-get") || "") + ":" + (element.name || "") +
        "=" + (element.value || "") + ":" + element.disabled + ":" + element.textContent.trim());
    });
    return parts.join("|");
  }
  function newestEntry() {
    var first = live().querySelector(".log li .flex-grow-1");
    return first ? first.textContent.trim() : "";
  }

  // --- Keypad forms (data-enter-next: the score pad, Surf's Up's goals) ----------------------------
  // Enter (the phone keyboard's Next) moves to the next field, and on the last one sends the form;
  // what is typed, and where, survives another phone's entry refreshing the page.
  var TYPED = "input[type=text], input[type=number]";
  document.body.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input.form || !input.form.hasAttribute("data-enter-next")) return;
    var fields = Array.from(input.form.querySelectorAll(TYPED));
    var next = fields[fields.indexOf(input) + 1];
    if (next) { event.preventDefault(); next.focus(); }
  });
  document.body.addEventListener("change", function (event) {
    // The minus key beside a field: the typing goes on in that field.
    var box = event.target;
    if (box.type !== "checkbox" || !box.form || !box.form.hasAttribute("data-enter-next")) return;
    var field = box.closest(".row") && box.closest(".row").querySelector("input[type=text]");
    if (field) field.focus();
  });
  // A tick that adds points (a Surf's Up shared goal, issue 43) shows the total it makes at once:
  // the output named by its data-preview holds its start (data-base) plus every ticked data-adds.
  document.body.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.form || !box.hasAttribute("data-preview")) return;
    var output = document.getElementById(box.getAttribute("data-preview"));
    if (!output) return;
    var total = Number(output.getAttribute("data-base"));
    box.form.querySelectorAll('input[data-preview="' + box.getAttribute("data-preview") + '"]:checked')
      .forEach(function (ticked) { total += Number(ticked.getAttribute("data-adds")); });
    output.textContent = String(total);
  });
  // --- Forms sent by their last choice (data-send-when-complete) -------------------------------
  // A form of tapped choices only (the Summer Suns roll, a Surf's Up card) sends itself once every
  // choice on screen is made: no button to reach after the last tap (issue 15). A group whose
  // labels are hidden (a bluebottle has no suit) is no choice to make.
  function shown(input) {
    var label = input.id && input.form.querySelector('label[for="' + input.id + '"]');
    return (label || input).getClientRects().length > 0;
  }
  function complete(form) {
    var groups = {};
    form.querySelectorAll("input[type=radio]").forEach(function (input) {
      if (shown(input)) groups[input.name] = groups[input.name] || input.checked;
    });
    return form.checkValidity() && Object.keys(groups).every(function (name) { return groups[name]; });
  }
  document.body.addEventListener("change", function (event) {
    var form = event.target.form;
    if (!form || !form.hasAttribute("data-send-when-complete") || !complete(form)) return;
    var chosen = Array.from(form.querySelectorAll("input:checked")).filter(shown).map(function (input) {
      var label = form.querySelector('label[for="' + input.id + '"]');
      return (label ? label.textContent : input.value).trim().replace(/\s+/g, " ");
    });
    form.dataset.says = form.getAttribute("data-send-when-complete") + " " + chosen.join(", ");
    form.requestSubmit();
  });
  // --- An offer that lasts a few seconds (data-expires-in): the redo after an undo ------------
  // Only the phone that undid the entry shows it (issue 43); it goes once its seconds are up.
  function expireOffers() {
    document.querySelectorAll("form[data-expires-in]:not([data-expiring])").forEach(function (form) {
      form.setAttribute("data-expiring", "");
      setTimeout(function () { form.remove(); }, 1000 * Number(form.getAttribute("data-expires-in")));
    });
  }
  expireOffers();
  document.body.addEventListener("htmx:afterSettle", expireOffers);
  // This phone's own pad entry (noted when it is posted, below): once the next one shows, whichever
  // answer brings it (this phone's own, or the refresh its write rang for, in either order), its
  // first field is ready to type.
  var padSaved = null;
  // A form of typed fields that this phone's own entry brought (data-focus-first: Surf's Up's
  // goals after the last beach card) is ready to type: no tap to reach its first field (issue 43).
  // Another phone's entry, which refreshes this one, never moves the focus.
  document.body.addEventListener("htmx:afterSettle", function (event) {
    if (!live() || !event.detail || !event.detail.requestConfig || isRefresh(event.detail)) return;
    var form = live().querySelector("form[data-focus-first]");
    if (form && !form.contains(document.activeElement)) focusFirstField();
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    if (padSaved === null || !live()) return;
    var form = live().querySelector("form[data-enter-next]");
    if (!form) { padSaved = null; return; }
    if (form.getAttribute("data-entry") === padSaved) return; // not saved yet, or refused
    padSaved = null;
    focusFirstField();
  });
  var typed = null;
  function focusFirstField() {
    var first = live().querySelector("form[data-enter-next] :is(" + TYPED + ")");
    if (first) first.focus();
  }
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (isRefresh(event.detail)) keepTyped();
  });
  function keepTyped() {
    if (!live()) return;
    var form = live().querySelector("form[data-enter-next]");
    if (!form) return;
    // Read before the swap: htmx moves the focus itself while it swaps.
    typed = { entry: form.getAttribute("data-entry"), values: {},
      focus: form.contains(document.activeElement) ? document.activeElement.id : "" };
    form.querySelectorAll(TYPED).forEach(function (input) {
      if (input.value) typed.values[input.id] = input.value;
    });
  }
  function restoreTyped() {
    var form = live().querySelector("form[data-enter-next]");
    if (!typed || !form) { typed = null; return; }
    // Only into the same entry: a round saved meanwhile (another phone's, or this phone's own when
    // the refresh lands before its answer) is not this one; the typing goes on at the next's start.
    if (form.getAttribute("data-entry") !== typed.entry) {
      if (typed.focus) focusFirstField();
      typed = null;
      return;
    }
    Object.keys(typed.values).forEach(function (id) {
      var input = document.getElementById(id);
      if (input && !input.value) input.value = typed.values[id];
    });
    var focus = typed.focus && document.getElementById(typed.focus);
    if (focus && focus.form && focus.form.hasAttribute("data-enter-next")) focus.focus();
    typed = null;
  }

  // --- htmx's events ---------------------------------------------------------------------------
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail, config = detail.requestConfig || {};
    if (config.verb === "post" && detail.elt && detail.elt.closest && detail.elt.closest("#live")) {
      var form = detail.elt.closest("form");
      if (form && form.hasAttribute("data-enter-next")) padSaved = form.getAttribute("data-entry");
      var params = {};
      // The fields htmx is about to send, the tapped button's name and value included.
      config.formData.forEach(function (value, name) { params[name] = value; });
      pending = {
        path: config.path,
        params: params,
        key: params.idempotency_key || "",
        version: shownVersion(),
        words: describe(form, config.triggeringEvent && config.triggeringEvent.submitter),
        at: Date.now(),
      };
    }
    if (!isRefresh(detail)) notice.hidden = true; // the phone moved on by itself
  });
  document.body.addEventListener("htmx:sendError", function (event) {
    if (lost(event.detail)) return;
    if (isRefresh(event.detail)) {
      pollsFailed = true;
      show(navigator.onLine === false ? "offline" : "reconnecting");
    }
  });
  document.body.addEventListener("htmx:timeout", function (event) { lost(event.detail); });
  document.body.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (status === 410) window.location.reload(); // the links were renewed: the page says so
    if (status >= 500) lost(event.detail);
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    if (isRefresh(detail)) {
      if (detail.successful) {
        if (state === "offline" || state === "reconnecting") show(source && !fanoutDown ? "live" : "polling");
        // A poll got through after polls failed: the signal is back, so the stream at once rather
        // than after its backoff, and the mark says Live within a second (issue 30).
        if (pollsFailed && !source) {
          failures = 0;
          connect();
        }
        pollsFailed = false;
        touched();
      }
    } else if (detail.successful && pending && detail.requestConfig && detail.requestConfig.path === pending.path) {
      pending = null;
    }
  });
  // After this phone's own entry or step, the next decision's title is in view, below the sticky
  // navbar: the page keeps its scroll, and a tap low on a long page left the next title above the
  // screen (issue 30: whose reward it is hid under the navbar).
  function titleInView() {
    var title = live() && live().querySelector(".prompt-title");
    if (!title) return;
    var nav = document.querySelector(".app-nav");
    var top = (nav ? nav.getBoundingClientRect().bottom : 0) + 8;
    var box = title.getBoundingClientRect();
    if (box.top >= top && box.bottom <= window.innerHeight) return;
    window.scrollBy(0, box.top - top);
  }
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target !== live() && event.target.id !== "live") return;
    touched();
    if (isRefresh(event.detail)) {
      restoreTyped();
    } else {
      titleInView();
    }
    if (stepBefore !== null && isRefresh(event.detail)) {
      if (choosing() && stepSignature() !== stepBefore) {
        var entry = newestEntry();
        notice.textContent = entry
          ? named(gettext("Another phone entered “%(entry)s” while you were choosing: choose again."), { entry: entry })
          : gettext("Another phone changed the table while you were choosing: choose again.");
        notice.hidden = false;
      }
    }
    stepBefore = null;
    if (shownVersion() < heard) refresh();
  });

  window.addEventListener("online", function () {
    sendFailures = 0;
    send();
    failures = 0;
    if (!source) connect();
    refresh();
  });
  window.addEventListener("offline", function () { show("offline"); });

  // --- The screen stays on ---------------------------------------------------------------------
  var wakeSwitch = document.getElementById("wake-switch");
  var wakeLock = null;
  function wantAwake() { return localStorage.getItem("table-wake") !== "off"; }
  function stayAwake() {
    if (!("wakeLock" in navigator) || !wantAwake() || document.visibilityState !== "visible" || wakeLock) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { wakeLock = null; });
  }
  if ("wakeLock" in navigator && wakeSwitch) {
    document.getElementById("wake").hidden = false;
    wakeSwitch.checked = wantAwake();
    wakeSwitch.addEventListener("change", function () {
      localStorage.setItem("table-wake", wakeSwitch.checked ? "on" : "off");
      if (wakeSwitch.checked) stayAwake();
      else if (wakeLock) wakeLock.release();
    });
    document.addEventListener("visibilitychange", stayAwake); // the browser drops it when hidden
    stayAwake();
  }

  show(navigator.onLine === false ? "offline" : "connecting");
  connect();
  if (outbox().length) { sayWaiting(); scheduleSend(); }
})();
