// A seat's phone [issue 6]: the card (hold to see), the night's action or the
// decoy pick, private results, what the role knows, day votes, "you are dead".
// Data only from /p/<token>/state, /p/<token>/stream and POST /p/<token>/action
// (and the decoy's POST /p/<token>/suspect). Text comes from the template.
(function () {
  "use strict";
  const base = "/p/" + $("app").dataset.token;
  const words = pageWords("names");  // words.js; el() and $() are dom.js's
  const {N, t, stepText} = words;
  const deckText = (d) => {  // the game's cards, the centre's counted [issue 16]
    const cards = d.cards.map((c) => c.count + " × " + roleName(c.role)).join(", ");
    return d.centre ? t("{cards}, {n} of them in the centre.", {cards, n: d.centre}) : t("{cards}.", {cards});
  };

  let view = null;
  let offset = 0; // hub clock − this phone's clock, in seconds
  let sel = null; // what is picked on the open (day) panel, before "confirm"
  let panelKey = "";
  let doneKey = ""; // the panel whose action was sent
  let lastSent = {key: "", summary: "", seats: []}; // a ballot or pick that may still change
  let sending = false;
  let deadCall = "";  // the night call a dead phone was called in ("n|call")

  const card = phoneCard(words, () => view, () => (view ? night.tonight(view) : []));
  const night = nightScreen(words, card, () => { if (view) renderPanel(); card.refresh(); });
  const {publicRole, roleName, teamName} = card;
  const name = (seat) => card.name(view, seat);
  const names = (seats) => card.names(view, seats);
  const atNight = (v) => !!(v.pace && v.pace.mode === "calls");

  // --- errors ---------------------------------------------------------------
  let errorTimer = 0;
  function showError(text) {
    const e = $("error");
    e.textContent = text;
    e.hidden = !text;
    clearTimeout(errorTimer);
    if (text) errorTimer = setTimeout(() => { e.hidden = true; }, 8000);
  }

  function renderTable(v) {
    const said = v.readings || {};  // how the narrator says a name [issue 42]
    // (a space between the parts: a screen reader reads "Gus, Villager, dead", not "Villagerdead")
    $("players").replaceChildren(...v.players.map((p) => el("li", {class: p.alive ? "" : "gone"},
      nameTag(p.name), said[p.name] ? el("span", {class: "reading", lang: v.language,
        test: "reading"}, " (" + said[p.name] + ")") : null,
      p.seat === v.seat ? " " + t("(you)") : "",
      p.sheriff ? [" ", el("span", {class: "badge"}, "★ " + t("sheriff"))] : null,
      p.seat !== v.seat && publicRole(v, p) ? [" ", el("span", {class: "known"}, roleName(p.role))] : null,
      p.alive ? null : [" ", el("span", {class: "known"}, t("dead"))])));
    const news = v.deaths.map((d) => el("li", {}, stepText(d.time) + " · " + d.name +
      (d.cause ? " — " + (N.causes[d.cause] || d.cause) : "")));
    if (v.last_tally) {
      const c = v.last_tally.counts || {};
      const counts = Object.keys(c).map((s) => name(+s) + " " + c[s]).join(", ");
      news.push(el("li", {}, t("Votes: {counts}", {counts: counts || "—"})));
    }
    $("news").replaceChildren(...news);
  }

  // --- the day's actions: one container per Choice, then "confirm" ---------------
  // (the night has its one screen, player_night.js)
  const isMulti = (c) => !!c.multi;  // the engine's word: answered with a list of targets

  function choiceBox(c, v) {
    const box = el("div", {test: "choice-" + c.do, class: "choice"});
    box.append(el("h2", {}, N.asks[c.do] || N.verbs[c.do] || c.do));
    const mine = sel && sel.do === c.do ? sel : null;
    const pick = (patch) => {
      sel = Object.assign(sel && sel.do === c.do ? sel : {do: c.do, targets: [], heal: false, poison: null}, patch, {touched: true});
      renderPanel();
    };
    const targetButton = (seat, test, on, chosen) => {
      const sent = lastSent.key === panelKey && lastSent.seats.includes(seat);
      return el("button", {type: "button", test: test, class: "pick" + (chosen ? " chosen" : sent ? " mine" : ""),
        "aria-pressed": String(!!chosen), onclick: on},  // a pick is pressed, not only amber [issue 43]
        nameTag(name(seat), "lines2"));  // dom.js: a long name ends in "…" [issue 30]
    };
    if (c.do === "restore") {  // the bonesetter: one used power made usable again
      const grid = el("div", {class: "grid two"});
      for (const pw of c.powers) {
        grid.append(el("button", {type: "button", test: "power-" + pw,
          class: "pick" + (mine && mine.power === pw ? " chosen" : ""),
          "aria-pressed": String(!!(mine && mine.power === pw)), onclick: () => pick({power: pw})},
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
          class: "pick" + (mine && mine.building === b ? " chosen" : ""),
          "aria-pressed": String(!!(mine && mine.building === b)), onclick: () => pick({building: b})},
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
        class: "pick wide" + (mine ? " chosen" : ""), "aria-pressed": String(!!mine),
        onclick: () => pick({})}, N.verbs.pass));
      box.classList.add("pass");
      return box;
    }
    if (!c.targets || !c.count || c.count[1] === 0) {
      box.append(el("button", {type: "button", test: "do-" + c.do, class: "pick wide" + (mine ? " chosen" : ""),
        "aria-pressed": String(!!mine), onclick: () => pick({})}, N.verbs[c.do] || c.do));
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
    const c = (v.actions || []).find((x) => x.do === sel.do);
    if (!c) return null;
    const verb = N.verbs[c.do] || c.do;
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

  // which panel is open: a new step or set of choices starts afresh
  function keyOf(v) {
    const p = v.pace || {};
    return [v.phase, v.n, p.mode, v.step, v.alive, JSON.stringify(v.actions)].join("|");
  }

  // lock-in voting [issue 7]: the phone picks, the seat's button locks the
  // pick; only a locked pick counts, and the phone says what an unlocked one
  // becomes when the time is up (the vote's timeout) [issue 28]
  const unlockedNote = (l) => (l.unlocked === "right-neighbour"
    ? N_("Your pick: {name}. Not counted until you press your seat's button: unlocked, your vote goes to your right-hand neighbour.")
    : N_("Your pick: {name}. Not counted until you press your seat's button: unlocked, it counts as no vote."));
  function lockinNote(l) {
    const picked = l.pick !== null && l.pick !== undefined;
    const text = l.locked ? (picked ? t("Your vote for {name} is locked: it counts.", {name: name(l.pick)})
      : t("Your vote is locked."))
      : picked ? t(unlockedNote(l), {name: name(l.pick)})
        : t("Pick on your phone, then press your seat's button to lock it.");
    return el("p", {class: "status lockin" + (l.locked ? " locked" : ""), test: "lockin"}, text);
  }

  // ready_ends_night [issue 34] (RULES.md §4 [004]): every living phone the
  // same "Ready" button in night 1's window; tapped, it says so on this phone
  function readyButton(v) {
    if (v.ready === undefined || v.ready === null) return [];
    const tap = () => post("/ready", {}).then(([r, doc]) => {
      if (!r.ok) showError(doc.error || r.statusText);
      else line.show(doc);
    }).catch((err) => showError(String(err.message || err)));
    return [el("div", {class: "ready-box"},
      el("button", {type: "button", id: "ready", test: "ready", class: "pick wide ready" + (v.ready ? " chosen" : ""),
        disabled: v.ready || listening(), onclick: tap}, v.ready ? "✓ " + t("Ready") : t("Ready")),
      el("p", {class: "quiet"}, t("The night ends once everyone is ready.")))];
  }

  // speaking turns [issue 34] (RULES.md §6): who speaks, who is next; the
  // speaker may pass (his turn ends now)
  function turnsNote(v) {
    const turns = v.pace && v.pace.mode === "discussion" ? v.pace.turns : null;
    if (!turns) return [];
    const defence = turns.of === "defence";
    if (turns.seat === v.seat) {
      const pass = () => post("/pass", {}).then(([r, doc]) => {
        if (!r.ok) showError(doc.error || r.statusText);
        else line.show(doc);
      }).catch((err) => showError(String(err.message || err)));
      return [el("p", {class: "status now", test: "my-turn"}, defence ? t("Your defence: speak now.")
        : t("Your turn to speak.")),
      el("button", {type: "button", test: "pass-turn", class: "pick wide", onclick: pass},
        t("I have finished: pass"))];
    }
    const speaking = defence ? N_("{name}'s defence.") : N_("{name} is speaking.");
    const out = [el("p", {class: "status", test: "turn"}, t(speaking, {name: name(turns.seat)}))];
    if (turns.next === v.seat) out.push(el("p", {class: "status now", test: "next-turn"}, t("You are next.")));
    else if (turns.next !== null && turns.next !== undefined) {
      out.push(el("p", {class: "quiet"}, t("Next: {name}", {name: name(turns.next)})));
    }
    out.push(el("p", {class: "quiet"}, t("Wait for your turn: the others keep silent.")));
    return out;
  }

  function renderNight() {
    $("night-panel").replaceChildren(...night.panel(view), ...readyButton(view));
    $("day").replaceChildren();
    // Ready is the phone's last word for the window, on every phone alike
    // (RULES.md §4 Decision r5): no Confirm after it [issue 40]
    const ready = view.ready === true ? null : night.ready(view);
    $("confirm-bar").hidden = !ready;
    $("confirm-text").textContent = ready ? ready.summary : "";
    $("confirm").disabled = sending || listening();
    announce();
  }

  // A secret moment by day [issue 40]: The Village's day powers in the
  // discussion, the lord's pardon, a dying player's last words — every phone
  // concerned shows the night's one screen (player_night.js); only the held
  // card says what a tap does
  function renderSecretDay(v) {
    const kids = [];
    if (v.pace.mode === "discussion") {
      kids.push(...(v.pace.turns ? turnsNote(v)
        : [el("p", {class: "status"}, t("Talk it over: the vote opens when the time is up."))]));
    }
    if (v.village && (v.village.silenced || []).includes(v.seat)) {
      kids.unshift(el("p", {class: "status", test: "silenced"}, t("You are silenced: you cannot vote today.")));
    }
    $("day").replaceChildren(...kids, el("div", {class: "panel secret-day", test: "secret-day"}, ...night.panel(v)));
    const ready = night.ready(v);
    $("confirm-bar").hidden = !ready;
    $("confirm-text").textContent = ready ? ready.summary : "";
    $("confirm").disabled = sending || listening();
    announce();
  }

  function renderPanel() {
    const v = view;
    if (atNight(v)) return renderNight();
    $("night-panel").replaceChildren();  // one screen's buttons at a time (their hooks too)
    if (night.moment(v)) return renderSecretDay(v);
    const kids = [];
    if (doneKey === panelKey) {
      kids.push(el("p", {class: "done"}, t("Noted.")));
    } else if (v.actions.length) {
      // a lock-in pick is not a vote: the note below says so, no ✓ [issue 28]
      if (lastSent.key === panelKey && !v.lockin) kids.push(el("p", {class: "sent"}, "✓ " + lastSent.summary));
      for (const c of v.actions) kids.push(choiceBox(c, v));
    } else if (v.pace && v.pace.mode === "last-words" && v.pace.seat !== null && v.pace.seat !== undefined) {
      kids.push(el("p", {class: "status"}, t("{name}: last words", {name: name(v.pace.seat)})));
    } else if (v.alive && v.pace && v.pace.mode === "discussion" && v.pace.turns) {
      kids.push(...turnsNote(v));
    } else if (v.alive && v.pace && v.pace.mode === "discussion") {
      kids.push(el("p", {class: "status"}, t("Talk it over: the vote opens when the time is up.")));
    } else if (v.alive && v.vote && v.vote.nominees && v.vote.nominees.includes(v.seat)) {
      kids.push(el("p", {class: "status", test: "nominee"}, t("You are a candidate: only the others vote now.")));
    } else if (v.alive && v.vote && v.buttons === "roll-call" && v.pace && v.pace.mode === "ballot") {
      kids.push(el("p", {class: "status", test: "rollcall"},
        t("Vote with your seat's button: press it when the display names your choice.")));
      const rc = v.rollcall;  // the candidate being counted now, as the display says [issue 18 item 7]
      if (rc && rc.candidate !== null && rc.candidate !== undefined) {
        kids.push(el("p", {class: "status now", test: "rollcall-now"},
          t("Vote for {name}? Press your button now ({i} of {n})", {name: name(rc.candidate), i: rc.index + 1, n: rc.of})));
      }
    } else if (v.alive && v.vote) {
      kids.push(el("p", {class: "status"}, t("The others are voting.")));
    }
    if (v.lockin) kids.unshift(lockinNote(v.lockin));
    if (v.village && (v.village.silenced || []).includes(v.seat)) {
      kids.unshift(el("p", {class: "status", test: "silenced"}, t("You are silenced: you cannot vote today.")));
    }
    $("day").replaceChildren(...kids);
    const ready = doneKey === panelKey ? null : selected(v);
    $("confirm-bar").hidden = !ready;
    $("confirm-text").textContent = ready ? ready.summary : "";
    $("confirm").disabled = sending || listening();
    announce();
  }

  // --- what a screen reader is told [issue 43] ------------------------------------
  // One polite live region (#say, role=status): when the step or the night's
  // call changes, its name and what the panel asks or says now; when only the
  // panel's answer changes ("Noted…", "✓ Vote for: Ann", "Not taken…"), that
  // alone. Its words are the screen's own, so the same on every phone whatever
  // the card; nothing of the card is ever in it (the card speaks when opened).
  let saidHead = null;
  let saidBody = [];
  const visible = (e) => !!e && e.getClientRects().length > 0;
  function announce() {
    const v = view;
    if (!v || !$("pin-set").hidden) return;
    const h1 = (id) => ($(id).querySelector("h1") || $(id)).textContent;
    const head = visible($("dead")) ? h1("dead") : v.phase === "over" ? h1("over")
      : visible($("deal")) ? h1("deal") : visible($("night")) ? $("night-call").textContent
        : $("step").textContent;
    const body = [...document.querySelectorAll("#night-panel .status, #day h2, #day .status, #day .done, #day .sent")]
      .filter(visible).map((e) => e.textContent.trim()).filter((s) => s);
    const fresh = body.filter((s) => !saidBody.includes(s));  // only what is new
    const say = (lines) => $("say").replaceChildren(...lines.map((s) => el("p", {}, s)));  // a pause each
    if (head !== saidHead) say([head, ...body]);
    else if (fresh.length) say(fresh);
    saidHead = head;
    saidBody = body;
  }

  function render(v) {
    view = v;
    offset = typeof v.now === "number" ? v.now - Date.now() / 1000 : 0;
    const key = keyOf(v);
    if (key !== panelKey) {
      // a ballot changes the tally, not the voter's panel: keep what he chose
      const keep = sel && v.actions.some((c) => c.do === sel.do) && panelKey.split("|").slice(0, 4).join("|") === key.split("|").slice(0, 4).join("|");
      if (!keep) sel = null;
      panelKey = key;
    }
    const night = atNight(v);
    const deal = !!(v.pace && v.pace.mode === "deal");
    const over = v.phase === "over";
    // a narrated game: the seat's PIN first, on every phone alike [issue 40]
    const needPin = v.pin === false;
    $("pin-set").hidden = !needPin;
    $("card-slot").hidden = needPin;
    // a dead phone called at night (the first dead's call, New Moon's
    // wolves' ally [issue 33]) keeps the night's screen until the call ends,
    // as every living phone does: naming at once or late looks the same
    const call = night ? v.n + "|" + v.pace.call : "";
    if (night && !v.alive && v.actions.length) deadCall = call;
    // his last words: a dying player's phone shows the same screen, a hunter or not [issue 40]
    const lastWords = !!(v.pace && v.pace.mode === "last-words" && v.pace.seat === v.seat);
    const dead = !v.alive && !v.actions.length && !over && !(night && deadCall === call) && !lastWords;
    document.body.classList.toggle("night", (night || deal) && !dead);
    document.body.classList.toggle("is-dead", dead);
    $("step").textContent = stepText(v.phase === "over" ? "over" : v.step);
    $("deal").hidden = !deal;
    if (deal) $("my-name").replaceChildren(...words.tn("Your seat: {name}", {name: nameTag(name(v.seat))}));  // [issue 44]
    $("night").hidden = !night || dead;
    $("dead").hidden = !dead;
    $("deck-box").hidden = !v.deck;  // the deck is public (RULES.md §4), not with secret_deck
    if (v.deck) $("deck").textContent = deckText(v.deck);
    $("day").hidden = night || deal;
    // in the deal and at night every phone shows the same screen (the names: the night's own)
    $("table-box").hidden = night || deal;
    const ov = $("over");
    ov.hidden = !over;
    if (over) {  // whether *you* won, and why: your card's side [issue 18 item 6]
      const won = (v.winners || []).includes(v.seat);
      ov.replaceChildren(el("h1", {test: "outcome", class: won ? "won" : "lost"}, won ? t("You won!") : t("You lost.")),
        el("p", {class: "big"}, N.wins[v.winner] || v.winner),
        el("p", {test: "why"}, (v.results || []).some((r) => r.kind === "ally")  // New Moon's ally [issue 44]
          ? t("You were the {role}, the wolves' ally: {team}.", {role: roleName(v.role), team: teamName(v.team)})
          : t("You were the {role}: {team}.", {role: roleName(v.role), team: teamName(v.team)})));
    }
    if (deal) {
      $("day").replaceChildren();
      $("confirm-bar").hidden = true;
    } else {
      renderPanel();
    }
    // New Moon's card of the day (RULES.md §10) [issue 33]: a small panel,
    // the same on every phone, while the view's event.moment says (shared.js)
    renderEvent($("event-box"), v, words);
    renderTable(v);
    lostPhone(v);
    phoneStory(v, $("story"));  // story.js: at the end, or dead with ghosts [issue 35]
    card.refresh();
    tick();
    announce();
  }

  // A lost phone [issue 29]: the table votes to reissue a seat; every living
  // phone but that seat's answers yes or no (public: the table screen shows
  // who said what). The last answer counts until the vote ends.
  function lostPhone(v) {
    renderLost($("lost"), v.lost_phone, words, {  // shared.js
      ask: (who) => words.tn("{name}'s phone is lost: reissue {name}'s seat?", {name: who}),
      decided: (lost, who) => [el("p", {class: "ask"}, words.tn("{name}'s new code is on the table screen.", {name: who}))],
      voting: (lost) => {
        const mine = lost.yes.includes(v.seat) ? "yes" : lost.no.includes(v.seat) ? "no" : null;
        if (v.seat === lost.seat) return [el("p", {}, t("The table is voting on your seat: if your phone is not lost, say so aloud."))];
        if (!lost.voters.includes(v.seat)) return [el("p", {class: "quiet"}, t("Only the living vote."))];
        const answer = (yes) => post("/lost", {yes}).then(([r, doc]) => {
          if (!r.ok) showError(doc.error || r.statusText);
        }).catch((err) => showError(String(err.message || err)));
        return [el("div", {class: "answers"},
          el("button", {type: "button", test: "lost-yes", class: "pick" + (mine === "yes" ? " chosen" : ""),
            "aria-pressed": String(mine === "yes"), onclick: () => answer(true)}, t("Yes, reissue it")),
          el("button", {type: "button", test: "lost-no", class: "pick" + (mine === "no" ? " chosen" : ""),
            "aria-pressed": String(mine === "no"), onclick: () => answer(false)}, t("No"))),
        mine ? el("p", {class: "quiet", test: "lost-mine"},
          mine === "yes" ? t("Your answer: yes (you may change it).") : t("Your answer: no (you may change it).")) : null];
      }});
  }

  // --- sending ------------------------------------------------------------------
  // a 429 (this phone asked too often [issue 30]) is waited out and sent
  // again (stream.js's patientFetch); the player is told only if it goes on
  async function post(path, doc) {
    const r = await patientFetch(base + path, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(doc), cache: "no-store", credentials: "same-origin"},
    (long) => showUnsent(long ? t("The hub asks this phone to wait: your choice is sent in a moment.") : ""));
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
    if (!v || sending) return;
    if (night.moment(v)) {  // the secret moments' one screen: a real action, the decoy, or not taken
      const r = night.ready(v);
      if (!r) return;
      const d = r.decision;
      if (d.refused) { night.confirmed(r, false); return; }
      await deliver({key: "night", ready: r, night: true, path: d.action ? "/action" : "/suspect",
        doc: d.action ? Object.assign({seq: v.seq}, d.action)
          : {target: r.pick.seats.length ? name(r.pick.seats[0]) : null}});
      return;
    }
    const ready = selected(v);
    if (!ready) return;
    await deliver({key: panelKey, ready, path: "/action", doc: Object.assign({seq: v.seq}, ready.action)});
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
      if (job.night) {
        night.confirmed(job.ready, true);
        if (!job.ready.decision.action) return;  // the decoy: nothing changed, nothing to show
      } else {
        sel = null;
      }
      line.show(answer);  // stream.js: unless the stream brought a newer one
      if (job.night) return;
      // the step is over for this seat; a ballot or a wolf's pick may still change
      if (!answer.actions.length) doneKey = panelKey;
      else lastSent = {key: panelKey, summary: job.ready.summary, seats: (job.ready.action.target ? [job.ready.action.target] : job.ready.action.targets || [])
        .map((n) => view.players.findIndex((p) => p.name === n))};
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
  $("cancel").addEventListener("click", () => {
    if (view && night.moment(view)) night.cancel();
    else { sel = null; renderPanel(); }
  });

  // --- language -----------------------------------------------------------------
  $("lang").addEventListener("change", (e) => {
    location.href = base + "?lang=" + encodeURIComponent(e.target.value);
  });

  // --- timer (on the hub's clock) ----------------------------------------------
  // a narrated game: the window opens once the narrator has said what opens
  // it (pace.opens, the same for every phone); until then Confirm waits [issue 29]
  function listening() {
    const p = view && view.pace;
    return !!(p && typeof p.opens === "number" && p.opens > Date.now() / 1000 + offset);
  }
  function tick() {
    const p = view && view.pace;
    let text = "";
    if (p && p.paused !== null && p.paused !== undefined) text = t("paused");
    else if (listening()) text = t("Listen…");
    else if (p && typeof p.deadline === "number") {
      text = t("{s} s", {s: Math.max(0, Math.ceil(p.deadline - (Date.now() / 1000 + offset)))});
    }
    $("timer").textContent = text;
    $("confirm").disabled = sending || listening();
    // Ready waits for the narrator too, on every phone alike [issue 34]
    const ready = document.getElementById("ready");
    if (ready && view) ready.disabled = !!view.ready || listening();
  }
  setInterval(tick, 500);

  // --- the stream, and coming back after sleep or lost Wi-Fi (stream.js) --------
  const line = follow(base + "/stream", render, {
    state: base + "/state",
    online,
  });
  const refresh = () => line.refresh();
})();
