// The game master's tablet [issue 6]: lobby, dealing, running game, history.
// Data comes only from the JSON API and the GM's event stream; every word
// shown comes from the template (#i18n, #names), never from this file.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const {N, t, pick} = pageWords("words");  // words.js
  const MULTI = ["link", "charm", "allow", "silence"];
  const LOBBY_KEY = "gm-lobby";

  // ---------------------------------------------------------------- helpers
  const roleName = (r) => pick(N.roles, r);
  const teamName = (s) => pick(N.teams, s);
  const stepName = (s) => pick(N.steps, s);

  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "test") node.dataset.test = v;
      else if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v === true) node.setAttribute(k, "");
      else node.setAttribute(k, v);
    }
    for (const kid of kids.flat()) {
      if (kid !== null && kid !== undefined && kid !== false) node.append(kid);
    }
    return node;
  }

  async function api(method, url, body) {
    const init = { method, headers: {}, credentials: "same-origin", cache: "no-store" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const r = await fetch(url, init);
    const type = r.headers.get("Content-Type") || "";
    const doc = type.includes("json") ? await r.json() : null;
    if (!r.ok) throw new Error((doc && doc.error) || r.status + " " + r.statusText);
    return doc;
  }

  let errorTimer = null;
  function showError(err) {
    const box = $("error");
    box.textContent = err && err.message ? err.message : String(err);
    box.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { box.hidden = true; }, 8000);
  }
  $("error").addEventListener("click", () => { $("error").hidden = true; });
  const guard = (fn) => (...args) => Promise.resolve().then(() => fn(...args)).catch(showError);

  function randomInt(n) { // uniform in [0, n) from the browser's CSPRNG
    const buf = new Uint32Array(1);
    const limit = Math.floor(0x100000000 / n) * n;
    do crypto.getRandomValues(buf); while (buf[0] >= limit);
    return buf[0] % n;
  }
  function shuffle(list) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  }

  // ---------------------------------------------------------------- state
  const S = {
    view: null, chosen: false, // the view on screen; whether the GM picked it
    gm: null, offset: 0, // the newest GM view; hub clock minus ours (s)
    rulesets: null, counts: {}, suggestedFor: null, setups: [],
    seat: 0, // dealing: whose QR is shown
    actSeat: null, choice: null, form: null, // the GM's entry of an action
    record: null, recordKey: "", fetching: false, // log + announcements of the game
    history: { game: null, at: 0, total: 0, over: false },
    secrets: false, confirmCreate: false,
  };

  // ---------------------------------------------------------------- views
  const VIEWS = ["lobby", "dealing", "running", "history"];
  function show(name, chosen) {
    if (chosen) S.chosen = true;
    S.view = name;
    for (const v of VIEWS) $(v).hidden = v !== name;
    for (const tab of document.querySelectorAll(".tab")) {
      tab.classList.toggle("on", tab.dataset.view === name);
    }
    if (name === "history") loadHistory().catch(showError);
    if (name === "dealing") renderDealing();
    if (name === "lobby") renderSameAgain();
  }
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => show(tab.dataset.view, true));
  }
  $("secrets").addEventListener("change", () => {
    S.secrets = $("secrets").checked;
    document.body.classList.toggle("secrets", S.secrets);
    if (S.gm) renderRunning();
    renderRecord();
    if (S.history.view) renderReplay();
  });

  const hasGame = () => S.gm && S.gm.game !== null && S.gm.game !== undefined && S.gm.players;
  function autoView() {
    if (S.chosen) return;
    if (!hasGame()) return show("lobby");
    const v = S.gm;
    if (v.seq === 0 && v.pace && v.pace.paused !== null && v.pace.paused !== undefined) {
      return show("dealing");
    }
    show("running");
  }

  // ---------------------------------------------------------------- stream
  // stream.js's follow(), unordered: the GM's seq is the number of actions
  // applied, which goes *down* on an undo or a new game. (No state URL: before
  // any game there is no GM view, and every reconnect sends the full view.)
  function followGm() {
    follow("/api/stream", onView, {
      ordered: false,
      online: (up) => document.body.classList.toggle("offline", !up),
    });
  }

  function onView(v) {
    const first = S.gm === null;
    const gameChanged = S.gm && S.gm.game !== v.game;
    S.gm = v;
    if (typeof v.now === "number") S.offset = v.now - Date.now() / 1000;
    if (gameChanged) { S.seat = 0; S.actSeat = null; S.choice = null; S.record = null; }
    if (first) { autoView(); prefillLobby(); }
    renderDealing();
    renderRunning();
    refreshRecord();
    renderSameAgain();
  }

  // the game's log and announcements: GET /api/games/<id>/view, refetched when the view moves
  function refreshRecord() {
    if (!hasGame()) return;
    const key = S.gm.game + ":" + S.gm.seq + ":" + (S.gm.winner || "");
    if (key === S.recordKey || S.fetching) return;
    S.fetching = true;
    const asked = key;
    api("GET", "/api/games/" + S.gm.game + "/view")
      .then((doc) => {
        S.fetching = false;
        S.record = doc;
        S.recordKey = asked;
        renderRecord();
        refreshRecord(); // the view may have moved on while we asked
      })
      .catch((err) => { S.fetching = false; showError(err); });
  }

  // ---------------------------------------------------------------- lobby
  function names() {
    return $("names").value.split("\n").map((s) => s.trim()).filter((s) => s);
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
          disabled: n <= 0, "aria-label": "−", onclick: () => setCount(role, n - 1) }),
        el("span", { class: "count", test: "count-" + role, text: String(n) }),
        el("button", { type: "button", class: "pm", test: "plus-" + role, text: "+",
          disabled: limit !== null && n >= limit, "aria-label": "+",
          onclick: () => setCount(role, n + 1) })));
    }
    renderTotal();
  }

  function setCount(role, n) {
    const limit = currentRuleset().copies[role];
    if (n < 0 || (limit !== null && n > limit)) return;
    S.counts[role] = n;
    renderRoles();
    remember();
  }

  function cardsNeeded() {
    return names().length + ((S.counts.thief || 0) > 0 ? 2 : 0);
  }
  function cardCount() { return Object.values(S.counts).reduce((a, b) => a + b, 0); }

  function renderTotal() {
    const players = names().length;
    const cards = cardCount();
    const key = (S.counts.thief || 0) > 0 ? "{cards} cards for {players} players and 2 centre cards"
      : "{cards} cards for {players} players";
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

  // the lobby's setup: the POST /api/games body, with a fresh shuffled deal
  function buildSetup(seedOverride) {
    const list = names();
    const cards = [];
    for (const [role, c] of Object.entries(S.counts)) for (let i = 0; i < c; i++) cards.push(role);
    const setup = { ruleset: $("ruleset").value, players: list, language: $("language").value };
    if ($("buttons").value !== "phones") setup.buttons = $("buttons").value;
    const options = readOptions();
    if (Object.keys(options).length) setup.options = options;
    const deal = dealCards(list, cards);
    setup.deal = deal.deal;
    if (deal.center.length) setup.center = deal.center;
    const typed = $("seed").value.trim();
    setup.seed = seedOverride !== undefined ? seedOverride
      : typed !== "" ? parseInt(typed, 10) : randomInt(0x7fffffff);
    return setup;
  }

  function dealCards(list, cards) {
    // the thief's card goes to a player; the two centre cards are never a thief
    const thief = cards.indexOf("thief");
    const rest = cards.filter((_, i) => i !== thief);
    shuffle(rest);
    const center = thief >= 0 ? rest.splice(0, 2) : [];
    const hand = shuffle(thief >= 0 ? rest.concat(["thief"]) : rest);
    const deal = {};
    list.forEach((name, i) => { deal[name] = hand[i]; });
    return { deal, center };
  }

  function countsOf(setup) {
    const counts = {};
    for (const role of Object.values(setup.deal || {})) counts[role] = (counts[role] || 0) + 1;
    for (const role of setup.center || []) counts[role] = (counts[role] || 0) + 1;
    return counts;
  }

  function applySetup(setup, keepSeed) {
    $("names").value = (setup.players || []).join("\n");
    if (setup.ruleset && S.rulesets[setup.ruleset]) $("ruleset").value = setup.ruleset;
    $("language").value = setup.language || "en";
    $("buttons").value = setup.buttons || "phones";
    $("seed").value = keepSeed && setup.seed !== undefined && setup.seed !== null ? setup.seed : "";
    S.counts = setup.deal ? countsOf(setup) : (setup.counts || {});
    renderOptions(setup.options || {});
    renderRoles();
  }

  function remember() {
    renderTotal();
    if (!S.rulesets) return;
    const doc = { players: names(), ruleset: $("ruleset").value, language: $("language").value,
      buttons: $("buttons").value, counts: S.counts, options: readOptions() };
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
  $("language").addEventListener("change", remember);
  $("buttons").addEventListener("change", remember);
  $("seed").addEventListener("change", remember);
  $("suggest").addEventListener("click", guard(suggest));

  async function createGame(setup) {
    await api("POST", "/api/games", setup);
    // hold the night until every phone has its seat: "start" resumes the clock
    await api("POST", "/api/timer", { do: "pause" });
    S.seat = 0;
    S.chosen = true;
    show("dealing");
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
  $("same-again").addEventListener("click", guard(async () => {
    const rec = await api("GET", "/api/games/" + S.gm.game);
    const old = rec.setup;
    const setup = { ...old };
    const cards = [];
    for (const [role, c] of Object.entries(countsOf(old))) for (let i = 0; i < c; i++) cards.push(role);
    const deal = dealCards(old.players, cards);
    setup.deal = deal.deal;
    if (deal.center.length) setup.center = deal.center; else delete setup.center;
    setup.seed = randomInt(0x7fffffff);
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
    const setup = buildSetup();
    if ($("seed").value.trim() === "") delete setup.seed;
    S.setups = (await api("POST", "/api/setups", { name, setup })).setups;
    renderSetups();
  }));

  // ---------------------------------------------------------------- dealing
  function seats() { return (S.gm && S.gm.seats) || []; }

  function renderDealing() {
    if (S.view !== "dealing") return;
    const list = seats();
    if (!list.length) {
      $("pass-to").textContent = "";
      $("seat-qr").removeAttribute("src");
      $("seat-list").replaceChildren();
      return;
    }
    S.seat = Math.min(Math.max(S.seat, 0), list.length - 1);
    const seat = list[S.seat];
    $("pass-to").textContent = t("Pass the tablet to {name}", { name: seat.name });
    const src = "/api/seats/" + seat.seat + "/qr.svg?v=" + encodeURIComponent(seat.url.slice(-8));
    if ($("seat-qr").getAttribute("src") !== src) $("seat-qr").setAttribute("src", src);
    $("seat-qr").classList.toggle("claimed", seat.claimed);
    $("prev-seat").disabled = S.seat === 0;
    $("next-seat").disabled = S.seat === list.length - 1;
    const box = $("seat-list");
    box.replaceChildren(...list.map((s) => el("li", {
      class: "seat-row" + (s.claimed ? " claimed" : "") + (s.seat === S.seat ? " current" : "") },
      el("button", { type: "button", class: "seat-name", text: s.name,
        onclick: () => { S.seat = s.seat; renderDealing(); } }),
      el("span", { class: "opened", test: "opened-" + s.seat,
        text: s.claimed ? t("opened") : t("not opened") }),
      el("a", { href: s.url, test: "seat-link-" + s.seat, target: "_blank", rel: "noreferrer",
        class: "small-link", text: "🔗" }),
      el("button", { type: "button", class: "small secondary", test: "reissue-" + s.seat,
        text: t("New link"),
        onclick: guard(() => api("POST", "/api/seats/" + s.seat + "/reissue")) }),
      el("button", { type: "button", class: "small secondary", test: "release-" + s.seat,
        text: t("Free the seat"), disabled: !s.claimed,
        onclick: guard(() => api("POST", "/api/seats/" + s.seat + "/release")) }))));
  }
  $("next-seat").addEventListener("click", () => { S.seat += 1; renderDealing(); });
  $("prev-seat").addEventListener("click", () => { S.seat -= 1; renderDealing(); });
  $("start").addEventListener("click", guard(async () => {
    if (S.gm && S.gm.pace && S.gm.pace.paused !== null) await api("POST", "/api/timer", { do: "resume" });
    show("running", true);
  }));

  // ---------------------------------------------------------------- running
  const nameOf = (seat) => {
    const p = S.gm && S.gm.players && S.gm.players[seat];
    return p ? p.name : seat === null || seat === undefined ? t("Nobody") : String(seat);
  };
  const isNight = (v) => v.phase === "night" || (v.pace && v.pace.mode === "calls");

  function whenText(v) {
    if (!v.players) return stepName("lobby");
    if (v.phase === "over") return stepName("over");
    const pace = v.pace || {};
    if (pace.mode === "calls") return t("Night {n}", { n: pace.night });
    return v.phase === "night" ? t("Night {n}", { n: v.n }) : t("Day {n}", { n: v.n });
  }

  function stepText(v) { // what the table is doing now, without secrets
    if (!v.players || v.phase === "over") return "";
    const pace = v.pace || {};
    if (pace.mode === "calls") return t("calling {step}", { step: stepName(pace.call || "") });
    if (pace.mode === "discussion" || pace.mode === "last-words") return stepName(pace.mode);
    if (isNight(v) && !S.secrets && !(v.pending && v.pending.kind === "prompt")) return "";
    return stepName(v.pending ? v.pending.step : "");
  }

  function renderRunning() {
    const v = S.gm;
    if (!v || !v.players) {
      $("step").textContent = stepName("lobby");
      $("line").textContent = "";
      return;
    }
    const doing = stepText(v);
    const engine = S.secrets && v.pending && !v.pending.kind.startsWith("over")
      && isNight(v) && v.pending.step !== (v.pace || {}).call ? " · " + stepName(v.pending.step) : "";
    $("step").textContent = whenText(v) + (doing ? " · " + doing : "") + engine;
    const line = v.script && v.script.line;
    const rollcall = v.rollcall  // roll-call by seat buttons [issue 7]: say whom the table votes on
      ? t("Vote for {name}? Press your button now ({i} of {n})",
        { name: nameOf(v.rollcall.candidate), i: v.rollcall.index + 1, n: v.rollcall.of }) : "";
    $("line").textContent = rollcall || line || doing
      || (v.phase === "over" ? t("{side} win", { side: teamName(v.winner) }) : whenText(v));
    document.querySelector("#running .clock").hidden = v.phase === "over";
    const waiting = (v.pending && v.pending.waiting) || [];
    if (v.phase === "over") $("waiting").textContent = "";
    else if (isNight(v) && !S.secrets) $("waiting").textContent = t("Waiting for: {names}", { names: t("hidden") });
    else $("waiting").textContent = t("Waiting for: {names}",
      { names: waiting.length ? waiting.map(nameOf).join(", ") : t("Nobody") });
    renderPlayers(v);
    renderSecretBox(v);
    renderTally(v);
    renderActSeat(v);
    renderAct();
    renderOver(v);
    renderUndo();
    tick();
  }

  function renderPlayers(v) {
    const votes = v.votes || {};
    const voting = v.vote || null;
    $("players").replaceChildren(...v.players.map((p) => {
      const mark = [];
      if (p.sheriff) mark.push(el("span", { class: "badge", text: "★ " + t("sheriff") }));
      if (!p.alive) mark.push(el("span", { class: "badge dead-badge", text: t("dead") }));
      const role = S.secrets || v.phase === "over"
        ? el("span", { class: "role", text: roleName(p.role) }) : null;
      let ballot = null;
      if (voting && Object.prototype.hasOwnProperty.call(votes, String(p.seat))) {
        const target = votes[String(p.seat)];
        ballot = el("span", { class: "ballot", text: "→ " + (target === null ? t("abstain") : nameOf(target)) });
      }
      const acts = p.actions && p.actions.length && (S.secrets || !isNight(v));
      return el("li", { class: "player" + (p.alive ? "" : " dead") + (acts ? " acts" : "")
        + (S.actSeat === p.seat ? " selected" : ""),
        onclick: () => selectSeat(p.seat) },
        el("span", { class: "seatno", text: String(p.seat + 1) }),
        el("span", { class: "pname", text: p.name }), role, professionBadge(v, p.seat), ...mark, ballot);
    }));
  }

  // The Village (RULES.md §8): a seat's profession, building and power state
  function professionBadge(v, seat) {
    const vil = v.village;
    if (!S.secrets || !vil || !vil.professions) return null;
    const prof = vil.professions[seat];
    const state = vil.powers ? vil.powers[seat] : null;
    let text = pick(N.professions, prof);
    if (prof !== "drifter" && prof !== "house") text += " · " + pick(N.buildings, prof);
    if (state) text += " (" + pick(N.prof_states, state) + ")";
    if ((vil.silenced || []).includes(seat)) text += " · " + t("silenced");
    return el("span", { class: "prof", test: "prof-" + seat, text });
  }

  function renderSecretBox(v) {
    const box = $("secret-box");
    box.replaceChildren();
    if (!S.secrets) return;
    const facts = [];
    if (v.center && v.center.length) facts.push(t("centre") + ": " + v.center.map(roleName).join(", "));
    if (v.lovers) facts.push(t("lovers") + ": " + v.lovers.map(nameOf).join(" ♥ "));
    if (v.charmed && v.charmed.length) facts.push(t("charmed") + ": " + v.charmed.map(nameOf).join(", "));
    if (v.potions) facts.push(roleName("witch") + ": " + ["heal", "poison"].filter((k) => v.potions[k])
      .map((k) => k === "heal" ? "♥" : "☠").join(" "));
    const night = v.night || {};
    if (v.phase === "night") {
      const picks = Object.entries(night.picks || {}).map(([w, tg]) => nameOf(+w) + "→" + nameOf(tg));
      if (picks.length) facts.push(t("pick") + ": " + picks.join(", "));
      if (night.protected !== null && night.protected !== undefined) facts.push(t("protected") + ": " + nameOf(night.protected));
      if (night.attack !== null && night.attack !== undefined) facts.push(t("attacked") + ": " + nameOf(night.attack));
      if (night.healed) facts.push(t("healed"));
      if (night.poisoned !== null && night.poisoned !== undefined) facts.push(t("poisoned") + ": " + nameOf(night.poisoned));
    }
    const vil = v.village;
    if (vil && vil.professions) {
      if (vil.vacant && vil.vacant.length) facts.push(t("vacant") + ": " + vil.vacant.map((b) => pick(N.buildings, b)).join(", "));
      if (vil.burned && vil.burned.length) facts.push(t("burned") + ": " + vil.burned.map((b) => nameOf(b.seat) + " (" + pick(N.buildings, b.building) + ")").join(", "));
      if (vil.burning !== null && vil.burning !== undefined) facts.push(t("burning") + ": " + nameOf(vil.burning));
      if (vil.poster !== null && vil.poster !== undefined) facts.push(t("rumour") + ": " + nameOf(vil.poster));
      if (vil.condemned !== null && vil.condemned !== undefined) facts.push(t("condemned") + ": " + nameOf(vil.condemned));
    }
    for (const f of facts) box.append(el("p", { class: "fact", text: f, test: "fact" }));
  }

  function renderTally(v) {
    const box = $("tally");
    box.replaceChildren();
    const votes = v.votes || {};
    if (v.vote) {
      const double = v.vote.kind === "vote";
      const counts = new Map();
      for (const [voter, target] of Object.entries(votes)) {
        const key = target === null ? "abstain" : target;
        const weight = double && +voter === v.sheriff ? 2 : 1;
        const entry = counts.get(key) || { n: 0, who: [] };
        entry.n += weight;
        entry.who.push(nameOf(+voter) + (weight === 2 ? " " + t("×2") : ""));
        counts.set(key, entry);
      }
      const rows = [...counts.entries()].sort((a, b) => b[1].n - a[1].n);
      for (const [target, entry] of rows) {
        box.append(el("div", { class: "tally-row" },
          el("span", { class: "tally-name", text: target === "abstain" ? t("abstain") : nameOf(target) }),
          el("span", { class: "tally-n", text: String(entry.n) }),
          el("span", { class: "quiet", text: entry.who.join(", ") })));
      }
      const left = (v.vote.waiting || []).map(nameOf);
      if (left.length) box.append(el("p", { class: "quiet", text: t("Waiting for: {names}", { names: left.join(", ") }) }));
    } else if (v.last_tally) {
      box.append(el("p", { class: "quiet", text: tallyText(v.last_tally) }));
    }
  }

  function tallyText(tally) {
    const counts = Object.entries(tally.counts || {}).sort((a, b) => b[1] - a[1])
      .map(([s, n]) => t("{name}: {n}", { name: nameOf(+s), n }));
    return t("Votes: {counts}", { counts: counts.join(", ") || t("Nobody") });
  }

  // --- the GM's entry of any seat's action
  function selectSeat(seat) {
    S.actSeat = seat;
    S.choice = null;
    S.form = null;
    $("act-seat").value = String(seat);
    renderPlayers(S.gm);
    renderAct();
  }

  function renderActSeat(v) {
    const select = $("act-seat");
    const want = S.actSeat === null ? "" : String(S.actSeat);
    const opts = [el("option", { value: "", text: t("Select a seat") })];
    for (const p of v.players) {
      const acts = p.actions && p.actions.length && (S.secrets || !isNight(v));
      opts.push(el("option", { value: String(p.seat), text: (acts ? "● " : "") + p.name }));
    }
    select.replaceChildren(...opts);
    select.value = want;
  }
  $("act-seat").addEventListener("change", () => {
    const value = $("act-seat").value;
    if (value === "") { S.actSeat = null; S.choice = null; renderAct(); renderPlayers(S.gm); }
    else selectSeat(parseInt(value, 10));
  });

  function renderAct() {
    const box = $("gm-act");
    box.replaceChildren();
    const v = S.gm;
    if (!v || !v.players) return;
    if (S.actSeat !== null && v.players[S.actSeat]) {
      const player = v.players[S.actSeat];
      const choices = player.actions || [];
      // a choice taken from an older view may have gone: keep the form only if it still exists
      if (S.choice && !choices.some((c) => JSON.stringify(c) === S.choiceKey)) { S.choice = null; S.form = null; }
      if (!choices.length) box.append(el("p", { class: "quiet", text: t("This seat has nothing to do now.") }));
      for (const c of choices) box.append(choiceWidget(player, c));
      if (S.choice) box.append(confirmBar(player));
    }
    if (v.phase !== "over") {
      box.append(el("button", { type: "button", class: "secondary small timeout",
        text: t("End this step now (defaults apply)"),
        onclick: guard(() => send({ do: "timeout" })) }));
    }
  }

  function choose(c, form) {
    S.choice = c;
    S.choiceKey = JSON.stringify(c);
    S.form = form;
    renderAct();
  }

  function targetButton(c, seat, prefix, selected, onclick) {
    return el("button", { type: "button", class: "target" + (selected ? " on" : ""),
      test: prefix + "-" + seat, text: nameOf(seat), onclick });
  }

  function choiceWidget(player, c) {
    const mine = S.choice && S.choiceKey === JSON.stringify(c);
    const form = mine ? S.form : {};
    const verb = pick(N.verbs, c.do);
    const box = el("div", { class: "choice" + (mine ? " on" : ""), test: "choice-" + c.do },
      el("p", { class: "choice-title", text: player.name + " · " + verb }));
    if (c.do === "potion") {
      if (c.heal) {
        box.append(el("label", { class: "check" },
          el("input", { type: "checkbox", test: "heal", checked: !!form.heal,
            onchange: (e) => choose(c, { ...form, heal: e.target.checked }) }),
          " " + t("heal {name}", { name: nameOf(c.victim) })));
      }
      if ((c.targets || []).length) {
        box.append(el("p", { class: "quiet", text: t("Poison:") }));
        box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "poison",
          form.poison === s, () => choose(c, { ...form, poison: form.poison === s ? null : s })))));
      }
      box.append(el("button", { type: "button", class: "secondary small", text: t("no poison"),
        onclick: () => choose(c, { ...form, poison: null }) }));
    } else if (c.do === "swap") {
      box.append(el("div", { class: "targets" }, (c.cards || []).map((k) => el("button", {
        type: "button", class: "target" + (form.card === k ? " on" : ""), test: "card-" + k,
        text: t("card {k}", { k: k + 1 }) + (S.secrets && S.gm.center ? " · " + roleName(S.gm.center[k]) : ""),
        onclick: () => choose(c, { card: k }) }))));
    } else if (c.do === "spy") {
      box.append(el("div", { class: "targets" }, (c.modes || []).map((m) => el("button", {
        type: "button", class: "target" + (form.mode === m ? " on" : ""), test: "mode-" + m,
        text: t(m), onclick: () => choose(c, { mode: m }) }))));
    } else if (c.do === "restore") {  // the bonesetter (RULES.md §8)
      box.append(el("div", { class: "targets" }, (c.powers || []).map((pw) => el("button", {
        type: "button", class: "target" + (form.power === pw ? " on" : ""), test: "power-" + pw,
        text: pick(N.buildings, pw), onclick: () => choose(c, { power: pw }) }))));
    } else if (c.do === "assign") {  // the steward: a vacant building to a drifter
      box.append(el("div", { class: "targets" }, (c.buildings || []).map((b) => el("button", {
        type: "button", class: "target" + (form.building === b ? " on" : ""), test: "building-" + b,
        text: pick(N.buildings, b), onclick: () => choose(c, { ...form, building: b }) }))));
      box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "target",
        form.target === s, () => choose(c, { ...form, target: s })))));
    } else if (MULTI.includes(c.do)) {
      const [lo, hi] = c.count;
      const picked = form.targets || [];
      box.append(el("p", { class: "quiet", text: lo === hi ? t("Choose {n}", { n: lo })
        : t("Choose {lo} to {hi}", { lo, hi }) }));
      box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "target",
        picked.includes(s), () => {
          const next = picked.includes(s) ? picked.filter((x) => x !== s)
            : picked.length < hi ? picked.concat([s]) : picked;
          choose(c, { targets: next });
        }))));
      if (lo === 0 && !mine) {
        box.append(el("button", { type: "button", class: "secondary small", text: t("Nobody"),
          onclick: () => choose(c, { targets: [] }) }));
      }
    } else if (c.targets && c.count && c.count[1] > 0) {
      box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "target",
        form.target === s, () => choose(c, { target: s })))));
    } else {
      box.append(el("button", { type: "button", class: "target" + (mine ? " on" : ""),
        test: "do-" + c.do, text: verb, onclick: () => choose(c, {}) }));
    }
    return box;
  }

  function formReady(c, form) {
    if (c.do === "potion") return true;
    if (c.do === "swap") return form.card !== undefined;
    if (c.do === "spy") return !!form.mode;
    if (c.do === "restore") return !!form.power;
    if (c.do === "assign") return !!form.building && form.target !== undefined;
    if (MULTI.includes(c.do)) {
      const n = (form.targets || []).length;
      return n >= c.count[0] && n <= c.count[1];
    }
    if (c.targets && c.count && c.count[1] > 0) return form.target !== undefined;
    return true;
  }

  function actionOf(player, c, form) {
    const a = { actor: player.name, do: c.do };
    if (c.do === "potion") {
      a.heal = !!form.heal;
      a.poison = form.poison === null || form.poison === undefined ? null : nameOf(form.poison);
    } else if (c.do === "swap") a.card = form.card;
    else if (c.do === "spy") a.mode = form.mode;
    else if (c.do === "restore") a.power = form.power;
    else if (c.do === "assign") { a.building = form.building; a.target = nameOf(form.target); }
    else if (MULTI.includes(c.do)) a.targets = (form.targets || []).map(nameOf);
    else if (form.target !== undefined) a.target = nameOf(form.target);
    return a;
  }

  function describe(a) { // a replay-format action, in words
    let target = "";
    if (a.do === "potion") {
      target = [a.heal ? "♥" : "", a.poison ? "☠ " + a.poison : ""].filter((x) => x).join(" ") || t("Nobody");
    } else if (a.targets) target = a.targets.join(", ") || t("Nobody");
    else if (a.target !== undefined) target = a.target === null ? t("Nobody") : a.target;
    else if (a.card !== undefined) target = t("card {k}", { k: a.card + 1 });
    else if (a.mode) target = t(a.mode);
    else if (a.power) target = pick(N.buildings, a.power);
    if (a.building) target = pick(N.buildings, a.building) + " → " + target;
    return t("{actor} {verb} {target}", { actor: a.actor || "", verb: pick(N.verbs, a.do), target }).trim();
  }

  function confirmBar(player) {
    const ready = formReady(S.choice, S.form);
    const action = actionOf(player, S.choice, S.form);
    return el("div", { class: "confirm-box" },
      el("p", { class: "confirm-text", text: describe(action) }),
      el("button", { type: "button", class: "secondary", text: t("Cancel"),
        onclick: () => { S.choice = null; S.form = null; renderAct(); } }),
      el("button", { type: "button", class: "primary", test: "confirm", text: t("Confirm"),
        disabled: !ready, onclick: guard(async () => {
          await send(action);
          S.choice = null; S.form = null; renderAct();
        }) }));
  }

  async function send(action) {
    return api("POST", "/api/actions", { ...action, seq: S.gm.seq });
  }

  // --- timer
  function fmt(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    const v = S.gm;
    const box = $("timer");
    if (!v || !v.pace) { box.textContent = "—"; return; }
    const pace = v.pace;
    const paused = pace.paused !== null && pace.paused !== undefined;
    box.classList.toggle("paused", paused);
    $("pause").hidden = paused;
    $("resume").hidden = !paused;
    if (paused) box.textContent = t("paused") + " " + fmt(pace.paused);
    else if (pace.deadline !== null && pace.deadline !== undefined) {
      const left = pace.deadline - (Date.now() / 1000 + S.offset);
      box.textContent = fmt(left);
      box.classList.toggle("low", left < 10);
    } else box.textContent = t("no timer");
  }
  setInterval(tick, 250);
  for (const [id, body] of [["pause", { do: "pause" }], ["resume", { do: "resume" }],
    ["extend", { do: "extend", seconds: 30 }], ["skip", { do: "skip" }]]) {
    $(id).addEventListener("click", guard(() => api("POST", "/api/timer", body)));
  }

  // --- the end
  function renderOver(v) {
    const over = v.phase === "over";
    $("over-box").hidden = !over;
    if (!over) { $("winner").textContent = ""; $("reveal").replaceChildren(); return; }
    $("winner").textContent = t("{side} win", { side: teamName(v.winner) });
    const winners = new Set(v.winners || []);
    $("reveal").replaceChildren(...v.players.map((p) => el("li", {
      class: "card" + (winners.has(p.seat) ? " won" : "") + (p.alive ? "" : " dead") },
      el("span", { class: "pname", text: p.name }),
      el("span", { class: "role", text: roleName(p.role) }))));
  }

  // --- log, announcements, undo
  function actEvents() {
    const log = (S.record && S.record.log) || [];
    return log.filter((e) => e.e === "act");
  }
  function actionWords(e) { // an engine act event (seats as numbers), in words
    const a = { actor: e.actor === null || e.actor === undefined ? "" : nameOf(e.actor), do: e.do };
    if (e.do === "potion") { a.heal = e.heal; a.poison = e.poison === null ? null : nameOf(e.poison); }
    else if (e.targets) a.targets = e.targets.map(nameOf);
    else if (e.target !== undefined) a.target = e.target === null ? null : nameOf(e.target);
    else if (e.card !== undefined) a.card = e.card;
    else if (e.mode) a.mode = e.mode;
    let text = "#" + e.a + " " + describe(a);
    if (S.secrets && e.result !== undefined) text += " → " + (N.roles[e.result] || e.result);
    if (S.secrets && e.outcome !== undefined) text += " → " + t({ caught: "caught", wolf: "saw a wolf", nothing: "saw nothing" }[e.outcome] || e.outcome);
    return text;
  }

  function renderRecord() {
    renderUndo();
    const rec = S.record;
    if (!rec) return;
    $("announcements").replaceChildren(...rec.announcements.map((a) => el("li", {}, newsText(a))).reverse());
    const log = $("log");
    if (!S.secrets) {
      log.replaceChildren(el("li", { class: "quiet", text: t("Show secrets to see the log.") }));
      return;
    }
    const items = [];
    let when = "";
    for (const e of rec.log) {
      if (e.e === "night" || e.e === "day") {
        when = e.e === "night" ? t("Night {n}", { n: e.n }) : t("Day {n}", { n: e.n });
        items.push(el("li", { class: "log-head", text: when }));
      } else if (e.e === "act") items.push(el("li", { text: actionWords(e) }));
      else if (e.e === "died") items.push(el("li", { class: "log-death", text: "✝ " + t("{name} dies ({cause})", { name: nameOf(e.seat), cause: pick(N.causes, e.cause) }) }));
      else if (e.e === "tally") items.push(el("li", { class: "quiet", text: tallyText(e) }));
      else if (e.e === "sheriff") items.push(el("li", { text: "★ " + t("{name} is the sheriff", { name: nameOf(e.seat) }) }));
      else if (e.e === "shown") items.push(el("li", { class: "quiet", text: roleName("witch") + ": " + nameOf(e.victim) }));
      else if (e.e === "medium") items.push(el("li", { class: "quiet", text: roleName("medium") + ": " + nameOf(e.target) + " → " + pick(N.roles, e.result) }));
      else if (e.e === "over") items.push(el("li", { class: "log-head", text: t("{side} win", { side: teamName(e.winner) }) }));
    }
    log.replaceChildren(...items.reverse());
  }

  function newsText(a) {
    switch (a.kind) {
      case "dawn":
        return a.deaths.length ? t("Dawn: {names}", { names: a.deaths.map((d) => d.name
          + (d.role ? " (" + roleName(d.role) + ")" : "")).join(", ") }) : t("Dawn: nobody died.");
      case "death":
        return t("{name} dies ({cause})", { name: a.name + (a.role ? " · " + roleName(a.role) : ""),
          cause: a.cause ? pick(N.causes, a.cause) : "?" });
      case "tally": return tallyText(a);
      case "revealed": return t("{name}, the village idiot, is spared", { name: a.name });
      case "sheriff": return t("{name} is the sheriff", { name: nameOf(a.seat) });
      case "no-execution": return t("No execution.");
      case "over": return t("{side} win", { side: teamName(a.winner) });
      default: return a.kind;
    }
  }

  let undoTo = null;
  function renderUndo() {
    const acts = actEvents();
    const select = $("rewind-to");
    const keep = S.rewindPick; // the GM's pick stays; otherwise the newest action
    select.replaceChildren(...acts.slice().reverse().map((e) => el("option", { value: String(e.a),
      text: S.secrets ? actionWords(e) : "#" + e.a })));
    if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
    else S.rewindPick = null;
    $("undo").disabled = !acts.length;
    $("rewind").disabled = !acts.length;
  }
  function askUndo(to) {
    const acts = actEvents().filter((e) => e.a >= to);
    if (!acts.length) { showError(t("nothing to undo")); return; }
    undoTo = to;
    const what = acts.map(actionWords).join("; ");
    $("undo-text").textContent = acts.length === 1 ? t("Take back: {what}", { what })
      : t("Take back {n} actions: {what}", { n: acts.length, what });
    $("undo-box").hidden = false;
  }
  $("undo").addEventListener("click", () => {
    const acts = actEvents();
    if (acts.length) askUndo(acts[acts.length - 1].a);
  });
  $("rewind-to").addEventListener("change", () => { S.rewindPick = $("rewind-to").value; });
  $("rewind").addEventListener("click", () => {
    const to = parseInt($("rewind-to").value, 10);
    if (!isNaN(to)) askUndo(to);
  });
  $("cancel-undo").addEventListener("click", () => { $("undo-box").hidden = true; undoTo = null; });
  $("confirm-undo").addEventListener("click", guard(async () => {
    $("undo-box").hidden = true;
    const acts = actEvents();
    const last = acts.length ? acts[acts.length - 1].a : null;
    const to = undoTo;
    undoTo = null;
    if (to === null) return;
    S.rewindPick = null;
    await api("POST", "/api/undo", to === last ? {} : { to });
  }));

  // ---------------------------------------------------------------- history
  async function loadHistory() {
    const [games, stats] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/stats")]);
    const box = $("games");
    box.replaceChildren(...games.games.map((g) => el("li", {},
      el("button", { type: "button", class: "game" + (S.history.game === g.id ? " on" : ""),
        test: "game-" + g.id, onclick: guard(() => openReplay(g.id, null, g.winner !== null)) },
        el("strong", { text: "#" + g.id + " " }),
        el("span", { text: pick(N.rulesets, g.ruleset) + " · " + t("{n} players", { n: (g.players || []).length }) }),
        el("br"),
        el("span", { class: "quiet", text: new Date(g.created * 1000).toLocaleString() + " · "
          + (g.winner ? t("{side} win", { side: teamName(g.winner) }) : t("running")) })))));
    renderStats(stats);
  }

  function renderStats(stats) {
    const body = $("stats").querySelector("tbody");
    const rows = Object.entries(stats).sort((a, b) => b[1].won - a[1].won || a[0].localeCompare(b[0]));
    const pairs = (obj, name) => Object.entries(obj).map(([k, [p, w]]) => name(k) + " " + w + "/" + p).join(", ");
    body.replaceChildren(...rows.map(([name, s]) => el("tr", {},
      el("td", { text: name }), el("td", { text: String(s.played) }),
      el("td", { text: s.won + " (" + Math.round(100 * s.won / Math.max(1, s.played)) + "%)" }),
      el("td", { text: pairs(s.sides, teamName) }), el("td", { text: pairs(s.roles, roleName) }))));
  }

  async function openReplay(game, at, over) {
    const url = "/api/games/" + game + "/view" + (at === null ? "" : "?at=" + at);
    const view = await api("GET", url);
    S.history = { game, at: view.at, total: view.total, over: over !== undefined ? over : S.history.over, view };
    for (const b of document.querySelectorAll("#games .game")) {
      b.classList.toggle("on", b.dataset.test === "game-" + game);
    }
    renderReplay();
  }

  function renderReplay() {
    const h = S.history;
    const v = h.view;
    if (!v) return;
    $("replay-title").textContent = "#" + h.game;
    $("replay-at").max = String(h.total);
    $("replay-at").value = String(h.at);
    $("replay-pos").textContent = t("Action {k} of {n}", { k: h.at, n: h.total });
    $("step-back").disabled = h.at <= 0;
    $("step-forward").disabled = h.at >= h.total;
    const names = v.players.map((p) => p.name);
    const seatName = (s) => (s === null || s === undefined ? t("Nobody") : names[s]);
    const show = S.secrets || h.over;
    if (v.action) {
      const e = v.action;
      const a = { actor: e.actor === null || e.actor === undefined ? "" : seatName(e.actor), do: e.do };
      if (e.do === "potion") { a.heal = e.heal; a.poison = e.poison === null ? null : seatName(e.poison); }
      else if (e.targets) a.targets = e.targets.map(seatName);
      else if (e.target !== undefined) a.target = seatName(e.target);
      else if (e.card !== undefined) a.card = e.card;
      else if (e.mode) a.mode = e.mode;
      $("replay-action").textContent = show || !v.phase.startsWith("night") ? describe(a) : "#" + h.at;
    } else $("replay-action").textContent = "";
    $("replay-step").textContent = v.phase === "over" ? stepName("over")
      : (v.phase === "night" ? t("Night {n}", { n: v.n }) : t("Day {n}", { n: v.n }));
    $("replay-players").replaceChildren(...v.players.map((p) => el("li", {
      class: "player" + (p.alive ? "" : " dead") },
      el("span", { class: "seatno", text: String(p.seat + 1) }),
      el("span", { class: "pname", text: p.name }),
      show ? el("span", { class: "role", text: roleName(p.role) }) : null,
      p.sheriff ? el("span", { class: "badge", text: "★" }) : null)));
    const saved = S.gm;
    S.gm = { ...(saved || {}), players: v.players };
    const news = v.announcements.map((a) => el("li", {}, newsText(a))).reverse();
    S.gm = saved;
    $("replay-news").replaceChildren(...news);
  }
  $("step-back").addEventListener("click", guard(() => {
    if (S.history.game !== null && S.history.at > 0) return openReplay(S.history.game, S.history.at - 1);
  }));
  $("step-forward").addEventListener("click", guard(() => {
    const h = S.history;
    if (h.game !== null && h.at < h.total) return openReplay(h.game, h.at + 1);
  }));
  $("replay-at").addEventListener("change", guard(() => {
    if (S.history.game !== null) return openReplay(S.history.game, parseInt($("replay-at").value, 10));
  }));

  // ---------------------------------------------------------------- start
  $("secrets").checked = false;
  loadLobby().catch(showError);
  followGm();
})();
