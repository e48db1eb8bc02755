// A seat's phone [issue 6]: the card (hold to see), the night's action or the
// decoy pick, private results, what the role knows, day votes, "you are dead".
// Data only from /p/<token>/state, /p/<token>/stream and POST /p/<token>/action
// (and the decoy's POST /p/<token>/suspect). Text comes from the template.
(function () {
  "use strict";
  const base = "/p/" + $("app").dataset.token;
  const {N, t, stepText} = pageWords("names");  // words.js; el() and $() are dom.js's
  const roleName = (id) => N.roles[id] || id;
  const deckText = (d) => {  // the game's cards, the centre's counted [issue 16]
    const cards = d.cards.map((c) => c.count + " × " + roleName(c.role)).join(", ");
    return d.centre ? t("{cards}, {n} of them in the centre.", {cards, n: d.centre}) : t("{cards}.", {cards});
  };
  const teamName = (id) => N.teams[id] || id;

  let view = null;
  let offset = 0; // hub clock − this phone's clock, in seconds
  let sel = null; // what is picked on the open panel, before "confirm"
  let panelKey = "";
  let doneKey = ""; // the panel whose action (or decoy) was sent
  let lastSent = {key: "", summary: "", seats: []}; // a ballot or pick that may still change
  let sending = false;

  const name = (seat) => (view.players[seat] ? view.players[seat].name : String(seat));
  const names = (seats) => seats.map(name).join(", ") || t("Nobody");

  // --- errors ---------------------------------------------------------------
  let errorTimer = 0;
  function showError(text) {
    const e = $("error");
    e.textContent = text;
    e.hidden = !text;
    clearTimeout(errorTimer);
    if (text) errorTimer = setTimeout(() => { e.hidden = true; }, 8000);
  }

  // --- the card: its back until held ------------------------------------------
  const card = $("card");
  let cardTimer = 0;
  function showCard(ev) {
    if (ev && ev.cancelable && ev.type !== "touchstart") ev.preventDefault();
    if (!view) return;
    $("role").textContent = roleName(view.role);
    $("team").textContent = teamName(view.team);
    $("power").textContent = N.powers[view.role] || "";
    $("profession").textContent = professionText(view.profession);
    const known = knownCards(view);
    $("cards").textContent = known.length ? t("Cards you know: {cards}", {cards: known.join(", ")}) : "";
    $("knows-held").textContent = knowsLines(view).join("\n");
    card.classList.add("shown");
    clearTimeout(cardTimer);
    cardTimer = setTimeout(hideCard, 5000);
  }
  function hideCard() {
    clearTimeout(cardTimer);
    card.classList.remove("shown");
    for (const id of ["role", "team", "power", "profession", "cards", "knows-held"]) $(id).textContent = "";
  }
  // A card the table knows (shown to all: the game is over, a dead player's
  // card with "reveal on death", the idiot voted out and revealed)
  function publicRole(v, p) {
    if (!p.role) return false;
    if (v.phase === "over") return true;
    if (!p.alive) return !!(v.options && v.options.reveal_on_death);
    return p.role === "village-idiot" && !p.can_vote && !((v.village && v.village.silenced) || []).includes(p.seat);
  }
  // the cards this seat was shown and the table was not (his pack, the other
  // freemason, the seer's looks): behind the hold, like his own [issue 18 item 4]
  const knownCards = (v) => v.players.filter((p) => p.seat !== v.seat && p.role && !publicRole(v, p))
    .map((p) => p.name + " — " + roleName(p.role));
  // The Village (RULES.md §8): his profession, building, power and its state —
  // shown with the card, as secret as the role
  function professionText(p) {
    if (!p) return "";
    const parts = [N.professions[p.id] || p.id];
    parts.push(p.building ? t("Your building: {building}", {building: N.buildings[p.building] || p.building})
      : t("You have no building."));
    if (N.prof_powers[p.id]) parts.push(N.prof_powers[p.id]);
    if (p.power) parts.push(t("Power: {state}", {state: N.prof_states[p.power] || p.power}));
    return parts.join(" · ");
  }
  card.addEventListener("pointerdown", showCard);
  card.addEventListener("touchstart", showCard, {passive: true});
  for (const ev of ["pointerup", "pointercancel", "pointerleave", "touchend", "touchcancel", "blur"]) {
    card.addEventListener(ev, hideCard);
  }
  card.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") showCard(e); });
  card.addEventListener("keyup", hideCard);
  card.addEventListener("contextmenu", (e) => e.preventDefault());
  document.addEventListener("visibilitychange", hideCard);

  // --- full-screen sheet for private results ----------------------------------
  function openSheet(title, text) {
    $("sheet-title").textContent = title;
    $("sheet-text").textContent = text;
    $("sheet").hidden = false;
  }
  $("sheet").addEventListener("click", () => { $("sheet").hidden = true; });

  function resultText(r) {
    if (r.kind === "inspect" || r.kind === "medium") {
      if (r.result === "wolf" || r.result === "human") {  // the seer_sees "team" option
        return t(r.result === "wolf" ? "{name} is a werewolf." : "{name} is not a werewolf.",
          {name: name(r.target)});
      }
      return t("{name}'s card: {role}.", {name: name(r.target), role: roleName(r.result)});
    }
    if (r.kind === "spy") {
      if (r.outcome === "wolf") return t("You saw a werewolf: {name}.", {name: name(r.wolf)});
      if (r.outcome === "caught") return t("You were caught!");
      return t("You saw nothing.");
    }
    if (r.kind === "lover") return t("You are in love with {name}.", {name: name(r.partner)});
    if (r.kind === "victim") {
      return r.victim === null || r.victim === undefined ? t("Nobody was attacked tonight.")
        : t("Tonight's victim: {name}.", {name: name(r.victim)});
    }
    if (r.kind === "confess") return t("{name}'s card: {role}.", {name: name(r.target), role: roleName(r.result)});
    if (r.kind === "baker") {  // a roll each night: a werewolf, or nobody (wolf null)
      return r.wolf === null || r.wolf === undefined ? t("The bakery found no werewolf.")
        : t("The bakery found a werewolf: {name}.", {name: name(r.wolf)});
    }
    if (r.kind === "centre") return t("The centre cards: {cards}.", {cards: r.cards.map(roleName).join(", ")});
    return r.kind;
  }

  // whose result it is: the role or profession the template names for its kind
  const resultTitle = (r) => (N.results && N.results[r.kind]) || r.kind;

  function renderResults(v) {
    const items = v.results.map((r) => el("li", {},
      el("button", {type: "button", test: "result", class: "result", onclick: () => openSheet(stepText(r.time) + " · " + resultTitle(r), resultText(r))},
        el("span", {class: "when"}, stepText(r.time)),
        " — " + t("Tap to see"))));  // what it is, only in the sheet: "Seer's look" names a seer
    $("results").replaceChildren(...(items.length ? items : [el("li", {class: "quiet"}, t("Nothing yet."))]));
  }

  // What the role knows (his pack, lover, fellow freemason, the charmed):
  // behind the hold with the card, never on the open page, where "Your pack"
  // would name a wolf to a neighbour's glance; the open page says the same
  // line for every role [issue 18 item 4]
  function knowsLines(v) {
    const k = v.knows || {};
    const rows = [];
    const others = (seats) => seats.filter((s) => s !== v.seat);
    if (k.pack) rows.push(t("Your pack") + ": " + names(others(k.pack)));
    if (v.pack_picks && Object.keys(v.pack_picks).length) {
      rows.push(t("The pack's picks") + ": " + Object.entries(v.pack_picks)
        .map(([w, target]) => name(+w) + " → " + name(target)).join(", "));
    }
    if (k.lover) rows.push(t("Your lover") + ": " + names(k.lover));
    if (k.freemasons) rows.push(t("The other freemason") + ": " + names(others(k.freemasons)));
    if (k.charmed) rows.push(t("Charmed") + ": " + names(k.charmed));
    return rows;
  }
  function renderKnows(v) {
    $("knows").replaceChildren(el("li", {class: "quiet"}, t("Hold your card to see what you know.")));
    if (card.classList.contains("shown")) $("knows-held").textContent = knowsLines(v).join("\n");
  }

  function renderTable(v) {
    $("players").replaceChildren(...v.players.map((p) => el("li", {class: p.alive ? "" : "gone"},
      p.name, p.seat === v.seat ? " " + t("(you)") : "",
      p.sheriff ? el("span", {class: "badge"}, "★ " + t("sheriff")) : null,
      p.seat !== v.seat && publicRole(v, p) ? el("span", {class: "known"}, roleName(p.role)) : null,
      p.alive ? null : el("span", {class: "known"}, t("dead")))));
    const news = v.deaths.map((d) => el("li", {}, stepText(d.time) + " · " + d.name +
      (d.cause ? " — " + (N.causes[d.cause] || d.cause) : "")));
    if (v.last_tally) {
      const c = v.last_tally.counts || {};
      const counts = Object.keys(c).map((s) => name(+s) + " " + c[s]).join(", ");
      news.push(el("li", {}, t("Votes: {counts}", {counts: counts || "—"})));
    }
    $("news").replaceChildren(...news);
  }

  // --- actions: one container per Choice, then "confirm" -----------------------
  const isMulti = (c) => !!c.multi;  // the engine's word: answered with a list of targets
  function centreCards(v) {
    const r = v.results.filter((x) => x.kind === "centre");
    return r.length ? r[r.length - 1].cards : [];
  }
  function pickedBy(v, seat) {
    const p = v.pack_picks || {};
    return Object.keys(p).filter((w) => p[w] === seat).map((w) => (+w === v.seat ? t("you") : name(+w)));
  }

  function choiceBox(c, v) {
    const box = el("div", {test: "choice-" + c.do, class: "choice"});
    box.append(el("h2", {}, N.asks[c.do] || N.verbs[c.do] || c.do));
    const mine = sel && sel.do === c.do ? sel : null;
    const pick = (patch) => {
      sel = Object.assign(sel && sel.do === c.do ? sel : {do: c.do, targets: [], heal: false, poison: null}, patch, {touched: true});
      renderPanel();
    };
    const targetButton = (seat, test, on, chosen) => {
      const by = c.do === "attack" ? pickedBy(v, seat) : [];
      const sent = lastSent.key === panelKey && lastSent.seats.includes(seat);
      return el("button", {type: "button", test: test, class: "pick" + (chosen ? " chosen" : sent ? " mine" : ""), onclick: on},
        name(seat), by.length ? el("small", {}, t("picked by {names}", {names: by.join(", ")})) : null);
    };
    if (c.do === "potion") {
      if (c.victim === null || c.victim === undefined) {
        box.append(el("p", {class: "quiet"}, t("Nobody was attacked tonight.")));
      } else if (!c.heal) {
        box.append(el("p", {}, t("Tonight's victim: {name}.", {name: name(c.victim)}) + " " +
          t("The healing potion is used.")));
      }
      if (c.heal) {
        const cb = el("input", {type: "checkbox", id: "heal", test: "heal"});
        cb.checked = !!(mine && mine.heal);
        cb.addEventListener("change", () => pick({heal: cb.checked}));
        box.append(el("label", {class: "check", for: "heal"}, cb, t("Heal {name}", {name: name(c.victim)})));
      }
      if (c.targets.length) {
        box.append(el("p", {class: "label"}, t("Poison:")));
        const grid = el("div", {class: "grid"});
        for (const s of c.targets) {
          const chosen = mine && mine.poison === s;
          grid.append(targetButton(s, "poison-" + s, () => pick({poison: chosen ? null : s}), chosen));
        }
        box.append(grid);
      }
      return box;
    }
    if (c.do === "swap") {
      const cards = centreCards(v);
      const grid = el("div", {class: "grid two"});
      for (const k of c.cards) {
        grid.append(el("button", {type: "button", test: "card-" + k,
          class: "pick" + (mine && mine.card === k ? " chosen" : ""), onclick: () => pick({card: k})},
        cards[k] ? roleName(cards[k]) : t("card {k}", {k: k + 1})));
      }
      box.append(grid);
      return box;
    }
    if (c.do === "spy") {
      const grid = el("div", {class: "grid two"});
      for (const m of c.modes) {
        grid.append(el("button", {type: "button", test: "mode-" + m,
          class: "pick" + (mine && mine.mode === m ? " chosen" : ""), onclick: () => pick({mode: m})}, t(m)));
      }
      box.append(grid);
      return box;
    }
    if (c.do === "restore") {  // the bonesetter: one used power made usable again
      const grid = el("div", {class: "grid two"});
      for (const pw of c.powers) {
        grid.append(el("button", {type: "button", test: "power-" + pw,
          class: "pick" + (mine && mine.power === pw ? " chosen" : ""), onclick: () => pick({power: pw})},
        N.buildings[pw] || pw));
      }
      box.append(grid);
      return box;
    }
    if (c.do === "assign") {  // the steward: an empty building, then a drifter
      box.append(el("p", {class: "label"}, t("Building:")));
      const bgrid = el("div", {class: "grid two"});
      for (const b of c.buildings) {
        bgrid.append(el("button", {type: "button", test: "building-" + b,
          class: "pick" + (mine && mine.building === b ? " chosen" : ""), onclick: () => pick({building: b})},
        N.buildings[b] || b));
      }
      box.append(bgrid, el("p", {class: "label"}, t("Drifter:")));
      const grid = el("div", {class: "grid"});
      for (const s of c.targets) {
        const chosen = !!(mine && mine.targets.includes(s));
        grid.append(targetButton(s, "target-" + s, () => pick({targets: [s]}), chosen));
      }
      box.append(grid);
      return box;
    }
    if (c.do === "pass") {
      box.replaceChildren(el("button", {type: "button", test: "do-pass",
        class: "pick wide" + (mine ? " chosen" : ""), onclick: () => pick({})}, N.verbs.pass));
      box.classList.add("pass");
      return box;
    }
    if (!c.targets || !c.count || c.count[1] === 0) {
      box.append(el("button", {type: "button", test: "do-" + c.do, class: "pick wide" + (mine ? " chosen" : ""),
        onclick: () => pick({})}, N.verbs[c.do] || c.do));
      return box;
    }
    if (isMulti(c)) {
      const [lo, hi] = c.count;
      box.append(el("p", {class: "quiet"}, lo === hi ? t("Choose {n}", {n: lo}) : t("Choose {lo} to {hi}", {lo: lo, hi: hi})));
    }
    const grid = el("div", {class: "grid"});
    for (const s of c.targets) {
      const chosen = !!(mine && mine.targets.includes(s));
      grid.append(targetButton(s, "target-" + s, () => {
        if (!isMulti(c)) return pick({targets: [s]});
        const now = sel && sel.do === c.do ? sel.targets.slice() : [];
        const at = now.indexOf(s);
        if (at >= 0) now.splice(at, 1);
        else if (now.length < c.count[1]) now.push(s);
        pick({targets: now});
      }, chosen));
    }
    box.append(grid);
    return box;
  }

  // the action the selection makes, and whether it may be sent
  function selected(v) {
    if (!sel || !sel.touched) return null;
    if (sel.do === "suspect") return sel.targets.length ? {summary: t("Suspect") + ": " + name(sel.targets[0])} : null;
    const c = (v.actions || []).find((x) => x.do === sel.do);
    if (!c) return null;
    const verb = N.verbs[c.do] || c.do;
    if (c.do === "potion") {
      const parts = [];
      if (sel.heal) parts.push(t("Heal {name}", {name: name(c.victim)}));
      parts.push(sel.poison === null ? t("no poison") : t("poison {name}", {name: name(sel.poison)}));
      return {action: {do: "potion", heal: !!sel.heal, poison: sel.poison === null ? null : name(sel.poison)},
        summary: parts.join(" · ")};
    }
    if (c.do === "swap") {
      if (sel.card === undefined) return null;
      const cards = centreCards(v);
      return {action: {do: "swap", card: sel.card}, summary: verb + ": " + (cards[sel.card] ? roleName(cards[sel.card]) : t("card {k}", {k: sel.card + 1}))};
    }
    if (c.do === "spy") {
      if (!sel.mode) return null;
      return {action: {do: "spy", mode: sel.mode}, summary: verb + ": " + t(sel.mode)};
    }
    if (c.do === "restore") {
      if (!sel.power) return null;
      return {action: {do: "restore", power: sel.power}, summary: verb + ": " + (N.buildings[sel.power] || sel.power)};
    }
    if (c.do === "assign") {
      if (!sel.building || sel.targets.length !== 1) return null;
      return {action: {do: "assign", building: sel.building, target: name(sel.targets[0])},
        summary: verb + ": " + (N.buildings[sel.building] || sel.building) + " → " + name(sel.targets[0])};
    }
    if (!c.count || c.count[1] === 0) return {action: {do: c.do}, summary: verb};
    if (isMulti(c)) {
      if (sel.targets.length < c.count[0] || sel.targets.length > c.count[1]) return null;
      return {action: {do: c.do, targets: sel.targets.map(name)}, summary: verb + ": " + names(sel.targets)};
    }
    if (sel.targets.length !== 1) return null;
    return {action: {do: c.do, target: name(sel.targets[0])}, summary: verb + ": " + name(sel.targets[0])};
  }

  function decoyBox(v) {
    const box = el("div", {test: "suspect", class: "choice"});
    box.append(el("h2", {}, t("Who do you suspect?")));
    const grid = el("div", {class: "grid"});
    for (const p of v.players) {
      if (!p.alive || p.seat === v.seat) continue;
      const chosen = !!(sel && sel.do === "suspect" && sel.targets[0] === p.seat);
      grid.append(el("button", {type: "button", test: "suspect-" + p.seat, class: "pick" + (chosen ? " chosen" : ""),
        onclick: () => { sel = {do: "suspect", targets: [p.seat], touched: true}; renderPanel(); }}, p.name));
    }
    box.append(grid);
    return box;
  }

  // which panel is open: a new night call, step or set of choices starts afresh
  function keyOf(v) {
    const p = v.pace || {};
    return [v.phase, v.n, p.mode, p.call || "", v.step, v.alive, JSON.stringify(v.actions)].join("|");
  }

  // lock-in voting [issue 7]: the phone picks, the seat's button locks the pick
  function lockinNote(l) {
    const text = l.locked ? t("Your vote is locked.")
      : l.pick !== null && l.pick !== undefined
        ? t("Your pick: {name}. Press your seat's button to lock it.", {name: name(l.pick)})
        : t("Pick on your phone, then press your seat's button to lock it.");
    return el("p", {class: "status lockin", test: "lockin"}, text);
  }

  function renderPanel() {
    const v = view;
    const night = !!(v.pace && v.pace.mode === "calls");
    const panel = night ? $("night-panel") : $("day");
    const kids = [];
    if (doneKey === panelKey) {
      kids.push(el("p", {class: "done"}, night ? t("Done: wait for the call to end.") : t("Noted.")));
    } else if (v.actions.length) {
      if (lastSent.key === panelKey) kids.push(el("p", {class: "sent"}, "✓ " + lastSent.summary));
      if (!night && v.pace && v.pace.mode === "discussion") {
        kids.push(el("p", {class: "status"}, t("Talk it over: the vote opens when the time is up.")),
          el("p", {class: "quiet"}, t("Your day power: use it before the vote opens.")));
      }
      for (const c of v.actions) kids.push(choiceBox(c, v));
    } else if (night && v.alive) {
      kids.push(decoyBox(v));
    } else if (!night && v.pace && v.pace.mode === "last-words" && v.pace.seat !== null && v.pace.seat !== undefined) {
      kids.push(el("p", {class: "status"}, t("{name}: last words", {name: name(v.pace.seat)})));
    } else if (!night && v.alive && v.pace && v.pace.mode === "discussion") {
      kids.push(el("p", {class: "status"}, t("Talk it over: the vote opens when the time is up.")));
    } else if (!night && v.alive && v.vote && v.buttons === "roll-call" && v.pace && v.pace.mode === "ballot") {
      kids.push(el("p", {class: "status", test: "rollcall"},
        t("Vote with your seat's button: press it when the display names your choice.")));
      const rc = v.rollcall;  // the candidate being counted now, as the display says [issue 18 item 7]
      if (rc && rc.candidate !== null && rc.candidate !== undefined) {
        kids.push(el("p", {class: "status now", test: "rollcall-now"},
          t("Vote for {name}? Press your button now ({i} of {n})", {name: name(rc.candidate), i: rc.index + 1, n: rc.of})));
      }
    } else if (!night && v.alive && v.vote) {
      kids.push(el("p", {class: "status"}, t("The others are voting.")));
    }
    if (v.lockin) kids.unshift(lockinNote(v.lockin));
    if (!night && v.village && (v.village.silenced || []).includes(v.seat)) {
      kids.unshift(el("p", {class: "status", test: "silenced"}, t("You are silenced: you cannot vote today.")));
    }
    panel.replaceChildren(...kids);
    if (night) $("day").replaceChildren();
    const ready = doneKey === panelKey ? null : selected(v);
    $("confirm-bar").hidden = !ready;
    $("confirm-text").textContent = ready ? ready.summary : "";
    $("confirm").disabled = sending;
  }

  function render(v) {
    view = v;
    offset = typeof v.now === "number" ? v.now - Date.now() / 1000 : 0;
    const key = keyOf(v);
    if (key !== panelKey) {
      // a wolf's pick changes the pack's picks, not his panel: keep what he chose
      const keep = sel && v.actions.some((c) => c.do === sel.do) && panelKey.split("|").slice(0, 5).join("|") === key.split("|").slice(0, 5).join("|");
      if (!keep) sel = null;
      panelKey = key;
    }
    const night = !!(v.pace && v.pace.mode === "calls");
    const over = v.phase === "over";
    const dead = !v.alive && !v.actions.length && !over;
    document.body.classList.toggle("night", night && !dead);
    document.body.classList.toggle("is-dead", dead);
    $("step").textContent = stepText(v.phase === "over" ? "over" : v.step);
    $("night").hidden = !night || dead;
    $("dead").hidden = !dead;
    $("deck-box").hidden = !v.deck;  // the deck is public (RULES.md §4), not with secret_deck
    if (v.deck) $("deck").textContent = deckText(v.deck);
    $("day").hidden = night;
    const ov = $("over");
    ov.hidden = !over;
    if (over) {  // whether *you* won, and why: your card's side [issue 18 item 6]
      const won = (v.winners || []).includes(v.seat);
      ov.replaceChildren(el("h1", {test: "outcome", class: won ? "won" : "lost"}, won ? t("You won!") : t("You lost.")),
        el("p", {class: "big"}, N.wins[v.winner] || v.winner),
        el("p", {test: "why"}, t("You were the {role}: {team}.", {role: roleName(v.role), team: teamName(v.team)})));
    }
    renderPanel();
    renderResults(v);
    renderKnows(v);
    renderTable(v);
    tick();
  }

  // --- sending ------------------------------------------------------------------
  async function post(path, doc) {
    const r = await fetch(base + path, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(doc), cache: "no-store", credentials: "same-origin"});
    let answer = {};
    try { answer = await r.json(); } catch (e) { answer = {error: r.statusText}; }
    return [r, answer];
  }

  // A tap the phone could not deliver (no answer: offline, or the hub
  // restarting) waits here and is sent again, the same body with the same
  // seq, when the line is back; the hub refuses it (409) if the game moved on
  // meanwhile, and the phone says plainly it was not recorded [issue 18 item 8].
  let unsent = null;

  async function confirm() {
    const v = view;
    const ready = selected(v);
    if (!ready || sending) return;
    const suspect = sel.do === "suspect";
    await deliver({key: panelKey, ready, suspect, path: suspect ? "/suspect" : "/action",
      doc: suspect ? {target: name(sel.targets[0])} : Object.assign({seq: v.seq}, ready.action)});
  }

  function showUnsent(text) {
    const box = $("unsent");
    box.textContent = text;
    box.hidden = !text;
  }

  async function deliver(job) {
    if (sending) return;
    sending = true;
    $("confirm").disabled = true;
    try {
      const [r, answer] = await post(job.path, job.doc);
      const retried = unsent === job;
      unsent = null;
      showUnsent("");
      if (r.status === 409) {
        sel = null;
        showError(retried ? t("Not recorded: the game moved on while your phone was offline.")
          : answer.error || t("The game has moved on: here is where it is now."));
        await refresh();
        return;
      }
      if (!r.ok) throw new Error(answer.error || r.statusText);
      showError("");
      if (job.suspect) {
        if (panelKey === job.key) { doneKey = job.key; sel = null; }
      } else {
        sel = null;
        line.show(answer);  // stream.js: unless the stream brought a newer one
        // the step is over for this seat; a ballot or a wolf's pick may still change
        if (!answer.actions.length) doneKey = panelKey;
        else lastSent = {key: panelKey, summary: job.ready.summary, seats: (job.ready.action.target ? [job.ready.action.target] : job.ready.action.targets || [])
          .map((n) => view.players.findIndex((p) => p.name === n))};
      }
    } catch (err) {
      if (err instanceof TypeError) {  // fetch had no answer at all
        unsent = job;
        $("app").classList.add("offline");
        showUnsent(t("Reconnecting… your choice is sent again when the phone is back online."));
      } else {
        showError(String(err.message || err));
      }
    } finally {
      sending = false;
      if (view) renderPanel();
    }
  }
  function online(up) {
    $("app").classList.toggle("offline", !up);
    if (up && unsent && !sending) deliver(unsent);
  }
  $("confirm").addEventListener("click", confirm);
  $("cancel").addEventListener("click", () => { sel = null; renderPanel(); });

  // --- language -----------------------------------------------------------------
  $("lang").addEventListener("change", (e) => {
    location.href = base + "?lang=" + encodeURIComponent(e.target.value);
  });

  // --- timer (on the hub's clock) ----------------------------------------------
  function tick() {
    const p = view && view.pace;
    let text = "";
    if (p && p.paused !== null && p.paused !== undefined) text = t("paused");
    else if (p && typeof p.deadline === "number") {
      text = t("{s} s", {s: Math.max(0, Math.ceil(p.deadline - (Date.now() / 1000 + offset)))});
    }
    $("timer").textContent = text;
  }
  setInterval(tick, 500);

  // --- the stream, and coming back after sleep or lost Wi-Fi (stream.js) --------
  const line = follow(base + "/stream", render, {
    state: base + "/state",
    online,
  });
  const refresh = () => line.refresh();
})();
