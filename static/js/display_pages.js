// The big screen in pages (issue 43): a table of many players does not fit 1280x720 at a size read
// from two metres, and nobody scrolls a television. Where a column of the screen runs past its
// bottom, its list (the scores, the sheets, the surfers, the pad's rows) is cut into pages that
// each fit, shown in turn every few seconds, with "1–4 of 8" under them; the arrow keys turn them.
(function () {
  "use strict";
  var SECONDS = 8;
  var ITEMS = ".scoreboard > li, .ss-display-sheet, .rw-sheet, .display-board .seat-panel, .display-board tbody > tr";
  var gettext = window.gettext || function (text) { return text; };
  var turn = 0; // the page shown of every paged list: it survives the updates of the screen
  var groups = [];

  // A class, not the hidden attribute: Bootstrap's d-flex would show a hidden item.
  function hide(item, off) { item.classList.toggle("display-off", off); }
  function live() { return document.querySelector("#live.display"); }
  function room() {
    var main = document.querySelector("main");
    return innerHeight - (main ? parseFloat(getComputedStyle(main).paddingBottom) : 0);
  }
  function fits(column) { return column.getBoundingClientRect().bottom <= room() + 0.5; }

  function lists(root) {
    // The items of one parent are one list; a table's rows of totals stay on every page.
    var byParent = new Map();
    root.querySelectorAll(ITEMS).forEach(function (item) {
      if (item.matches("tr.fw-bold, tr.yz-total")) return;
      if (!byParent.has(item.parentElement)) byParent.set(item.parentElement, []);
      byParent.get(item.parentElement).push(item);
    });
    return Array.from(byParent.values()).filter(function (items) { return items.length > 1; });
  }

  function show(group) {
    var page = ((turn % group.pages) + group.pages) % group.pages; // turned back past the first
    group.items.forEach(function (item, i) { hide(item, group.pageOf[i] !== page); });
    var first = group.pageOf.indexOf(page), last = group.pageOf.lastIndexOf(page);
    group.pager.textContent = window.interpolate
      ? window.interpolate(gettext("%(first)s–%(last)s of %(count)s"),
        { first: first + 1, last: last + 1, count: group.items.length }, true)
      : (first + 1) + "–" + (last + 1) + " / " + group.items.length;
  }

  function paginate(items) {
    // Pages that each fit their column, greedily: as many items as fit, at least one.
    var column = items[0].closest(".display-main, .display-board");
    if (!column || fits(column)) return null;
    var holder = items[0].closest("table") || items[0].parentElement;
    var pager = document.createElement("p");
    pager.className = "display-pager text-body-secondary";
    pager.setAttribute("aria-hidden", "true"); // the screen reader reads the whole list
    pager.textContent = "…";
    holder.after(pager);
    var pageOf = [], page = 0, start = 0;
    items.forEach(function (item) { hide(item, true); });
    for (var i = 0; i < items.length; i++) {
      hide(items[i], false);
      if (!fits(column) && i > start) {
        items.slice(start, i).forEach(function (item) { hide(item, true); });
        page += 1;
        start = i;
      }
      pageOf[i] = page;
    }
    return { items: items, pageOf: pageOf, pages: page + 1, pager: pager };
  }

  function layout() {
    var root = live();
    groups.forEach(function (group) { group.pager.remove(); });
    groups = [];
    if (!root) return;
    scrollTo(0, 0);
    root.querySelectorAll(ITEMS).forEach(function (item) { hide(item, false); });
    // The longest list first: paging it may be enough for its column.
    lists(root).sort(function (a, b) { return b.length - a.length; }).forEach(function (items) {
      var group = paginate(items);
      if (group) groups.push(group);
    });
    groups.forEach(show);
  }

  function step(by) {
    turn += by;
    groups.forEach(show);
  }

  if (!live()) return;
  layout();
  setInterval(function () { step(1); }, SECONDS * 1000);
  document.body.addEventListener("htmx:afterSettle", layout);
  addEventListener("resize", layout);
  addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === " " || event.key === "PageDown") step(1);
    else if (event.key === "ArrowLeft" || event.key === "PageUp") step(-1);
    else return;
    event.preventDefault();
  });
})();
