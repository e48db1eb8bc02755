// The table screen [issue 6]: public only (/api/public/stream). Phase and
// timer, the moderator's line, deaths as announced, the closed vote's tally as
// the view says it was made (tally.js: the sheriff's ×2 and the rumour's votes
// come from its ballots and extra), the sheriff, the winner and the final
// reveal; at night a soft masking noise made in the browser, at one level
// whatever step is called. el() and $() are dom.js's.
(function () {
  "use strict";
  const words = pageWords("names");  // words.js
  const {N, t, tn, stepText} = words;
  const roleName = (id) => N.roles[id] || id;

  let view = null;
  let deckOn = false;  // the view shows the cards in the game (fit() may leave them out)
  let offset = 0; // hub clock − this screen's clock
  const name = (seat) => (view && view.players[seat] ? view.players[seat].name : String(seat));
  // a name on the TV: one line, cut with "…" when long (dom.js nameTag,
  // table.css) [issue 30]; several, with commas
  const tag = (seat) => nameTag(name(seat));
  const tags = (labels) => labels.flatMap((s, i) => (i ? [", ", nameTag(s)] : [nameTag(s)]));
  // the players' names in a text (the moderator's line) as tags, the longest first
  function tagNames(text, v) {
    const all = (v.players || []).map((p) => p.name).sort((a, b) => b.length - a.length);
    let parts = [text];
    for (const n of all) {
      parts = parts.flatMap((p) => (typeof p !== "string" ? [p]
        : p.split(n).flatMap((s, i) => (i ? [nameTag(n), s] : [s]))));
    }
    return parts.filter((p) => p !== "");
  }

  function deathLine(d) {
    const cause = d.cause ? N.causes[d.cause] || d.cause : null;
    const who = nameTag(d.name);
    const s = cause ? tn("{name} is dead ({cause}).", {name: who, cause: cause}) : tn("{name} is dead.", {name: who});
    return d.role ? [...s, " ", ...tn("{name} was the {role}.", {name: who, role: roleName(d.role)})] : s;
  }

  // the announcements as lines, newest first; the night's deaths come at dawn
  function news(v) {
    const out = [];
    let prev = null;
    for (const a of v.announcements || []) {
      if (a.kind === "dawn") {
        const lines = a.deaths.length ? a.deaths.map(deathLine) : [t("A peaceful night: nobody died.")];
        out.push([t("Dawn of day {n}", {n: a.n}), lines]);
      } else if (a.kind === "death") {
        out.push([stepText(a.time), [deathLine(a)]]);
      } else if (a.kind === "revealed") {
        out.push([stepText(a.time), [tn("{name} is the village idiot: revealed, and stays.", {name: nameTag(a.name)})]]);
      } else if (a.kind === "pardon") {  // The Village (RULES.md §8): the lord's pardon, aloud
        out.push([stepText(a.time), [tn("The lord pardons {name}: nobody is executed today.",
          {name: tag(a.condemned)})]]);
      } else if (a.kind === "no-execution" && !(prev && prev.kind === "pardon" && prev.time === a.time)) {
        out.push([stepText(a.time), [t("No execution.")]]);
      }
      prev = a;
    }
    return out.reverse().slice(0, 4);
  }

  // the announcements' last tally (it has the time of its vote)
  function lastTally(v) {
    const tallies = (v.announcements || []).filter((a) => a.kind === "tally");
    return tallies.length ? tallies[tallies.length - 1] : null;
  }

  function renderTally(v) {
    const box = $("tally");
    box.replaceChildren();
    const today = v.phase + " " + v.n;
    if (v.vote) {
      // every voter of the ballot, those waiting for the tavern keeper's included [issue 44]
      const all = typeof v.vote.of === "number" ? v.vote.of : v.vote.voted.length + v.vote.waiting.length;
      box.append(el("h2", {}, v.vote.kind === "election" ? t("Sheriff election") : t("Votes")),
        el("p", {class: "progress"}, t("{done} of {all} have voted", {done: v.vote.voted.length, all: all})));
      if (v.vote.nominees) {  // vote_mode=candidates: the second round [issue 34]
        box.append(el("p", {class: "nominees", test: "nominees"},
          tn("Candidates: {names}", {names: el("span", {}, tags(v.vote.nominees.map(name)))})),
        el("p", {class: "how"}, t("Only the others vote, for one of the candidates.")));
        const a = lastTally(v);
        if (a && a.time === v.phase + " " + v.n) box.append(tallyTable(a));
      }
      if (v.vote.open) {  // the open-ballots card (RULES.md §10): each ballot named as it is cast
        if (v.event) box.append(el("p", {class: "open-title"}, eventCardWords(v.event, N).title));
        box.append(el("ul", {class: "open-ballots", test: "open-ballots"},
          ...Object.entries(v.vote.open).map(([voter, target]) => el("li", {},
            tag(Number(voter)), " → ", target === null ? t("abstained") : tag(target)))));
      }
      box.hidden = false;
      return;
    }
    const a = lastTally(v);
    // the day's tally; at the end, the last one if a vote ended the game
    const over = v.phase === "over";
    const ended = (v.announcements || []).find((x) => x.kind === "over");
    const when = over ? (ended ? ended.time : null) : today;
    if (!a || a.time !== when || !(v.phase === "day" || over)) { box.hidden = true; return; }
    box.append(el("h2", {}, a.step === "election" ? t("Sheriff election") : t("Votes")));
    box.append(tallyTable(a));
    if (a.tie) box.append(el("p", {class: "tie"}, t("Tie") + ": ", tags(a.tie.map(name))));
    box.hidden = false;
  }

  // a closed vote's counts, each with its voters (tally.js)
  function tallyTable(a) {
    const {rows, abstained, abstainedBy} = tallyRows(a, name, words);  // tally.js
    const voters = tallyVoters;  // tally.js: each name cut when long, never the ×2
    const table = el("table", {});
    for (const r of rows) {
      table.append(el("tr", {class: r.lead ? "lead" : ""}, el("th", {}, tag(r.seat)),
        el("td", {class: "count"}, String(r.count)), el("td", {class: "who"}, voters(r.by))));
    }
    if (abstained.length) {
      table.append(el("tr", {class: "abstain"}, el("th", {}, t("abstained")), el("td", {class: "count"}, ""),
        el("td", {class: "who"}, voters(abstainedBy))));
    }
    return table;
  }

  // Speaking turns [issue 34] (RULES.md §6 discussion_turns, the candidates'
  // defences): who speaks now, large, who is next, and the order (those who
  // have spoken dimmed) — from the public pace alone
  function renderTurns(v, off) {
    const turns = !off && v.pace && v.pace.mode === "discussion" ? v.pace.turns : null;
    const box = $("turns");
    box.hidden = !turns;
    if (!turns) { box.replaceChildren(); return; }
    const defence = turns.of === "defence";
    box.replaceChildren(
      el("h2", {}, defence ? t("Defence") : t("Speaking now")),
      el("p", {class: "speaker", test: "turn-speaker"}, tag(turns.seat)),
      el("p", {class: "next", test: "turn-next"}, turns.next === null || turns.next === undefined
        ? t("Then the vote.") : tn("Next: {name}", {name: tag(turns.next)})),
      el("ol", {class: "order", test: "turn-order"}, ...turns.order.map((seat, i) => el("li",
        {class: i < turns.index ? "done" : i === turns.index ? "now" : ""}, tag(seat)))));
  }

  // The Village's public facts (RULES.md §8): burned buildings, by day the
  // rumour and the silenced, the tavern keeper's open first ballot — nothing else
  function villageLines(v) {
    const vil = v.village;
    const out = [];
    if (!vil) return out;
    for (const b of vil.burned || []) {
      out.push(tn("Burned: {name}'s {building}", {name: tag(b.seat), building: N.buildings[b.building] || b.building}));
    }
    if (vil.poster !== null && vil.poster !== undefined) out.push(tn("A rumour accuses {name}.", {name: tag(vil.poster)}));
    if ((vil.silenced || []).length) {
      out.push(tn("Silenced today (no vote): {names}", {names: el("span", {}, tags(vil.silenced.map(name)))}));
    }
    // the day-2 election is among the farmers (RULES.md §8): who they are is public then [issue 44]
    if (vil.professions && v.vote && v.vote.kind === "election" && (v.vote.candidates || []).length) {
      out.push(tn("The farmers, among whom the sheriff is elected: {names}",
        {names: el("span", {}, tags(v.vote.candidates.map(name)))}));
    }
    if (v.vote && v.vote.first) {
      const f = v.vote.first;
      out.push(tn("The tavern keeper votes first: {name} → {target}",
        {name: tag(f.seat), target: f.target === null ? t("abstained") : tag(f.target)}));
    }
    return out;
  }

  function render(v) {
    view = v;
    if (window.narrationPoke) window.narrationPoke();  // narration.js: the voice of this change
    tableStory(v, $("story"));  // story.js: the story's page at the end [issue 35]
    offset = typeof v.now === "number" ? v.now - Date.now() / 1000 : 0;
    const lobby = v.phase === "lobby" || !v.players || !v.players.length;
    const night = !!(v.pace && v.pace.mode === "calls");
    document.body.classList.toggle("night", night);
    $("phase").textContent = lobby ? t("Waiting for a game") : stepText(v.step);
    let line = v.line || "";
    if (!line && night) line = t("The village sleeps");
    if (!line && v.pace && v.pace.mode === "last-words" && v.pace.seat !== null && v.pace.seat !== undefined) {
      line = t("{name}: last words", {name: name(v.pace.seat)});
    }
    if (v.rollcall && !lobby) {  // roll-call by seat buttons [issue 7]
      line = t("Vote for {name}? Press your button now ({i} of {n})",
        {name: name(v.rollcall.candidate), i: v.rollcall.index + 1, n: v.rollcall.of});
    }
    // the line as said, one sentence a line, without a first line that only
    // repeats the heading above it [issue 18 item 6]
    // (and without the card of the day's sentence while its card shows it:
    // the view's `line_event` names it [issue 45]): the card large from dawn
    // until the day's execution vote opens, when the ballots take its room
    // (the view's event.moment; shared.js)
    const card = renderEvent($("event"), v, words, {atVote: false});
    const cardAt = card && line === v.line ? v.line_event : null;
    const said = line.split("\n").filter((s, i) => i !== cardAt
      && !(i === 0 && s.trim() === $("phase").textContent.trim()));
    const shown = lobby ? [t("Open a seat's link to join")] : v.phase === "over" ? [] : said;
    $("line").replaceChildren(...shown.map((s) => el("span", {class: "said"}, tagNames(s, v))));
    $("deaths").replaceChildren(...(lobby || night ? [] : news(v).map(([when, lines], i) =>
      el("li", {class: i === 0 ? "latest" : ""}, el("span", {class: "when"}, when), ...lines.map((s) => el("span", {class: "what"}, s))))));
    if (lobby || night) $("tally").hidden = true; else renderTally(v);
    renderTurns(v, lobby || night);
    const sheriffOn = v.options && v.options.sheriff &&
      (v.sheriff !== null || (v.announcements || []).some((a) => a.kind === "sheriff"));
    $("sheriff").replaceChildren(...(!lobby && sheriffOn
      ? (v.sheriff === null || v.sheriff === undefined ? [t("No sheriff.")] : ["★ ", ...tn("{name} is the sheriff.", {name: tag(v.sheriff)})])
      : []));
    const deck = !lobby && v.phase !== "over" ? v.deck : null;  // public (RULES.md §4) [issue 16]
    deckOn = !!deck;
    $("deck").hidden = !deck;
    if (deck) {
      const cards = deck.cards.map((c) => c.count + " × " + roleName(c.role)).join(", ");
      $("deck").textContent = deck.centre
        ? t("The cards in this game: {cards}, {n} of them in the centre.", {cards, n: deck.centre})
        : t("The cards in this game: {cards}.", {cards});
    }
    $("players").replaceChildren(...(v.players || []).map((p) => el("li", {class: p.alive ? "" : "gone"},
      el("span", {class: "who"}, nameTag((p.sheriff ? "★ " : "") + p.name)),
      // (a card's name wider than its column at 40 px ends in "…", whole in its title [issue 43])
      p.role && v.phase !== "over" ? el("span", {class: "role", title: roleName(p.role)}, roleName(p.role)) : null)));
    $("village").replaceChildren(...(lobby || night ? [] : villageLines(v).map((s) => el("li", {}, s))));
    const over = (v.announcements || []).find((a) => a.kind === "over");
    document.body.classList.toggle("over", !!over);
    if (over) $("deaths").replaceChildren(...[...$("deaths").children].slice(0, 1));  // the end: the last news, the winner, every card
    $("winner").hidden = !over;
    $("reveal").hidden = !over;
    $("players").hidden = !!over;
    if (over) {
      $("winner").replaceChildren(
        el("p", {class: "side"}, N.wins[over.winner] || over.winner),
        el("p", {class: "names"}, tags(over.winners.map(name))));
      // who won and who died, not by the bold and the grey alone [issue 43]:
      // "won" after the card, the dead's names struck
      const won = (seat) => over.winners.includes(seat);
      const gone = (seat) => !!v.players[seat] && !v.players[seat].alive;
      $("reveal").replaceChildren(...over.reveal.map((role, seat) => el("li",
        {class: (won(seat) ? "won" : "") + (gone(seat) ? " gone" : "")},
        el("span", {class: "who"}, tag(seat)), el("span", {class: "role"}, roleName(role),
          won(seat) ? el("span", {class: "state"}, " · " + t("won")) : null))));
    }
    lostPhone(v);
    tick();
    sound.night(night);
    fit();
  }

  // A lost phone [issue 29]: the table decides here, never the host alone.
  // The vote (public: who said what, how many yes are needed), then the
  // seat's new code, served once by the hub: this screen's fetch is the one
  // (a second screen, or a reload, is told it was shown already).
  let code = {key: "", url: null, gone: false};
  function lostPhone(v) {
    const lost = v.lost_phone;
    if (lost && lost.status !== "vote") newCode(v, lost);
    renderLost($("lost"), lost, words, {  // shared.js
      head: "h2", ask: (who) => tn("{name}'s phone is lost: reissue {name}'s seat?", {name: who}),
      how: t("Living players: confirm on your phones."),
      voting: () => [el("p", {class: "left", id: "lost-left"})],
      decided: (l, who) => [
        el("h2", {}, tn("{name}: scan this code with the phone you will play on.", {name: who})),
        code.url ? el("img", {class: "code", test: "lost-code", alt: l.name, src: code.url}) : null,
        code.gone ? el("p", {class: "how", test: "lost-shown"},
          tn("This code was shown already, on another screen. If {name} has not scanned it, vote again.",
            {name: nameTag(l.name)})) : null,
        el("p", {class: "left", id: "lost-left"})]});
  }
  // the seat's new code, asked once per request (the hub serves it once)
  function newCode(v, lost) {
    const key = v.game + ":" + lost.seat + ":" + lost.until;
    if (code.key === key) return;
    if (code.url) URL.revokeObjectURL(code.url);
    code = {key, url: null, gone: false};
    fetch("/api/lost/qr.svg", {cache: "no-store"}).then(async (r) => {
      if (code.key !== key) return;
      if (r.ok) code.url = URL.createObjectURL(new Blob([await r.text()], {type: "image/svg+xml"}));
      else code.gone = r.status === 410;
      if (view) lostPhone(view);
    }).catch(() => {});
  }

  // The screen never scrolls and cuts nothing [issue 18]: while the main
  // column is too tall the oldest news go (the latest stays, unless a tally
  // says it), while the screen is the line's first sentences (its last
  // stays), then every size shrinks (--k, never under .75, nor any text
  // under --min: 40 px at 1920×1080 [issue 43]) until all that is shown fits; if it still does not (18 seats
  // of long names, half of them dead with their cards shown), the cards in
  // the game go, and the sizes are tried again [issue 30].
  function fit() {
    const body = document.body;
    body.style.setProperty("--min", "2.11vw");  // table.css: 40 px at 1920×1080 [issue 43]
    const tallyBox = $("tally");
    if (tallyBox.dataset.fit) { tallyBox.hidden = false; delete tallyBox.dataset.fit; }
    const news = [...$("deaths").children];
    for (const li of news) li.hidden = false;
    const said = [...$("line").children];
    for (const s of said) s.hidden = false;
    body.style.setProperty("--k", "1");
    const main = document.querySelector(".cols > .main");
    const cols = [...document.querySelectorAll(".cols > *")];
    const wide = [...document.querySelectorAll(".players li, .reveal li, .tally table, .top")];
    // a column's lowest line below its edge (a tall glyph overshoots its box's scrollHeight)
    const below = (c) => {
      const edge = c.getBoundingClientRect().bottom;
      return c.scrollHeight > c.clientHeight + 1 ||
        [...c.querySelectorAll("td, th, li, p, span, h2")].some((e) => e.getBoundingClientRect().bottom > edge - 1);
    };
    const tall = () => $("screen").scrollHeight > $("screen").clientHeight + 1 || cols.some(below);
    const over = () => tall() || wide.some((b) => b.scrollWidth > b.clientWidth + 1);
    const tally = !$("tally").hidden;  // a tally shown says the latest news itself
    for (let i = news.length - 1; i > (tally ? -1 : 0) && below(main); i--) news[i].hidden = true;
    for (let i = 0; i < said.length - 1 && tall(); i++) said[i].hidden = true;
    const shrink = () => {
      for (let k = 19; k >= 15 && over(); k--) body.style.setProperty("--k", String(k / 20));
    };
    $("deck").hidden = !deckOn;
    shrink();
    if (deckOn && over()) {
      $("deck").hidden = true;
      body.style.setProperty("--k", "1");
      shrink();
    }
    // [issue 43] the end: the last tally goes (the story tells it) before any
    // text gets small; only then, for the widest tables (18 names of 40
    // characters, a tie of many), the floor comes down: never under 22 px
    // (then the winners' names, which the cards' "won" repeat, then the last news)
    const names = document.querySelector("#winner .names");
    if (body.classList.contains("over")) {
      for (const part of [tallyBox, names, news[0]]) {
        if (!part || part.hidden || !over()) continue;
        part.hidden = true;
        if (part === tallyBox) tallyBox.dataset.fit = "1";
        body.style.setProperty("--k", "1");
        shrink();
      }
    }
    for (const m of [1.9, 1.7, 1.5, 1.3, 1.15]) {
      if (!over()) break;
      body.style.setProperty("--min", m + "vw");
      body.style.setProperty("--k", "1");
      shrink();
    }
  }
  window.addEventListener("resize", fit);

  function tick() {
    const p = view && view.pace;
    let text = "";
    if (p && p.paused !== null && p.paused !== undefined) text = "⏸ " + t("paused");
    else if (p && typeof p.deadline === "number") {
      const s = Math.max(0, Math.ceil(p.deadline - (Date.now() / 1000 + offset)));
      text = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    }
    $("timer").textContent = text;
    $("timer").classList.toggle("low", /^0:[0-1]\d$/.test(text));
    const lost = view && view.lost_phone;
    if (lost && $("lost-left")) {
      $("lost-left").textContent = t("{s} s", {s: Math.max(0, Math.ceil(lost.until - (Date.now() / 1000 + offset)))});
    }
  }
  setInterval(tick, 250);

  // --- masking noise: filtered noise made here, no audio file ------------------
  const sound = {
    ctx: null, gain: null, on: false, isNight: false,
    start() {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      const ctx = this.ctx = new Ctx();
      const seconds = 6;
      const buf = ctx.createBuffer(2, ctx.sampleRate * seconds, ctx.sampleRate);
      for (let ch = 0; ch < 2; ch++) {
        const d = buf.getChannelData(ch);
        let b0 = 0, b1 = 0, b2 = 0; // pink-ish noise (Paul Kellet's economy filter)
        for (let i = 0; i < d.length; i++) {
          const w = Math.random() * 2 - 1;
          b0 = 0.99765 * b0 + w * 0.0990460;
          b1 = 0.96300 * b1 + w * 0.2965164;
          b2 = 0.57000 * b2 + w * 1.0526913;
          d[i] = (b0 + b1 + b2 + w * 0.1848) * 0.2;
        }
        const fade = Math.floor(ctx.sampleRate * 0.05); // no click at the loop point
        for (let i = 0; i < fade; i++) d[d.length - fade + i] = d[d.length - fade + i] * (1 - i / fade) + d[i] * (i / fade);
      }
      const src = ctx.createBufferSource();
      src.buffer = buf;
      src.loop = true;
      src.loopStart = 0.05;
      const lp = ctx.createBiquadFilter();
      lp.type = "lowpass";
      lp.frequency.value = 900;
      this.gain = ctx.createGain();
      this.gain.gain.value = 0;
      src.connect(lp).connect(this.gain).connect(ctx.destination);
      src.start();
    },
    toggle() {
      this.on = !this.on;
      if (this.on && !this.ctx) this.start();
      if (this.ctx && this.ctx.state === "suspended") this.ctx.resume();
      const b = $("sound");
      b.setAttribute("aria-pressed", String(this.on));
      b.textContent = "♪ " + (this.on ? t("Night sound: on") : t("Night sound: off"));
      this.apply();
    },
    night(isNight) { this.isNight = isNight; this.apply(); },
    apply() {
      if (!this.gain) return;
      const level = this.on && this.isNight ? 0.35 : 0; // one level for every step
      const g = this.gain.gain;
      const now = this.ctx.currentTime;
      g.cancelScheduledValues(now);
      g.setValueAtTime(g.value, now);
      g.linearRampToValueAtTime(level, now + 3);
    },
  };
  $("sound").addEventListener("click", () => sound.toggle());

  // the stream (stream.js): it comes back by itself after a restart or sleep
  follow("/api/public/stream", render, {state: "/api/public"});
})();
