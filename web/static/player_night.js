// The night's one screen [issue 28]: at arm's length every phone looks the
// same all night, whatever its card, in every call: the same line, the same
// three signs (①, ②, Pass), the same names (every living player, in seat
// order), the same "Confirm", the same word after it. What a tap means for
// this card now — whom the pack attacks, the witch's heal (①) and poison (a
// name), the thief's two cards (① ②), the little girl's spying (① ②), "no
// attack tonight" — is said only on the held card (`tonight`). A tap that
// means nothing for the card (the decoy, a call that is not its own) is
// posted to /suspect, which stores nothing, exactly as a real one is posted
// to /action; a tap the card may not make is not sent, and only the held
// card says why.
//
// One name is picked at a time on every phone; a card that names two (cupid's
// lovers, the piper's charms) names them one Confirm after the other.
//
//   const night = nightScreen(words, card);
//   night.panel(v)       // the panel's elements (the same on every phone)
//   night.ready(v)       // what Confirm would do: {summary, job} or null
//   night.tonight(v)     // the held card's lines for the call now
function nightScreen(words, card, redraw) {
  "use strict";
  const {N, t, stepText} = words;
  const {name, names, roleName} = card;
  const MARKS = ["①", "②"];

  let key = "";      // the call the state below belongs to
  let sel = null;    // {seat, mark (1|2), pass}: picked, before Confirm
  let sent = null;   // the same, as last confirmed in this call
  let partial = [];  // a two-name choice's first name(s), confirmed
  let refused = "";  // why the last Confirm was not taken (said on the card)
  let said = "";     // what the card's last accepted Confirm did ("Your choice: …")

  function sync(v) {
    const k = [v.n, (v.pace || {}).call].join("|");
    if (k !== key) {
      key = k;
      sel = sent = null;
      partial = [];
      refused = said = "";
    }
  }

  const living = (v) => v.players.filter((p) => p.alive);
  const mainChoice = (v) => v.actions.find((c) => c.do !== "pass");
  const canPass = (v) => v.actions.some((c) => c.do === "pass");

  let view = null;

  function tap(patch) {
    const base = sel || {seat: null, mark: null, pass: false};
    sel = Object.assign({}, base, patch);
    if (!sel.pass && sel.seat === null && !sel.mark) sel = null;
    redraw();
  }

  function panel(v) {
    view = v;
    sync(v);
    const call = (v.pace || {}).call;
    $("night-call").textContent = stepText("night " + v.n) +
      (call ? " · " + (N.steps[call] || call) : "");
    if (call === null || call === undefined) {
      return [el("p", {class: "status", test: "night-status"}, t("Dawn is coming."))];
    }
    const status = refused ? t("Not taken: hold your card to see why.")
      : sent ? t("Noted: you may change it until the call ends.")
        : t("Tap a name or a sign, then Confirm. Hold your card: it says what they do for you.");
    // the pick shows until Confirm; then nothing says what was tapped (the card does)
    const cls = (on) => "pick" + (on ? " chosen" : "");
    const marks = el("div", {class: "grid signs"},
      ...MARKS.map((m, i) => el("button", {type: "button", test: "mark-" + (i + 1),
        class: cls(sel && sel.mark === i + 1),
        onclick: () => tap({mark: sel && sel.mark === i + 1 ? null : i + 1, pass: false})}, m)),
      el("button", {type: "button", test: "night-pass", class: cls(sel && sel.pass),
        onclick: () => tap({seat: null, mark: null, pass: !(sel && sel.pass)})}, N.verbs.pass));
    const people = living(v);
    const grid = el("div", {class: "grid names" + (people.length > 12 ? " many" : "")},
      ...people.map((p) => el("button", {type: "button", test: "name-" + p.seat,
        class: cls(sel && sel.seat === p.seat),
        onclick: () => tap({seat: sel && sel.seat === p.seat ? null : p.seat, pass: false})},
      el("span", {class: "who", title: p.name}, p.name))));  // a long name ends in "…"
    return [el("p", {class: "status", test: "night-status"}, status), marks, grid];
  }

  // What Confirm does with the selection, for this card now: an action, a
  // decoy, or a refusal (its reason, for the held card)
  function decide(v, s) {
    const main = mainChoice(v);
    if (!v.actions.length) return {decoy: true};
    if (s.pass) return canPass(v) ? {action: {do: "pass"}} : {refused: t("You cannot pass now.")};
    const onlyMarks = () => (s.mark ? null : t("Tap ① or ②."));
    const noMark = () => (s.mark ? t("① and ② do nothing in this call.") : null);
    const target = () => {
      if (s.seat === null) return t("Tap one name.");
      return main.targets.includes(s.seat) ? null : t("You may not choose {name}.", {name: name(v, s.seat)});
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
      if (s.seat !== null && !main.targets.includes(s.seat)) {
        return {refused: t("You may not choose {name}.", {name: name(v, s.seat)})};
      }
      return {action: {do: "potion", heal: s.mark === 1, poison: s.seat === null ? null : name(v, s.seat)}};
    }
    const why = noMark() || target();
    if (why) return {refused: why};
    if (main.multi) {  // one name a Confirm: the first is kept until the last
      const picks = partial.includes(s.seat) ? partial.slice() : [...partial, s.seat];
      if (picks.length < main.count[0]) return {decoy: true, partial: picks};
      return {action: {do: main.do, targets: picks.map((seat) => name(v, seat))}};
    }
    return {action: {do: main.do, target: name(v, s.seat)}};
  }

  // what Confirm would send now: null while nothing is picked
  function ready(v) {
    view = v;
    sync(v);
    if (!sel || !v.pace || !v.pace.call) return null;
    const s = sel;
    const text = s.pass ? N.verbs.pass : [s.seat === null ? null : name(v, s.seat),
      s.mark ? MARKS[s.mark - 1] : null].filter((x) => x).join(" · ");
    const d = decide(v, s);
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
    view = v;
    sync(v);
    if (!v.pace || v.pace.mode !== "calls" || !v.pace.call) return [];
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
        main.modes.forEach((m, i) => lines.push(MARKS[i] + " " + t(m)));
      } else if (main.do === "potion") {
        if (main.victim === null || main.victim === undefined) lines.push(t("Nobody was attacked tonight."));
        else lines.push(t("Tonight's victim: {name}.", {name: name(v, main.victim)}) +
          (main.heal ? "" : " " + t("The healing potion is used.")));
        if (main.heal) lines.push(MARKS[0] + " " + t("Heal {name}", {name: name(v, main.victim)}));
        if (main.targets.length) lines.push(t("A name: poison that player."));
      } else {
        const [lo, hi] = main.count || [1, 1];
        lines.push(lo === 1 && hi === 1 ? t("Tap one name.") : lo === hi ? t("Choose {n}", {n: lo}) : t("Choose {lo} to {hi}", {lo, hi}));
        if (partial.length) lines.push(names(v, partial) + " …");
      }
      if (barred.length && main.targets && main.do !== "swap" && main.do !== "spy") {
        lines.push(t("You may not choose: {names}.", {names: names(v, barred)}));
      }
    }
    if (canPass(v)) lines.push(t("Pass: do nothing now."));
    if (said) lines.push(t("Your choice: {summary}", {summary: said}));
    if (refused) lines.push(t("Not taken: {why}", {why: refused}));
    return lines;
  }

  return {panel, ready, confirmed, tonight, cancel() { sel = null; redraw(); }};
}
