// The game master's tablet [issue 6], its shared part: the state every screen
// reads (S), the JSON API, errors, the tabs, the GM's event stream, and the
// words the game and history screens both write (an action, a tally in the
// log); an announcement's line comes in words from the hub (the record's
// `news`) [issue 45]. Each screen is a script of its own (gm_lobby.js, gm_seats.js,
// gm_game.js + gm_act.js, gm_history.js) that registers its hooks with
// GM.screen(); gm.js starts the page. Data comes only from the JSON API and
// the GM's stream; every word shown comes from the template (#i18n, #words),
// never from these files. el() and $() are dom.js's.
const GM = (function () {
  "use strict";
  const words = pageWords("words");  // words.js
  const {N, t, pick} = words;
  const roleName = (r) => pick(N.roles, r);
  const teamName = (s) => pick(N.teams, s);
  const stepName = (s) => pick(N.steps, s);
  // who won, as the TV and the display say it ("The village wins") [issue 18 item 6]
  const winText = (side) => pick(N.wins, side);
  // what a look showed: a card, or (the "team" option) only werewolf or human
  const seenName = (r) => (N.seen && N.seen[r]) || roleName(r);
  // the little girl's way of spying (engine SPY_MODES), as the GM's log says it
  const SPY_MODES = {discreet: N_("discreetly"), bold: N_("boldly")};
  const modeName = (m) => t(SPY_MODES[m] || m);

  async function api(method, url, body) {
    const init = { method, headers: {}, credentials: "same-origin", cache: "no-store" };
    if (method !== "GET") { // the hub takes only JSON for a change [issue 17]
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body === undefined ? {} : body);
    }
    let r;
    try {
      r = await fetch(url, init);
    } catch (err) {  // no answer at all (the Wi-Fi, a hub restarting): said in words [issue 18 item 3]
      throw new Error(t("No answer from the hub: not recorded. Check the Wi-Fi, then try again."));
    }
    const type = r.headers.get("Content-Type") || "";
    const doc = type.includes("json") ? await r.json() : null;
    if (!r.ok) {
      const err = new Error((doc && doc.error) || r.status + " " + r.statusText);
      err.status = r.status; // 409 on an undo: the game moved on, ask again [issue 17]
      throw err;
    }
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

  // ---------------------------------------------------------------- screens
  // a screen's hooks: shown() when its tab opens, view(v, first) on every GM
  // view, secrets() when "show secrets" flips; called in the order registered
  const screens = {};
  function screen(name, hooks) { screens[name] = hooks; }
  function each(hook, ...args) {
    for (const s of Object.values(screens)) if (s[hook]) s[hook](...args);
  }

  const VIEWS = ["lobby", "dealing", "running", "history"];
  function show(name, chosen) {
    if (chosen) S.chosen = true;
    S.view = name;
    for (const v of VIEWS) $(v).hidden = v !== name;
    for (const tab of document.querySelectorAll(".tab")) {
      tab.classList.toggle("on", tab.dataset.view === name);
    }
    if (screens[name] && screens[name].shown) screens[name].shown();
  }
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => show(tab.dataset.view, true));
  }
  $("secrets").addEventListener("change", () => {
    S.secrets = $("secrets").checked;
    document.body.classList.toggle("secrets", S.secrets);
    each("secrets");
  });

  const hasGame = () => S.gm && S.gm.game !== null && S.gm.game !== undefined && S.gm.players;
  function autoView() {
    if (S.chosen) return;
    if (!hasGame()) return show("lobby");
    const v = S.gm;
    if (v.pace && v.pace.mode === "deal") return show("dealing");  // until "start" [issue 28]
    show("running");
  }

  // ---------------------------------------------------------------- stream
  // stream.js's follow(), unordered: the GM's seq is the number of actions
  // applied, which goes *down* on an undo or a new game. (No state URL: before
  // any game there is no GM view, and every reconnect sends the full view.
  // The tablets list is asked instead: a tablet unpaired by a new token
  // reloads into the page that says so, not a game frozen where it was.)
  function followGm() {
    follow("/api/stream", onView, {
      ordered: false,
      check: "/api/gm/tablets",
      online: (up) => document.body.classList.toggle("offline", !up),
    });
  }

  function onView(v) {
    const first = S.gm === null;
    const gameChanged = S.gm && S.gm.game !== v.game;
    S.gm = v;
    $("storage").hidden = !v.storage;  // the file's findings at start, as the terminal says them
    $("storage-lines").textContent = v.storage || "";
    if (typeof v.now === "number") S.offset = v.now - Date.now() / 1000;
    if (gameChanged) { S.seat = 0; S.actSeat = null; S.choice = null; S.record = null; S.chosen = false; }
    if (first || gameChanged) autoView();  // a new game (dealt anywhere) opens on its seats [issue 18]
    each("view", v, first);
  }

  // ---------------------------------------------------------------- words
  const nameOf = (seat) => {
    const p = S.gm && S.gm.players && S.gm.players[seat];
    return p ? p.name : seat === null || seat === undefined ? t("Nobody") : String(seat);
  };
  const isNight = (v) => v.phase === "night" || (v.pace && v.pace.mode === "calls");
  const dayOrNight = (v) => (v.phase === "night" ? t("Night {n}", { n: v.n }) : t("Day {n}", { n: v.n }));

  function describe(a) { // a replay-format action, in words
    let target = "";
    if (a.do === "potion") {
      target = [a.heal ? "♥" : "", a.poison ? "☠ " + a.poison : ""].filter((x) => x).join(" ") || t("Nobody");
    } else if (a.targets) target = a.targets.join(", ") || t("Nobody");
    else if (a.target !== undefined) target = a.target === null ? t("Nobody") : a.target;
    else if (a.card !== undefined) target = t("card {k}", { k: a.card + 1 });
    else if (a.mode) target = modeName(a.mode);
    else if (a.power) target = pick(N.buildings, a.power);
    if (a.building) target = pick(N.buildings, a.building) + " → " + target;
    return t("{actor} {verb} {target}", { actor: a.actor || "", verb: pick(N.verbs, a.do), target }).trim();
  }

  // an engine act event (seats as numbers) as a replay-format action, names by `name`
  function actionOfEvent(e, name) {
    const a = { actor: e.actor === null || e.actor === undefined ? "" : name(e.actor), do: e.do };
    if (e.do === "potion") { a.heal = e.heal; a.poison = e.poison === null ? null : name(e.poison); }
    else if (e.targets) a.targets = e.targets.map(name);
    else if (e.target !== undefined) a.target = e.target === null ? null : name(e.target);
    else if (e.card !== undefined) a.card = e.card;
    else if (e.mode) a.mode = e.mode;
    return a;
  }

  // a closed vote in one line: the counts the tally gives (contract C1)
  function tallyText(tally, name) {
    const counts = Object.entries(tally.counts || {}).sort((a, b) => b[1] - a[1])
      .map(([s, n]) => t("{name}: {n}", { name: name(+s), n }));
    return t("Votes: {counts}", { counts: counts.join(", ") || t("Nobody") });
  }

  return { words, N, t, pick, roleName, teamName, stepName, winText, seenName, modeName, api, showError, guard, S, screen,
    show, hasGame, followGm, nameOf, isNight, dayOrNight, describe, actionOfEvent, tallyText };
})();
