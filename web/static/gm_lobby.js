// The GM tablet's lobby [issue 6]: players, rules, language, the cards (the
// suggested deal, then + and −), options, saved setups, "deal" and "same
// again". The hub deals the cards from the seed (contract C2): this screen
// sends counts and never shuffles.
(function () {
  "use strict";
  const { N, t, pick, api, showError, guard, S, show, hasGame } = GM;  // gm_state.js
  const LOBBY_KEY = "gm-lobby";
  const VILLAGER = "villager";
  const roleName = GM.roleName;
  // the game's language: the tablet page's own (the option gm.html marks
  // selected), unless the GM chose one — a remembered lobby keeps its choice [issue 28]
  let languageChosen = false;
  function pageLanguage() {
    const own = [...$("language").options].find((o) => o.defaultSelected);
    return own ? own.value : "en";
  }

  // a line is a name, or "name = reading": how the narrator says it [issue 42]
  function entries() {
    return $("names").value.split("\n").map((line) => {
      const at = line.search(/[=＝]/);
      return at < 0 ? { name: line.trim(), reading: "" }
        : { name: line.slice(0, at).trim(), reading: line.slice(at + 1).trim() };
    }).filter((e) => e.name);
  }
  function names() { return entries().map((e) => e.name); }
  function readings() {
    const out = {};
    for (const e of entries()) if (e.reading) out[e.name] = e.reading;
    return out;
  }
  function currentRuleset() { return S.rulesets && S.rulesets[$("ruleset").value]; }

  async function loadLobby() {
    S.rulesets = await api("GET", "/api/rulesets");
    const saved = JSON.parse(localStorage.getItem(LOBBY_KEY) || "null");
    if (saved) applySetup(saved, true);
    else { renderOptions(); await suggest(); }
    await loadSetups();
    prefillLobby();
  }

  // a tablet with nothing remembered starts from the current game's setup
  let prefilled = false;
  function prefillLobby() {
    if (prefilled || !hasGame() || names().length || !S.rulesets) return;
    prefilled = true;
    api("GET", "/api/games/" + S.gm.game)
      .then((rec) => { if (!names().length) { applySetup(rec.setup, false); remember(); } })
      .catch(showError);
  }

  function renderRoles() {
    const rs = currentRuleset();
    if (!rs) return;
    const box = $("roles");
    box.replaceChildren();
    for (const role of rs.roles) {
      const n = S.counts[role] || 0;
      const limit = rs.copies[role];
      box.append(el("div", { class: "role-row" + (n ? " used" : ""), test: "role-" + role },
        el("span", { class: "role-name", text: roleName(role) }),
        el("button", { type: "button", class: "pm", test: "minus-" + role, text: "−",
          disabled: n <= 0, "aria-label": "−", onclick: () => step(role, -1) }),
        el("span", { class: "count", test: "count-" + role, text: String(n) }),
        el("button", { type: "button", class: "pm", test: "plus-" + role, text: "+",
          disabled: limit !== null && n >= limit, "aria-label": "+",
          onclick: () => step(role, 1) })));
    }
    renderTotal();
  }

  // "+" on a card takes a villager out and "−" puts one back, so a deal that
  // held the cards it needs still does: the thief's "+" adds his centre cards
  // as villagers, his "−" takes them back (/api/rulesets' "centre"). With no
  // villager left, "+" still adds (the total says it is off); the villagers'
  // own +/−, and any tap on a deal already off, move one card [issue 28].
  function step(role, by) {
    const rs = currentRuleset();
    const n = (S.counts[role] || 0) + by;
    if (n < 0 || (rs.copies[role] !== null && n > rs.copies[role])) return;
    const held = cardCount() === cardsNeeded();
    S.counts[role] = n;
    if (role !== VILLAGER && held && VILLAGER in rs.copies) {
      S.counts[VILLAGER] = Math.max(0, (S.counts[VILLAGER] || 0) + cardsNeeded() - cardCount());
    }
    renderRoles();
    remember();
  }

  // the centre's cards the chosen roles add beyond one per seat (the hub's
  // rule, from /api/rulesets: the thief's two)
  function centreCards() {
    const centre = (currentRuleset() || {}).centre || {};
    return Object.entries(centre).reduce((n, [role, c]) => n + ((S.counts[role] || 0) > 0 ? c : 0), 0);
  }
  function cardsNeeded() { return names().length + centreCards(); }
  function cardCount() { return Object.values(S.counts).reduce((a, b) => a + b, 0); }

  function renderTotal() {
    const players = names().length;
    const cards = cardCount();
    const key = centreCards() > 0 ? N_("{cards} cards for {players} players and 2 centre cards")
      : N_("{cards} cards for {players} players");
    const total = $("deal-total");
    total.textContent = t(key, { cards, players });
    total.classList.toggle("bad", cards !== cardsNeeded());
    const list = names();
    const note = [];
    if (new Set(list).size !== list.length) note.push(t("Names must be different."));
    if (list.length && (list.length < 4 || list.length > 24)) note.push(t("A game needs 4 to 24 players."));
    $("names-note").textContent = [t("{n} players", { n: list.length }), ...note].join(" · ");
    $("names-note").classList.toggle("bad", note.length > 0);
    $("create").disabled = !(cards === cardsNeeded() && list.length >= 4 && list.length <= 24
      && note.length === 0);
  }

  function renderOptions(values) {
    const rs = currentRuleset();
    if (!rs) return;
    const box = $("options");
    box.replaceChildren();
    const order = N.option_order.filter((k) => k in rs.options)
      .concat(Object.keys(rs.options).filter((k) => !N.option_order.includes(k)));
    for (const name of order) {
      const spec = rs.options[name];
      const value = values && name in values ? values[name] : spec.default;
      const [label, help] = N.options[name] || [name, ""];
      let input;
      if (spec.values && spec.values.length === 2 && typeof spec.values[0] === "boolean") {
        input = el("input", { type: "checkbox", id: "opt-" + name, test: "opt-" + name,
          checked: value === true, onchange: remember });
      } else if (spec.values) {
        input = el("select", { id: "opt-" + name, test: "opt-" + name, onchange: remember },
          spec.values.map((v) => el("option", { value: v, selected: v === value,
            text: pick(N.values, v) + (v === spec.default ? " ★" : "") })));
      } else {
        input = el("input", { type: "number", min: "0", step: "1", id: "opt-" + name,
          test: "opt-" + name, value: String(value), inputmode: "numeric", onchange: remember });
      }
      box.append(el("div", { class: "option" + (input.type === "checkbox" ? " check" : "") },
        el("label", { for: "opt-" + name, class: "opt-label", text: label }), input,
        el("p", { class: "quiet help", text: help })));
    }
    renderEvents(values && values.events);
  }

  // New Moon's event cards (RULES.md §10) [issue 33]: a checkbox per card of
  // the ruleset (/api/rulesets' "events": its source, "[003]" or "house"),
  // and the GM's own text-only cards, typed in the game's language
  let textEvents = [];
  function renderEvents(chosen) {
    const rs = currentRuleset();
    const cards = (rs && rs.events) || null;
    $("events-box").hidden = !cards;
    const box = $("events");
    box.replaceChildren();
    if (!cards) { textEvents = []; renderTextEvents(); return; }
    const on = new Set((chosen || []).filter((e) => typeof e === "string"));
    textEvents = (chosen || []).filter((e) => e && typeof e === "object");
    // New Moon's own card [003] first, then the house events
    const order = Object.entries(cards).sort(([, a], [, b]) => (b === "[003]") - (a === "[003]"));
    for (const [id, source] of order) {
      const mark = source === "[003]" ? t("New Moon [003]") : t("House event");
      box.append(el("div", { class: "option check event-option" },
        el("label", { for: "ev-" + id, class: "opt-label" }, pick(N.events, id) + " ",
          el("span", { class: "tag" + (source === "[003]" ? " moon" : ""), text: mark })),
        el("input", { type: "checkbox", id: "ev-" + id, test: "ev-" + id, checked: on.has(id),
          onchange: remember }),
        el("p", { class: "quiet help", text: pick(N.event_texts, id) })));
    }
    renderTextEvents();
  }
  function renderTextEvents() {
    const list = $("event-texts");
    list.replaceChildren();
    textEvents.forEach((card, i) => {
      const lang = Object.keys(card.title)[0];
      list.append(el("li", { test: "event-text-" + (i + 1) },
        el("span", {}, el("strong", { text: card.title[lang] }), " ",
          el("span", { class: "quiet", text: card.text[lang] })),
        el("button", { type: "button", class: "small secondary", text: t("Delete"),
          onclick: () => { textEvents.splice(i, 1); renderTextEvents(); remember(); } })));
    });
  }
  $("event-add").addEventListener("click", () => {
    const title = $("event-title").value.trim();
    const text = $("event-text").value.trim();
    if (!title || !text) { showError(new Error(t("A card needs a title and a text."))); return; }
    const lang = $("language").value;
    textEvents.push({ title: { [lang]: title }, text: { [lang]: text } });
    $("event-title").value = "";
    $("event-text").value = "";
    renderTextEvents();
    remember();
  });
  function readEvents() {
    const cards = (currentRuleset() || {}).events;
    if (!cards) return [];
    return Object.keys(cards).filter((id) => $("ev-" + id) && $("ev-" + id).checked)
      .concat(textEvents);
  }

  function readOptions() {
    const rs = currentRuleset();
    const out = {};
    for (const [name, spec] of Object.entries(rs.options)) {
      const input = $("opt-" + name);
      if (!input) continue;
      let value;
      if (input.type === "checkbox") value = input.checked;
      else if (spec.values) value = spec.values.find((v) => String(v) === input.value);
      else value = Math.max(0, parseInt(input.value, 10) || 0);
      if (value !== spec.default) out[name] = value;
    }
    const events = readEvents();
    if (events.length) out.events = events;
    return out;
  }

  async function suggest() {
    const n = names().length;
    const rs = currentRuleset();
    if (!rs) return;
    const [lo, hi] = rs.players;
    if (n < lo || n > hi) {
      $("suggest-note").textContent = t("No suggested deal for {n} players: choose the cards.", { n });
      if (!cardCount()) { S.counts = {}; }
      renderRoles();
      return;
    }
    const deal = await api("GET", "/api/roles?ruleset=" + encodeURIComponent($("ruleset").value)
      + "&players=" + n);
    S.counts = {};
    for (const [role, c] of Object.entries(deal)) S.counts[role] = c;
    S.suggestedFor = n;
    $("suggest-note").textContent = t("Suggested deal for {n} players.", { n });
    renderRoles();
    remember();
  }

  // the lobby's setup: the POST /api/games body. The hub deals (contract C2):
  // the page sends how many cards of each role (the thief's two centre cards
  // included) and a seed only if the GM typed one; it never shuffles.
  function buildSetup() {
    const setup = { ruleset: $("ruleset").value, players: names(), language: $("language").value };
    if (Object.keys(readings()).length) setup.readings = readings();
    if ($("buttons").value !== "phones") setup.buttons = $("buttons").value;
    if ($("narrated").value) setup.narrated = true;  // [issue 20]: the hub narrates
    const options = readOptions();
    if (Object.keys(options).length) setup.options = options;
    setup.cards = {};
    for (const [role, c] of Object.entries(S.counts)) if (c > 0) setup.cards[role] = c;
    const typed = $("seed").value.trim();
    if (typed !== "") setup.seed = parseInt(typed, 10);
    return setup;
  }

  // the cards of a setup saved with its deal (before the hub dealt, contract C2)
  function countsOf(setup) {
    const counts = {};
    for (const role of Object.values(setup.deal || {})) counts[role] = (counts[role] || 0) + 1;
    for (const role of setup.center || []) counts[role] = (counts[role] || 0) + 1;
    return counts;
  }

  function applySetup(setup, keepSeed) {
    const said = setup.readings || {};
    $("names").value = (setup.players || []).map((n) => said[n] ? n + " = " + said[n] : n).join("\n");
    if (setup.ruleset && S.rulesets[setup.ruleset]) $("ruleset").value = setup.ruleset;
    languageChosen = Boolean(setup.language);
    $("language").value = setup.language || pageLanguage();
    $("buttons").value = setup.buttons || "phones";
    $("narrated").value = setup.narrated ? "1" : "";
    $("seed").value = keepSeed && setup.seed !== undefined && setup.seed !== null ? setup.seed : "";
    S.counts = { ...(setup.cards || (setup.deal ? countsOf(setup) : setup.counts) || {}) };
    renderOptions(setup.options || {});
    renderRoles();
  }

  function remember() {
    renderTotal();
    if (!S.rulesets) return;
    const doc = { players: names(), readings: readings(), ruleset: $("ruleset").value,
      language: languageChosen ? $("language").value : undefined,  // (left out: the page's)
      buttons: $("buttons").value, counts: S.counts, options: readOptions(),
      narrated: Boolean($("narrated").value) };
    if ($("seed").value.trim() !== "") doc.seed = parseInt($("seed").value, 10);
    localStorage.setItem(LOBBY_KEY, JSON.stringify(doc));
  }

  let namesTimer = null;
  $("names").addEventListener("input", () => {
    renderTotal();
    clearTimeout(namesTimer);
    namesTimer = setTimeout(() => {
      if (names().length !== S.suggestedFor) suggest().catch(showError);
      remember();
    }, 400);
  });
  $("ruleset").addEventListener("change", guard(async () => {
    renderOptions();
    S.counts = {};
    await suggest();
  }));
  $("language").addEventListener("change", () => { languageChosen = true; remember(); });
  $("buttons").addEventListener("change", remember);
  $("narrated").addEventListener("change", remember);
  $("seed").addEventListener("change", remember);
  $("suggest").addEventListener("click", guard(suggest));

  async function createGame(setup) {
    // the night waits until every phone has its card: nothing is accepted before
    // "start" (the dealing screen's, or the host page's in a narrated game) [issue 28]
    await api("POST", "/api/games", Object.assign({}, setup, { wait_for_start: true }));
    if (setup.narrated) { location.assign("/host"); return; }
    if (!S.gm) { location.assign("/gm"); return; }  // opened from a narrated game: no GM stream yet
    S.seat = 0;
    show("dealing", true);
  }

  function gameRunning() { return hasGame() && !S.gm.winner; }

  $("create").addEventListener("click", guard(async () => {
    if (gameRunning() && !S.confirmCreate) {
      S.confirmCreate = true;
      $("create").textContent = t("End the running game and deal a new one?");
      $("create").classList.add("danger");
      return;
    }
    resetCreate();
    await createGame(buildSetup());
  }));
  function resetCreate() {
    S.confirmCreate = false;
    $("create").classList.remove("danger");
    $("create").textContent = $("create").dataset.label;
  }
  $("create").dataset.label = $("create").textContent;

  function renderSameAgain() { $("same-again").hidden = !hasGame(); }
  // the old game's players, options and cards, dealt anew by the hub from a seed of its own
  $("same-again").addEventListener("click", guard(async () => {
    const rec = await api("GET", "/api/games/" + S.gm.game);
    const { deal, center, seed, ...setup } = rec.setup;
    await createGame(setup);
  }));

  async function loadSetups() {
    S.setups = (await api("GET", "/api/setups")).setups;
    renderSetups();
  }
  function renderSetups() {
    const box = $("setups");
    box.replaceChildren();
    if (!S.setups.length) box.append(el("li", { class: "quiet", text: t("No saved setups.") }));
    for (const s of S.setups) {
      box.append(el("li", {},
        el("button", { type: "button", class: "setup", test: "load-setup-" + s.name,
          onclick: () => { applySetup(s.setup, true); $("setup-name").value = s.name; remember(); } },
          el("strong", { text: s.name }), " ",
          el("span", { class: "quiet", text: pick(N.rulesets, s.setup.ruleset) + " · "
            + t("{n} players", { n: (s.setup.players || []).length }) })),
        el("button", { type: "button", class: "small secondary", text: t("Delete"),
          onclick: guard(async () => {
            S.setups = (await api("DELETE", "/api/setups/" + encodeURIComponent(s.name))).setups;
            renderSetups();
          }) })));
    }
  }
  $("save-setup").addEventListener("click", guard(async () => {
    const name = $("setup-name").value.trim();
    S.setups = (await api("POST", "/api/setups", { name, setup: buildSetup() })).setups;
    renderSetups();
  }));

  GM.screen("lobby", {
    shown: renderSameAgain,
    view: (v, first) => { if (first) prefillLobby(); renderSameAgain(); },
  });
  GM.lobby = { load: loadLobby };
})();
