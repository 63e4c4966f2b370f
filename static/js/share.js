// Copy buttons for the share links. navigator.clipboard only exists on https or localhost, and a
// table on a LAN is plain http, so fall back to selecting the text and the old copy command.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var input = document.querySelector(button.getAttribute("data-copy"));
  function done() {
    button.textContent = "Copied";
    setTimeout(function () { button.textContent = "Copy"; }, 1500);
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done);
  } else {
    input.select();
    if (document.execCommand("copy")) done();
  }
});
