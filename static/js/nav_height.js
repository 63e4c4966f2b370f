// An in-page link (a refusal's ruling, /rules/surfs-up/#SU-7) scrolls its target below the sticky
// navbar, not under it (issue 43). The bar is one line at 390 px and two at 320 px or with an
// account's links, so its height is measured: app.css reads it as --app-nav-height in
// scroll-padding-top. Once measured, a target named by the address is shown again below the bar.
"use strict";
(function () {
  function measure() {
    var nav = document.querySelector(".app-nav");
    if (nav) document.documentElement.style.setProperty("--app-nav-height", nav.offsetHeight + "px");
  }
  document.addEventListener("DOMContentLoaded", function () {
    var nav = document.querySelector(".app-nav");
    if (!nav) return;
    measure();
    if (window.ResizeObserver) new ResizeObserver(measure).observe(nav);
    var target = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  });
})();
