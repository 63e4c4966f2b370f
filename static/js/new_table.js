// The new-table form (templates/tables/new.html), made shorter with JavaScript; without it every
// field simply shows. Two jobs: seats beyond the first few appear one at a time, as the last shown
// one is typed into; and a free-text option typed before (a pad's game name) fills in the other
// options of the latest table that used it (its categories), leaving what was changed alone.
(function () {
  "use strict";
  const form = document.getElementById("new-table");
  if (!form) return;

  // A hidden seat appears once the seat before it has a name (or it has one itself).
  const players = Array.from(form.querySelectorAll("input[name^='player_']"));
  function showSeats() {
    players.forEach((input, i) => {
      const wrapper = input.closest(".more-seat");
      if (wrapper) wrapper.hidden = !(input.value.trim() || players[i - 1].value.trim());
    });
  }
  form.addEventListener("input", (event) => {
    if (event.target.name && event.target.name.startsWith("player_")) showSeats();
  });
  showSeats();

  const past = JSON.parse(document.getElementById("past-options")?.textContent || "{}");
  const touched = new Set();
  form.addEventListener("input", (event) => touched.add(event.target.name));
  function fill(name, options) {
    for (const [other, value] of Object.entries(options)) {
      const field = form.elements["option_" + other];
      if (!field || other === name || touched.has("option_" + other)) continue;
      if (field instanceof RadioNodeList) {
        for (const radio of field) radio.checked = radio.value === String(value);
      } else if (field.type === "checkbox") {
        field.checked = Boolean(value);
      } else if (Array.isArray(value)) {
        field.value = value.join("\n");
      } else {
        field.value = value;
      }
    }
    form.dispatchEvent(new Event("change"));
  }
  for (const name of Object.keys(past)) {
    const field = form.elements["option_" + name];
    if (!field) continue;
    field.addEventListener("change", () => {
      const seen = past[name][field.value.trim().replace(/\s+/g, " ").toLowerCase()];
      if (seen) fill(name, seen.options);
    });
  }
})();
