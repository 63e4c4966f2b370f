// The service worker (templates/pwa/sw.js) makes the app installable and a table openable offline.
"use strict";
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // No worker (a private window, an old browser): the app works as a website.
    });
  });
}
