// The new-table form (templates/tables/new.html), made shorter with JavaScript; without it every
// field simply shows. Its jobs: seats beyond the first few appear one at a time, as the last shown
// one is typed into; a free-text option typed before (a pad's game name) fills in the other
// options of the latest table that used it (its categories), leaving what was changed alone; an
// option shows only where it applies (a co-op game has no "lowest wins"); and a seat's team and
// role show only once the table has teams or roles.
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
      } else if (value && typeof value === "object") {
        field.value = JSON.stringify(value);  // a sheet's headings: a hidden field the server reads
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

  // Options that apply only with others (the engine's option_applies): hidden elsewhere.
  const applies = JSON.parse(document.getElementById("option-applies")?.textContent || "{}");
  function value(name) {
    const field = form.elements["option_" + name];
    if (!field) return null;
    if (field instanceof RadioNodeList) return field.value;
    return field.type === "checkbox" ? String(field.checked) : field.value;
  }
  function wrapper(name) {
    return document.getElementById("div_id_option_" + name) ||
      form.elements["option_" + name]?.closest?.(".mb-3");
  }
  // A seat's team: the teams it may join, taking turns until a team is tapped.
  const chosenTeam = new Set();
  form.addEventListener("change", (event) => {
    if (/^teams_\d+$/.test(event.target.name)) chosenTeam.add(event.target.name);
  });
  function seatOptions() {
    const teams = Number(value("teams") || 0);
    const named = (box) => box.closest(".seat-row").querySelector("input[name^='player_']").value.trim() !== "";
    form.querySelectorAll(".seat-teams").forEach((box, seat) => {
      box.hidden = teams === 0 || !named(box);
      box.querySelectorAll("input[type=radio]").forEach((radio) => {
        const number = Number(radio.value);
        radio.closest(".form-check").hidden = number > teams;
        if (!chosenTeam.has(radio.name) && teams) radio.checked = number === (seat % teams) + 1;
      });
    });
    const roles = value("roles") === "true";
    form.querySelectorAll(".seat-roles").forEach((box) => { box.hidden = !roles || !named(box); });
  }
  function applyOptions() {
    for (const [name, needs] of Object.entries(applies)) {
      const box = wrapper(name);
      if (!box) continue;
      box.hidden = !Object.entries(needs).every(([other, values]) => values.includes(value(other)));
    }
    seatOptions();
  }
  form.addEventListener("change", applyOptions);
  form.addEventListener("input", (event) => {
    if (event.target.name && event.target.name.startsWith("player_")) seatOptions();
  });
  applyOptions();
})();
