// Follow the phone's light/dark setting (Bootstrap 5.3 reads data-bs-theme). Loaded from a file,
// not inline, so a strict Content-Security-Policy can forbid inline scripts.
(function () {
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  function apply() {
    document.documentElement.setAttribute("data-bs-theme", dark.matches ? "dark" : "light");
  }
  apply();
  dark.addEventListener("change", apply);
})();
