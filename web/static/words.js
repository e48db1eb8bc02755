// A page's words: its translated messages (#i18n) and its names (roles,
// teams … in #names), both rendered by the hub in the page's language
// (docs/pages.md) — never a string table in JavaScript. The msgids are the
// scripts' own: Babel's JavaScript extraction finds every `t("…")`, `tn("…")`
// and `N_("…")` (babel.cfg), and the hub renders each page the translations
// of exactly the msgids its scripts use (_head.html `scripts`) [issue 45].
//
//   const {T, N, t, pick, stepText} = pageWords("names");
//   t("{name} is dead", {name: "Ann"})      // → "Ann is dead", in the page's language
//   tn("{name} is dead", {name: nameTag("Ann")})  // → [<span>Ann</span>, " is dead"]
//   const msg = won ? N_("You won!") : N_("You lost."); t(msg)  // a msgid chosen first
//   stepText("day 1 runoff 1")   // "Day 1 · runoff 1", in the page's language
//
// The extraction reads a call's first argument only when it is one string
// (a condition's strings would be taken for it, and no call inside another
// t()'s arguments is read): a msgid chosen by a condition is marked with N_
// before the call, a message inside another's is translated before it
// (tests/hub/test_i18n_js.py).

// the prompts a death at night opens, answered at dawn
const DAWN_STEPS = ["hunter", "appoint", "allow", "last words"];

// a msgid for the extraction, kept as it is (t() translates it where it is shown)
const N_ = (msgid) => msgid;

function pageWords(namesId) {
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  const T = read("i18n");
  const N = read(namesId);
  function t(msg, args) {
    let s = Object.prototype.hasOwnProperty.call(T, msg) ? T[msg] : msg;
    for (const k in args || {}) s = s.split("{" + k + "}").join(String(args[k]));
    return s;
  }
  const pick = (table, key) => (table && table[key]) || key;
  // t() whose arguments may be nodes (a name in its dom.js nameTag [issue
  // 30]): the message as a list of strings and nodes, for el()
  function tn(msg, args) {
    let parts = [t(msg)];
    for (const [k, v] of Object.entries(args || {})) {
      parts = parts.flatMap((p) => (typeof p !== "string" ? [p] : p.split("{" + k + "}")
        .flatMap((s, i) => (i ? [v instanceof Node ? v.cloneNode(true) : String(v), s] : [s]))));
    }
    return parts.filter((p) => p !== "");
  }

  // a public step as the views name it ("night 2", "day 1 runoff 1", "last
  // words", "over") in words; a step the names do not know shows as it is
  function stepText(step) {
    if (!step) return "";
    if (step === "over") return t("Game over");
    const m = /^(night|day) (\d+)(?: (.*))?$/.exec(step);
    if (!m && step === "last words") return t("Last words");
    if (!m) return pick(N.steps, step);
    // a death's prompt at dawn ("night 2 hunter") is said in the morning: day 2 [issue 18 item 6]
    const dawn = m[1] === "night" && DAWN_STEPS.includes(m[3]);
    const when = m[1] === "night" && !dawn ? t("Night {n}", {n: m[2]}) : t("Day {n}", {n: m[2]});
    if (!m[3]) return when;
    const run = /^runoff (\d+)$/.exec(m[3]);
    return when + " · " + (run ? pick(N.steps, "runoff") + " " + run[1] : pick(N.steps, m[3]));
  }
  return {T, N, t, tn, pick, stepText};
}

// New Moon's event card of a view (`view.event`: card, source, title/text of
// a text-only card by language) as words: {title, text, source, own} in the
// page's language (N.events / N.event_texts; a text-only card in its own
// words, the page's language if it was given in it, else its first) [issue 33]
function eventCardWords(ev, N) {
  if (!ev) return null;
  const own = ev.source === "text";
  if (!own) {
    return {title: (N.events || {})[ev.card] || ev.card, text: (N.event_texts || {})[ev.card] || "",
      source: ev.source, own};
  }
  const lang = (document.documentElement.lang || "en").replace("-", "_");
  const titles = ev.title || {};
  const key = lang in titles ? lang : Object.keys(titles)[0];
  return {title: titles[key] || "", text: (ev.text || {})[key] || "", source: ev.source, own};
}
