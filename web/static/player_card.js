// A seat's card [issue 6, issue 28]: its back until held; held, it fills the
// screen with all that only its holder may read — the card and its side, its
// profession (The Village), what a tap does in the call now (`tonight`, given
// by the night screen), what the role knows (the pack and its picks, the
// lover, the other freemason, the charmed), the cards it was shown and its
// private results. The open page never shows any of it: a glance at a
// neighbour's phone sees the same back on every phone. A hold shows it while
// held; a tap (a screen reader's double-tap) until the next tap [issue 43].
//
//   const card = phoneCard(words, () => view, () => tonightLines);
//   card.refresh();  // the view or the night changed: a card held shows it
//   card.names(v)    // the helpers the page shares (a seat's name...)
function phoneCard(words, getView, getTonight) {
  "use strict";
  const {N, t, stepText} = words;
  const roleName = (id) => N.roles[id] || id;
  const teamName = (id) => N.teams[id] || id;
  const name = (v, seat) => (v.players[seat] ? v.players[seat].name : String(seat));
  const names = (v, seats) => seats.map((s) => name(v, s)).join(", ") || t("Nobody");

  // A card the table knows (shown to all: the game is over, a dead player's
  // card with "reveal on death", the idiot voted out and revealed)
  function publicRole(v, p) {
    if (!p.role) return false;
    if (v.phase === "over") return true;
    if (!p.alive) return !!(v.options && v.options.reveal_on_death);
    return p.role === "village-idiot" && !p.can_vote && !((v.village && v.village.silenced) || []).includes(p.seat);
  }
  // the cards this seat was shown and the table was not (his pack, the other
  // freemason, the seer's looks) [issue 18 item 4]
  const knownCards = (v) => v.players.filter((p) => p.seat !== v.seat && p.role && !publicRole(v, p))
    .map((p) => p.name + " — " + roleName(p.role));

  // The Village (RULES.md §8): his profession, building, power and its state
  function professionText(p) {
    if (!p) return "";
    const parts = [N.professions[p.id] || p.id];
    parts.push(p.building ? t("Your building: {building}", {building: N.buildings[p.building] || p.building})
      : t("You have no building."));
    if (N.prof_powers[p.id]) parts.push(N.prof_powers[p.id]);
    if (p.power) parts.push(t("Power: {state}", {state: N.prof_states[p.power] || p.power}));
    return parts.join(" · ");
  }

  // what the role knows (his pack and its picks, lover, fellow freemason, the charmed)
  function knowsLines(v) {
    const k = v.knows || {};
    const rows = [];
    const others = (seats) => seats.filter((s) => s !== v.seat);
    if (k.pack) rows.push(t("Your pack") + ": " + names(v, others(k.pack)));
    if (v.pack_picks && Object.keys(v.pack_picks).length) {
      rows.push(t("The pack's picks") + ": " + Object.entries(v.pack_picks)
        .map(([w, target]) => name(v, +w) + " → " + name(v, target)).join(", "));
    }
    if (k.lover) rows.push(t("Your lover") + ": " + names(v, k.lover));
    if (k.freemasons) rows.push(t("The other freemason") + ": " + names(v, others(k.freemasons)));
    if (k.charmed) rows.push(t("Charmed") + ": " + names(v, k.charmed));
    return rows;
  }

  function resultText(v, r) {
    if (r.kind === "inspect" || r.kind === "medium") {
      if (r.result === "wolf" || r.result === "human") {  // the seer_sees "team" option
        const seen = r.result === "wolf" ? N_("{name} is a werewolf.") : N_("{name} is not a werewolf.");
        return t(seen, {name: name(v, r.target)});
      }
      return t("{name}'s card: {role}.", {name: name(v, r.target), role: roleName(r.result)});
    }
    if (r.kind === "spy") {
      if (r.outcome === "wolf") return t("You saw a werewolf: {name}.", {name: name(v, r.wolf)});
      if (r.outcome === "caught") return t("You were caught!");
      return t("You saw nothing.");
    }
    if (r.kind === "lover") return t("You are in love with {name}.", {name: name(v, r.partner)});
    if (r.kind === "victim") {
      return r.victim === null || r.victim === undefined ? t("Nobody was attacked tonight.")
        : t("Tonight's victim: {name}.", {name: name(v, r.victim)});
    }
    if (r.kind === "confess") return t("{name}'s card: {role}.", {name: name(v, r.target), role: roleName(r.result)});
    if (r.kind === "baker") {  // a roll each night: a werewolf, or nobody (wolf null)
      return r.wolf === null || r.wolf === undefined ? t("The bakery found no werewolf.")
        : t("The bakery found a werewolf: {name}.", {name: name(v, r.wolf)});
    }
    if (r.kind === "ally") {  // New Moon's wolves' ally (RULES.md §10) [issue 33]
      return t("The werewolves: {names}. You keep your card and win only if they win.", {names: names(v, r.wolves)});
    }
    if (r.kind === "centre") return t("The centre cards: {cards}.", {cards: r.cards.map(roleName).join(", ")});
    return r.kind;
  }
  // whose result it is: the role or profession the template names for its kind
  const resultTitle = (r) => (N.results && N.results[r.kind]) || r.kind;

  const card = $("card");
  const PARTS = ["role", "team", "power", "profession", "tonight", "knows-held", "cards", "results"];
  let timer = 0;

  function fill() {
    const v = getView();
    if (!v) return;
    $("role").textContent = roleName(v.role);
    $("team").textContent = teamName(v.team);
    $("power").textContent = N.powers[v.role] || "";
    $("profession").textContent = professionText(v.profession);
    $("tonight").replaceChildren(...getTonight().map((line) => el("span", {class: "line"}, line)));
    const knows = knowsLines(v);
    $("knows-held").replaceChildren(...(knows.length ? [el("b", {}, t("What you know")), ...knows.map(
      (line) => el("span", {class: "line"}, line))] : []));
    const known = knownCards(v);
    $("cards").textContent = known.length ? t("Cards you know: {cards}", {cards: known.join(", ")}) : "";
    const results = v.results.slice().reverse();  // the newest first
    $("results").replaceChildren(...(results.length ? [el("b", {}, t("Your results")), ...results.map(
      (r) => el("span", {class: "line", test: "result"}, stepText(r.time) + " · " + resultTitle(r) + " — " + resultText(v, r)))] : []));
    fit();
  }
  // All of it on the screen [issue 30]: names run to 40 characters, and an
  // 18-player wolf's card lists his pack twice and those he may not name; its
  // text shrinks (--k, player.css; never under .6) until the card holds it whole
  function fit() {
    if (!card.classList.contains("shown")) return;
    card.style.setProperty("--k", "1");
    for (let k = 19; k >= 12 && card.scrollHeight > card.clientHeight + 1; k--) {
      card.style.setProperty("--k", String(k / 20));
    }
  }
  addEventListener("resize", fit);

  // A tap opens the card as a hold does [issue 43]: TalkBack's and
  // VoiceOver's double-tap sends a click (or a quick touch), never a hold. A
  // hold closes when let go; a tap leaves it open until the next tap, or
  // TAP_S seconds, or the page or the focus goes. Its text is in the page
  // (and the accessibility tree, in no live region) only while it is open.
  const HOLD_MS = 300;  // a press this long is a hold
  const HOLD_S = 5;     // a hold shows it this long at most
  const TAP_S = 8;      // a tap, this long at most
  let pressed = 0;      // when the press now began (-1: a press that closed it)
  let pressEnd = -1e9;  // when the last press ended (its own click is no second tap)
  function show(seconds) {
    if (!getView()) return;
    card.classList.add("shown");
    card.setAttribute("aria-expanded", "true");
    fill();
    clearTimeout(timer);
    timer = setTimeout(hide, seconds * 1000);
  }
  function hide() {
    clearTimeout(timer);
    pressed = 0;
    card.classList.remove("shown");
    card.setAttribute("aria-expanded", "false");
    for (const id of PARTS) $(id).replaceChildren();
  }
  const open = () => card.classList.contains("shown");
  function press(ev) {
    if (pressed) return;  // (touchstart and pointerdown: one press; a key's repeats)
    if (ev.cancelable && ev.type !== "touchstart") ev.preventDefault();
    if (open()) { hide(); pressed = -1; return; }  // the next tap closes it
    pressed = ev.timeStamp || 1;  // (the event's own time: a page's fake clock never stops it)
    show(HOLD_S);
  }
  function release(ev) {
    if (!pressed) return;
    const held = pressed > 0 && ev.timeStamp - pressed >= HOLD_MS;
    const cut = /cancel|leave/.test(ev.type);  // a press cut short is no tap
    pressed = 0;
    pressEnd = ev.timeStamp;
    if (held || cut) hide();
    else if (open()) show(TAP_S);  // a tap: it stays open
  }
  card.addEventListener("pointerdown", press);
  card.addEventListener("touchstart", press, {passive: true});
  for (const ev of ["pointerup", "pointercancel", "pointerleave", "touchend", "touchcancel"]) {
    card.addEventListener(ev, release);
  }
  // a screen reader's activation: a click with no press of its own
  card.addEventListener("click", (ev) => {
    if (pressed || ev.timeStamp - pressEnd < 700) return;
    if (open()) hide(); else show(TAP_S);
  });
  card.addEventListener("blur", hide);
  card.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") press(e); });
  card.addEventListener("keyup", (e) => { if (e.key === " " || e.key === "Enter") release(e); });
  card.addEventListener("contextmenu", (e) => e.preventDefault());
  document.addEventListener("visibilitychange", hide);

  return {
    refresh() { if (card.classList.contains("shown")) fill(); },
    publicRole, roleName, teamName, name, names,
  };
}
