// The GM tablet's running game [issue 6]: the moderator's line, who must act,
// the timer and its buttons, the players (roles with "show secrets"), the
// secret facts, the vote, the end and its reveal, the log and the
// announcements, undo and rewind. The GM's entry of a seat's action is
// gm_act.js's.
(function () {
  "use strict";
  const { N, t, pick, api, guard, showError, S, nameOf, isNight, roleName, stepName, winText, seenName,
    describe, actionOfEvent, tallyText } = GM;  // gm_state.js

  function whenText(v) {
    if (!v.players) return stepName("lobby");
    if (v.phase === "over") return stepName("over");
    const pace = v.pace || {};
    if (pace.mode === "calls") return t("Night {n}", { n: pace.night });
    return v.phase === "night" ? t("Night {n}", { n: v.n }) : t("Day {n}", { n: v.n });
  }

  function doingText(v) { // what the table is doing now, without secrets
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
    const doing = doingText(v);
    const engine = S.secrets && v.pending && !v.pending.kind.startsWith("over")
      && isNight(v) && v.pending.step !== (v.pace || {}).call ? " · " + stepName(v.pending.step) : "";
    $("step").textContent = whenText(v) + (doing ? " · " + doing : "") + engine;
    const line = v.script && v.script.line;
    const rollcall = v.rollcall  // roll-call by seat buttons [issue 7]: say whom the table votes on
      ? t("Vote for {name}? Press your button now ({i} of {n})",
        { name: nameOf(v.rollcall.candidate), i: v.rollcall.index + 1, n: v.rollcall.of }) : "";
    $("line").textContent = rollcall || line || doing
      || (v.phase === "over" ? winText(v.winner) : whenText(v));
    renderCard(v);
    document.querySelector("#running .clock").hidden = v.phase === "over";
    // the discussion and the verdict wait for nobody (their clock holds the vote) [issue 44]
    const held = v.pace && (v.pace.mode === "discussion" || v.pace.mode === "verdict");
    const waiting = held ? [] : (v.pending && v.pending.waiting) || [];
    if (v.phase === "over") $("waiting").textContent = "";
    else if (isNight(v) && !S.secrets) {
      const hidden = t("hidden");
      $("waiting").textContent = t("Waiting for: {names}", { names: hidden });
    } else {
      const nobody = t("Nobody");
      $("waiting").replaceChildren(...GM.words.tn("Waiting for: {names}",
        { names: waiting.length ? tags(waiting.map(nameOf)) : nobody }));
    }
    renderPlayers(v);
    renderSecretBox(v);
    renderTally(v);
    GM.act.renderSeats(v);  // gm_act.js
    GM.act.render();
    renderOver(v);
    renderUndo();
    tick();
    fitPlayers();  // the line, the waiting and the end above may have grown
  }
  // New Moon's card of the day (RULES.md §10) [issue 33], all day (the
  // view's event.moment; shared.js), under the moderator's line, in one line:
  // its text once (the line at dawn says it already: the view's
  // `script.line_event` names its sentence [issue 45]; a roll-call's line
  // takes its place); a text-only card changes no rule, so the GM applies it by hand
  function renderCard(v) {
    const said = !v.rollcall && typeof (v.script || {}).line_event === "number";
    renderEvent($("event-card"), v, GM.words, { line: true, said, byHand: t("Apply it by hand.") });
  }

  // the table's seats in the window's height, else scrolling in their panel
  // (gm.js's hint), never only with the whole page [issue 28]
  const fitPlayers = fitToWindow($("players"));  // dom.js
  // the status box above it grows and shrinks with the line (and its scroll hint) [issue 44]
  new ResizeObserver(() => fitPlayers()).observe(document.querySelector("#running .status"));
  // names in a list (who must act, who voted): each on one line, a long one
  // cut with "…" (dom.js nameTag, gm.css), so 17 names of 40 characters take
  // a few lines and leave the table its room [issue 30]
  const tags = (names) => el("span", {}, names.flatMap((n, i) => [i ? ", " : "", nameTag(n)]));

  function renderPlayers(v) {
    const votes = v.votes || {};
    const voting = v.vote || null;
    // a seat in two lines (the name; its card, death and ballot), three with
    // The Village's profession: 18 seats fit the tablet; what does not fit
    // its box ends in "…", its whole text in the title [issue 28]
    const cut = (cls, text, test) => el("span", { class: cls, text, title: text, test });
    $("players").replaceChildren(...v.players.map((p) => {
      const info = [];
      if (S.secrets || v.phase === "over") info.push(cut("role", roleName(p.role)));
      if (!p.alive) info.push(cut("badge dead-badge", t("dead")));
      if (voting && Object.prototype.hasOwnProperty.call(votes, String(p.seat))) {
        const target = votes[String(p.seat)];
        info.push(cut("ballot", "→ " + (target === null ? t("abstains") : nameOf(target))));
      }
      const acts = p.actions && p.actions.length && (S.secrets || !isNight(v));
      // who must act: a sign beside the amber border, never the colour alone [issue 43]
      if (acts) info.unshift(el("span", { class: "must", role: "img", "aria-label": t("must act"),
        title: t("must act"), text: "●" }));
      return el("li", { class: "player" + (p.alive ? "" : " dead") + (acts ? " acts" : "")
        + (S.actSeat === p.seat ? " selected" : ""), test: "player-" + p.seat,
        onclick: () => GM.act.select(p.seat) },
        el("span", { class: "seatno", text: String(p.seat + 1) }),
        cut("pname", p.name),
        p.sheriff ? el("span", { class: "star", text: "★", title: t("sheriff"),
          "aria-label": t("sheriff") }) : null,
        info.length ? el("span", { class: "pinfo" }, info) : null,
        professionBadge(v, p.seat));
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
    return el("span", { class: "prof", test: "prof-" + seat, text, title: text });
  }

  function renderSecretBox(v) {
    const box = $("secret-box");
    box.replaceChildren();
    if (!S.secrets) return;
    const facts = [];
    if (v.center && v.center.length) facts.push(t("centre") + ": " + v.center.map(roleName).join(", "));
    if (v.lovers) facts.push(t("lovers") + ": " + v.lovers.map(nameOf).join(" ♥ "));
    if (v.charmed && v.charmed.length) facts.push(t("charmed") + ": " + v.charmed.map(nameOf).join(", "));
    if (v.potions && (v.players || []).some((p) => p.role === "witch")) facts.push(roleName("witch") + ": " + ["heal", "poison"].filter((k) => v.potions[k])
      .map((k) => k === "heal" ? "♥" : "☠").join(" "));
    const night = v.night || {};
    if (v.phase === "night") {
      const picks = Object.entries(night.picks || {}).map(([w, tg]) => nameOf(+w) + " → " + nameOf(tg));  // (a line may break between two names)
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

  // the open vote: who voted for whom so far (a ballot's weight and the count
  // come with the tally when it closes); a closed one: its tally, as it says
  // it was made (tally.js, contract C1)
  function renderTally(v) {
    const box = $("tally");
    box.replaceChildren();
    const row = (name, n, who) => el("div", { class: "tally-row" },
      el("span", { class: "tally-name", text: name }), el("span", { class: "tally-n", text: n }),
      el("span", { class: "quiet" }, who));
    if (v.vote) {
      const by = new Map();
      for (const [voter, target] of Object.entries(v.votes || {})) {
        const key = target === null ? "abstain" : target;
        by.set(key, (by.get(key) || []).concat([nameOf(+voter)]));
      }
      for (const [target, who] of by) {
        box.append(row(target === "abstain" ? t("abstains") : nameOf(target), "", tags(who)));
      }
      const left = (v.vote.waiting || []).map(nameOf);
      if (left.length) box.append(el("p", { class: "quiet" }, GM.words.tn("Waiting for: {names}", { names: tags(left) })));
    } else if (v.last_tally) {
      const { rows, abstainedBy } = tallyRows(v.last_tally, nameOf, GM.words);  // tally.js
      const voters = tallyVoters;  // tally.js: never the ×2 cut
      for (const r of rows) box.append(row(nameOf(r.seat), String(r.count), voters(r.by)));
      if (abstainedBy.length) box.append(row(t("abstains"), "", voters(abstainedBy)));
    }
  }

  // the game's log and announcements: GET /api/games/<id>/view, refetched when the view moves
  function refreshRecord() {
    if (!GM.hasGame()) return;
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
    next.stage(pace.stage);
    const paused = pace.paused !== null && pace.paused !== undefined;
    box.classList.toggle("paused", paused);
    $("pause").hidden = paused;
    $("resume").hidden = !paused;
    // the one Next ends whatever is open; a night call ends early for all to see [issue 16]
    // a speaking turn: Next skips it, the next speaker's turn starts [issue 34]
    $("skip").textContent = pace.mode === "calls" ? t("Next: the table will see this call end early")
      : pace.mode === "discussion" && pace.turns && pace.turns.order ? t("Skip this turn") : t("Next");
    if (paused) box.textContent = t("paused") + " " + fmt(pace.paused);
    else if (pace.deadline !== null && pace.deadline !== undefined) {
      const left = pace.deadline - (Date.now() / 1000 + S.offset);
      box.textContent = fmt(left);
      box.classList.toggle("low", left < 10);
    } else box.textContent = t("no timer");
  }
  setInterval(tick, 250);
  // each press names the stage it was made on: a second tablet's Next, or one
  // pressed just as the clock moved on, changes nothing (409) [issue 30 item 2]
  const press = (body) => guard(() => api("POST", "/api/timer",
    Object.assign({ stage: S.gm && S.gm.pace ? S.gm.pace.stage : undefined }, body)));
  for (const [id, body] of [["pause", { do: "pause" }], ["resume", { do: "resume" }],
    ["extend", { do: "extend", seconds: 30 }]]) {
    $(id).addEventListener("click", press(body));
  }
  // Next: one press ends one thing, never the call that began just before the
  // press landed, nor the next one by a key's repeat or a double tap (dom.js
  // lockout: 600 ms after each press and each new stage shown) [issue 43]
  const next = lockout($("skip"), 600, press({ do: "skip" }));

  // --- the end
  function renderOver(v) {
    const over = v.phase === "over";
    $("over-box").hidden = !over;
    if (!over) { $("winner").textContent = ""; $("reveal").replaceChildren(); return; }
    $("winner").textContent = winText(v.winner);
    overStory(v, $("over-story"), true);  // story.js: the table screen's story [issue 35]
    const winners = new Set(v.winners || []);
    $("reveal").replaceChildren(...v.players.map((p) => el("li", {
      class: "card" + (winners.has(p.seat) ? " won" : "") + (p.alive ? "" : " dead") },
      el("span", { class: "pname", text: p.name, title: p.name }),
      el("span", { class: "role", text: roleName(p.role) }),
      // won, dead: in words, not only the outline and the struck name [issue 43]
      el("span", { class: "marks", text: [winners.has(p.seat) ? t("won") : "",
        p.alive ? "" : t("dead")].filter((x) => x).join(" · ") }))));
  }

  // --- log, announcements, undo
  function actEvents() {
    const log = (S.record && S.record.log) || [];
    return log.filter((e) => e.e === "act");
  }
  function actionWords(e) { // an engine act event (seats as numbers), in words
    let text = "#" + e.a + " " + describe(actionOfEvent(e, nameOf));
    if (S.secrets && e.result !== undefined) text += " → " + seenName(e.result);
    if (S.secrets && e.outcome !== undefined) text += " → " + pick(N.outcomes, e.outcome);
    return text;
  }

  function renderRecord() {
    renderUndo();
    const rec = S.record;
    if (!rec) return;
    // each announcement's line, in words from the hub (History.view_at's news) [issue 45]
    $("announcements").replaceChildren(...(rec.news || []).map((text) => el("li", {}, text)).reverse());
    const log = $("log");
    if (!S.secrets) {
      log.replaceChildren(el("li", { class: "quiet", text: t("Show secrets to see the log.") }));
      return;
    }
    const items = [];
    let when = "";
    for (const e of rec.log) {
      if (e.e === "night" || e.e === "day") {
        when = GM.dayOrNight({ phase: e.e, n: e.n });
        items.push(el("li", { class: "log-head", text: when }));
      } else if (e.e === "act") items.push(el("li", { text: actionWords(e) }));
      else if (e.e === "died") items.push(el("li", { class: "log-death", text: "✝ " + t("{name} dies ({cause})", { name: nameOf(e.seat), cause: pick(N.causes, e.cause) }) }));
      else if (e.e === "tally") items.push(el("li", { class: "quiet", text: tallyText(e, nameOf) }));
      else if (e.e === "sheriff") items.push(el("li", { text: "★ " + t("{name} is the sheriff", { name: nameOf(e.seat) }) }));
      else if (e.e === "shown") items.push(el("li", { class: "quiet", text: roleName("witch") + ": " + nameOf(e.victim) }));
      else if (e.e === "medium") items.push(el("li", { class: "quiet", text: roleName("medium") + ": " + nameOf(e.target) + " → " + seenName(e.result) }));
      else if (e.e === "over") items.push(el("li", { class: "log-head", text: winText(e.winner) }));
    }
    log.replaceChildren(...items.reverse());
  }

  let undoTo = null;
  let undoExpect = null; // the action count the GM was shown when asked [issue 17]
  let undoLast = false; // asked about the newest action (an undo), not a rewind
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
    undoLast = to === acts[acts.length - 1].a && acts.length === 1;
    undoExpect = S.record && S.record.total !== undefined ? S.record.total : S.gm.seq; // as shown
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
    const to = undoTo;
    const expect = undoExpect;
    const last = undoLast;
    undoTo = null;
    if (to === null) return;
    S.rewindPick = null;
    try { // the undo names the count the GM saw: if anything landed since, 409 [issue 17]
      await api("POST", "/api/undo", last ? { expect } : { expect, to });
    } catch (err) {
      if (err.status !== 409 || !GM.hasGame()) throw err;
      S.record = await api("GET", "/api/games/" + S.gm.game + "/view"); // what is there now
      S.recordKey = "";
      renderRecord();
      showError(err);
      const now = actEvents(); // an undo asks about the newest action; a rewind keeps its point
      askUndo(last && now.length ? now[now.length - 1].a : to); // ask again, showing it
    }
  }));

  GM.screen("running", {
    shown: fitPlayers,
    view: () => { renderRunning(); refreshRecord(); },
    secrets: () => { if (S.gm) renderRunning(); renderRecord(); },
  });
  GM.game = { renderPlayers };
})();
