// The secret moments' one screen [issue 28, issue 40]: at arm's length every
// phone looks the same, whatever its card, in every call of the night — and
// by day wherever a card or a profession may act in secret: The Village's
// day powers in the discussion (every living phone), the lord's pardon
// before an execution (every living phone), a dying player's last words
// (his phone, a hunter or not). The same line, the same signs (①, ② at
// night; ① to ④ by day, for the bonesetter's and the steward's buildings)
// and Pass, the same names (every living player, in seat order; by day up
// to two may be picked, for the schoolteacher), the same "Confirm", the same
// word after it. What a tap means for this card now — whom the pack
// attacks, the witch's heal (①) and poison (a name), the thief's two cards,
// the little girl's spying, the confessor's look, the lord's pardon (①) —
// is said only on the held card (`tonight`). A tap that means nothing for
// the card (the decoy) is posted to /suspect, which stores nothing, exactly
// as a real one is posted to /action; a tap the card may not make is not
// sent, and only the held card says why.
//
// At night one name is picked at a time on every phone; a card that names
// two (cupid's lovers, the piper's charms) names them one Confirm after the
// other.
//
//   const night = nightScreen(words, card);
//   night.moment(v)      // the secret moment now ({key, night, ...}) or null
//   night.panel(v)       // the panel's elements (the same on every phone)
//   night.ready(v)       // what Confirm would do: {summary, decision, pick} or null
//   night.tonight(v)     // the held card's lines for the moment now
function nightScreen(words, card, redraw) {
  "use strict";
  const {N, t, stepText} = words;
  const {name, names, roleName} = card;
  const MARKS = ["①", "②", "③", "④"];
  // the little girl's ways of spying (engine SPY_MODES), as her phone offers them
  const SPY_MODES = {discreet: N_("Discreetly"), bold: N_("Boldly")};
  //: what a sign or a name does by day, on the held card only
  const buildingName = (b) => (N.buildings && N.buildings[b]) || b;

  let key = "";      // the moment the state below belongs to
  let sel = null;    // {seats: [...], mark (1..4), pass}: picked, before Confirm
  let sent = null;   // the same, as last confirmed in this moment
  let partial = [];  // a two-name night choice's first name(s), confirmed
  let refused = "";  // why the last Confirm was not taken (said on the card)
  let said = "";     // what the card's last accepted Confirm did ("Your choice: …")

  const living = (v) => v.players.filter((p) => p.alive);
  const mainChoice = (v) => v.actions.find((c) => c.do !== "pass");
  const canPass = (v) => v.actions.some((c) => c.do === "pass");

  // The secret moment the view is in, or null (then the open day panel
  // shows the vote and the rest, the same for everyone by nature)
  function moment(v) {
    const p = v.pace || {};
    if (p.mode === "calls") {
      return {key: "n|" + v.n + "|" + p.call, night: true, marks: 2, pick: 1, open: !!p.call,
        label: stepText("night " + v.n) + (p.call ? " · " + (N.steps[p.call] || p.call) : "")};
    }
    const day = {night: false, marks: 4, pick: 2, open: true};
    const village = !!(v.village && v.village.professions);
    if (p.mode === "discussion" && village && v.alive) {  // RULES.md §8: the day powers' window
      return Object.assign(day, {key: "d|" + v.n + "|talk|" + p.stage, label: t("Day powers")});
    }
    if (p.mode === "prompt" && village && v.alive && /execution$/.test(v.step || "")) {
      return Object.assign(day, {key: "d|" + v.n + "|execution|" + p.stage, label: t("The execution")});
    }
    if (p.mode === "last-words" && p.seat === v.seat) {  // a hunter or not: the same phone
      return Object.assign(day, {key: "d|" + v.n + "|words|" + p.stage, label: t("Your last words"), pick: 1});
    }
    return null;
  }

  function sync(v) {
    const m = moment(v);
    const k = m ? m.key : "";
    if (k !== key) {
      key = k;
      sel = sent = null;
      partial = [];
      refused = said = "";
    }
    return m;
  }

  function tap(m, patch) {
    const base = sel || {seats: [], mark: null, pass: false};
    sel = Object.assign({}, base, patch);
    if (!sel.pass && !sel.seats.length && !sel.mark) sel = null;
    redraw();
  }

  function tapSeat(m, seat) {
    const now = sel ? sel.seats.slice() : [];
    const at = now.indexOf(seat);
    if (at >= 0) now.splice(at, 1);
    else if (m.pick === 1) now.splice(0, now.length, seat);
    else if (now.length < m.pick) now.push(seat);
    tap(m, {seats: now, pass: false});
  }

  function panel(v) {
    const m = sync(v);
    if (!m) return [];
    if (m.night) $("night-call").textContent = m.label;
    if (!m.open) return [el("p", {class: "status", test: "night-status"}, t("Dawn is coming."))];
    const status = refused ? t("Not taken: hold your card to see why.")
      : sent ? t("Noted: you may change it until the call ends.")
        : t("Tap a name or a sign, then Confirm. Hold your card: it says what they do for you.");
    // the pick shows until Confirm; then nothing says what was tapped (the card does)
    const cls = (on) => "pick" + (on ? " chosen" : "");
    const marks = el("div", {class: "grid signs" + (m.marks > 2 ? " four" : "")},
      ...MARKS.slice(0, m.marks).map((mk, i) => el("button", {type: "button", test: "mark-" + (i + 1),
        class: cls(sel && sel.mark === i + 1), "aria-pressed": String(!!(sel && sel.mark === i + 1)),
        onclick: () => tap(m, {mark: sel && sel.mark === i + 1 ? null : i + 1, pass: false})}, mk)),
      el("button", {type: "button", test: "night-pass", class: cls(sel && sel.pass),
        "aria-pressed": String(!!(sel && sel.pass)),
        onclick: () => tap(m, {seats: [], mark: null, pass: !(sel && sel.pass)})}, N.verbs.pass));
    const people = living(v);
    const picked = (seat) => !!(sel && sel.seats.includes(seat));
    const grid = el("div", {class: "grid names" + (people.length > 12 ? " many" : "")},
      ...people.map((p) => el("button", {type: "button", test: "name-" + p.seat,
        class: cls(picked(p.seat)), "aria-pressed": String(picked(p.seat)),
        onclick: () => tapSeat(m, p.seat)},
      el("span", {class: "who", title: p.name}, p.name))));  // a long name ends in "…"
    const head = m.night ? [] : [el("h2", {test: "secret-title"}, m.label)];
    return [...head, el("p", {class: "status", test: "night-status"}, status), marks, grid];
  }

  // What Confirm does with the selection, for this card now: an action, a
  // decoy, or a refusal (its reason, for the held card)
  function decide(v, m, s) {
    const main = mainChoice(v);
    const first = s.seats.length ? s.seats[0] : null;
    const decoy = {decoy: true};
    if (!v.actions.length) return decoy;
    if (s.pass) {
      if (canPass(v)) return {action: {do: "pass"}};
      return m.night ? {refused: t("You cannot pass now.")} : decoy;  // an unused day power needs no pass
    }
    const onlyMarks = () => (s.mark ? null : t("Tap ① or ②."));
    const noMark = () => (s.mark ? t("① and ② do nothing in this call.") : null);
    const oneName = () => {
      if (s.seats.length !== 1) return t("Tap one name.");
      return main.targets.includes(first) ? null : t("You may not choose {name}.", {name: name(v, first)});
    };
    if (main.do === "swap") {
      const why = onlyMarks();
      return why ? {refused: why} : {action: {do: "swap", card: main.cards[s.mark - 1]}};
    }
    if (main.do === "spy") {
      const why = onlyMarks();
      return why ? {refused: why} : {action: {do: "spy", mode: main.modes[s.mark - 1]}};
    }
    if (main.do === "potion") {
      if (s.mark === 2) return {refused: t("① and ② do nothing in this call.")};
      if (s.mark === 1 && !main.heal) return {refused: t("You cannot heal tonight.")};
      if (first !== null && !main.targets.includes(first)) {
        return {refused: t("You may not choose {name}.", {name: name(v, first)})};
      }
      return {action: {do: "potion", heal: s.mark === 1, poison: first === null ? null : name(v, first)}};
    }
    if (main.do === "pardon") {  // the lord (RULES.md §8): ① pardons, Pass lets it happen
      return s.mark === 1 && !s.seats.length ? {action: {do: "pardon"}} : {refused: t("Tap ① or Pass.")};
    }
    if (main.do === "restore") {  // the bonesetter: a used power, by its sign
      const power = s.mark ? main.powers[s.mark - 1] : undefined;
      if (!power || s.seats.length) return {refused: t("Tap one of the signs your card lists.")};
      return {action: {do: "restore", power}};
    }
    if (main.do === "assign") {  // the steward: a building by its sign, and a drifter
      const building = s.mark ? main.buildings[s.mark - 1] : undefined;
      if (!building) return {refused: t("Tap one of the signs your card lists, and one name.")};
      const why = oneName();
      return why ? {refused: why} : {action: {do: "assign", building, target: name(v, first)}};
    }
    if (main.multi && !m.night) {  // the schoolteacher: one or two names at once
      const [lo, hi] = main.count;
      if (s.mark) return {refused: t("The signs do nothing for you now.")};
      if (s.seats.length < lo || s.seats.length > hi) {
        return {refused: t("Choose {lo} to {hi}", {lo, hi})};
      }
      const barred = s.seats.find((x) => !main.targets.includes(x));
      if (barred !== undefined) return {refused: t("You may not choose {name}.", {name: name(v, barred)})};
      return {action: {do: main.do, targets: s.seats.map((x) => name(v, x))}};
    }
    const why = (m.night ? noMark() : s.mark ? t("The signs do nothing for you now.") : null) || oneName();
    if (why) return {refused: why};
    if (main.multi) {  // one name a Confirm: the first is kept until the last
      const picks = partial.includes(first) ? partial.slice() : [...partial, first];
      if (picks.length < main.count[0]) return {decoy: true, partial: picks};
      return {action: {do: main.do, targets: picks.map((seat) => name(v, seat))}};
    }
    return {action: {do: main.do, target: name(v, first)}};
  }

  // what Confirm would send now: null while nothing is picked
  function ready(v) {
    const m = sync(v);
    if (!sel || !m || !m.open) return null;
    const s = sel;
    const text = s.pass ? N.verbs.pass : [...s.seats.map((seat) => name(v, seat)),
      s.mark ? MARKS[s.mark - 1] : null].filter((x) => x).join(" · ");
    const d = decide(v, m, s);
    return {summary: text, decision: d, pick: s};
  }

  // after Confirm: what was done (accepted or refused), for the panel and the card
  function confirmed(r, accepted) {
    if (r.decision.refused) {
      refused = r.decision.refused;
    } else if (accepted) {
      refused = "";
      sent = r.pick;
      if (r.decision.partial) partial = r.decision.partial;
      said = r.decision.action ? r.summary : said;
    }
    sel = null;
    redraw();
  }

  function tonight(v) {
    const m = sync(v);
    if (!m || !m.open) return [];
    const lines = [];
    const main = mainChoice(v);
    if (v.no_attack) lines.push(t("No attack tonight: the pack only meets."));
    if (!main && !canPass(v)) {
      if (!said) lines.push(t("Nothing for you in this call: tap anything, as everyone does."));
    } else if (main) {
      lines.push(t("Now: {ask}", {ask: N.asks[main.do] || N.verbs[main.do] || main.do}));
      const barred = living(v).filter((p) => main.targets && !main.targets.includes(p.seat)).map((p) => p.seat);
      if (main.do === "swap") {
        const centre = v.results.filter((r) => r.kind === "centre");
        const cards = centre.length ? centre[centre.length - 1].cards : [];
        main.cards.forEach((k, i) => lines.push(MARKS[i] + " " + (cards[k] ? roleName(cards[k]) : t("card {k}", {k: k + 1}))));
      } else if (main.do === "spy") {
        main.modes.forEach((mode, i) => lines.push(MARKS[i] + " " + t(SPY_MODES[mode] || mode)));
      } else if (main.do === "potion") {
        if (main.victim === null || main.victim === undefined) lines.push(t("Nobody was attacked tonight."));
        else lines.push(t("Tonight's victim: {name}.", {name: name(v, main.victim)}) +
          (main.heal ? "" : " " + t("The healing potion is used.")));
        if (main.heal) lines.push(MARKS[0] + " " + t("Heal {name}", {name: name(v, main.victim)}));
        if (main.targets.length) lines.push(t("A name: poison that player."));
      } else if (main.do === "pardon") {
        lines.push(MARKS[0] + " " + N.verbs.pardon);
      } else if (main.do === "restore") {
        main.powers.slice(0, MARKS.length).forEach((pw, i) => lines.push(MARKS[i] + " " + buildingName(pw)));
      } else if (main.do === "assign") {
        main.buildings.slice(0, MARKS.length).forEach((b, i) => lines.push(MARKS[i] + " " + buildingName(b)));
        lines.push(t("And one name: the drifter who gets it."));
      } else {
        const [lo, hi] = main.count || [1, 1];
        lines.push(lo === 1 && hi === 1 ? t("Tap one name.") : lo === hi ? t("Choose {n}", {n: lo}) : t("Choose {lo} to {hi}", {lo, hi}));
        if (partial.length) lines.push(names(v, partial) + " …");
      }
      if (barred.length && main.targets && !["swap", "spy", "restore", "pardon"].includes(main.do)) {
        lines.push(t("You may not choose: {names}.", {names: names(v, barred)}));
      }
    }
    if (canPass(v)) lines.push(main && main.do === "pardon" ? t("Pass: let it happen.") : t("Pass: do nothing now."));
    if (said) lines.push(t("Your choice: {summary}", {summary: said}));
    if (refused) lines.push(t("Not taken: {why}", {why: refused}));
    return lines;
  }

  return {moment, panel, ready, confirmed, tonight, cancel() { sel = null; redraw(); }};
}
