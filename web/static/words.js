// A page's words: its translated messages (#i18n) and its names (roles,
// teams … in #names), both rendered by the template in the page's language
// (docs/pages.md) — never a string table in JavaScript.
//
//   const {T, N, t, pick} = pageWords("names");
//   t("{name} is dead", {name: "Ann"})
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
  return {T, N, t, pick};
}
