// Back and forward land on the step their address names (issue 15). htmx answers them by reloading
// the page (base.html's htmx-config), but only once the page is parsed and its scripts have run: a
// forward pressed while a page reloaded by back was still loading moved the address and left the
// screen where it was (a CI run caught it). Until htmx listens, this loads the address again.
// Loaded without defer, so that it listens before the page is shown.
"use strict";
(function () {
  function catchUp() {
    var body = document.body;
    var madeByHtmx = history.state && history.state.htmx;
    if (!body || !madeByHtmx || location.pathname + location.search === body.dataset.address) return;
    // An offline copy is drawn for the table's own address: loading it again would draw it again.
    if (body.dataset.offlineCopy !== undefined) return;
    location.reload();
  }
  window.addEventListener("popstate", catchUp);
  // htmx sets its own handler in this same event (its listener comes after this one): no back or
  // forward can come between the two, and from then on htmx answers them.
  document.addEventListener("DOMContentLoaded", function () { window.removeEventListener("popstate", catchUp); });
})();
