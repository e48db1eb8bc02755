// What several pages render alike [issue 45]: the event card of the day
// (table screen, phone, GM tablet) and a lost phone's vote (table screen,
// phone, host tablet). Each page passes its own differences as parameters;
// none works out when or what to show: the view says it (`event.moment`,
// `lost_phone`). el(), nameTag() are dom.js's; eventCardWords() words.js's;
// the tally's rows are tally.js's.
"use strict";

// New Moon's card (RULES.md §10) [issue 33] in the page's `box`, while the
// view's `event.moment` says it shows: "day" from dawn, "vote" while the
// day's execution vote is open (companion/table/audiences.py). A page that
// gives the ballots its room passes {atVote: false} (the table screen).
//
//   renderEvent($("event"), v, words, {atVote: false})   // words: pageWords()
//   renderEvent(box, v, words, {line: true, byHand: "Apply it by hand."})
//
// line: the GM's one line (its mark, title, text unless `said`, and `byHand`
// for the group's own); else the card's block (eventCardNodes).
function renderEvent(box, v, words, opts) {
  const o = opts || {};
  const ev = v.event;
  const moment = ev ? ev.moment : null;
  const show = !o.off && (moment === "day" || (moment === "vote" && o.atVote !== false));
  box.hidden = !show;
  if (!show) { box.replaceChildren(); return null; }
  const w = eventCardWords(ev, words.N);  // words.js
  const moon = w.source === "[003]";
  box.classList.toggle("moon", moon);
  if (!o.line) {
    box.replaceChildren(...eventCardNodes(w, words.t));
    return w;
  }
  box.replaceChildren(el("span", {class: "tag" + (moon ? " moon" : ""), text: eventMark(w, words.t)}), " ",
    el("strong", {test: "event-title", text: w.title}), " ",
    ...(o.said ? [] : [el("span", {class: "text", text: w.text})]),
    ...(w.own ? [el("strong", {class: "by-hand", test: "by-hand", text: " " + o.byHand})] : []));
  return w;
}

// The card's mark in the page's words (`t`: pageWords's): New Moon's, a house
// event, or the group's own
function eventMark(w, t) {
  return w.source === "[003]" ? t("New Moon [003]") : w.source === "house" ? t("House event") : t("Event card");
}

// The card as the table screen and the phones show it: its mark, title and
// text, and "by hand" for the group's own
function eventCardNodes(w, t) {
  return [el("p", {class: "mark"}, eventMark(w, t)),
    el("h2", {class: "title", test: "event-title"}, w.title),
    el("p", {class: "text", test: "event-text"}, w.text),
    ...(w.own ? [el("p", {class: "by-hand"}, t("The game master applies this card by hand."))] : [])];
}

// A lost phone [issue 29] (the view's `lost_phone`, public) in the page's
// `box`: hidden without one; at the vote, the page's question about the seat
// (`ask(who)`: its words, `who` the name's tag) and the count, then what the page adds (`voting`: the phone's answers);
// once the vote is won, what the page says of the new code (`decided`);
// `end`: what follows either (the host's Withdraw).
//
//   renderLost($("lost"), v.lost_phone, words, {ask: (who) => tn("{name}'s phone is lost: …", {name: who}),
//     head: "h2", how: "…", countClass: "count", voting: (lost) => [...],
//     decided: (lost, who) => [...], end: (lost) => [...]})
//
// head: the question's element ("p" with class "ask" unless given); how: a
// line under it; countClass, countTest: the count's class ("count") and test
// hook ("lost-count").
function renderLost(box, lost, words, page) {
  box.hidden = !lost;
  if (!lost) { box.replaceChildren(); return; }
  const who = nameTag(lost.name);
  const kids = lost.status !== "vote" ? page.decided(lost, who) : [
    el(page.head || "p", {class: page.head ? null : "ask"}, page.ask(who)),
    page.how ? el("p", {class: "how"}, page.how) : null,
    el("p", {class: page.countClass === undefined ? "count" : page.countClass, test: page.countTest || "lost-count"},
      words.t("Yes {yes} · No {no} · {needed} yes needed",
        {yes: lost.yes.length, no: lost.no.length, needed: lost.needed})),
    ...(page.voting ? page.voting(lost) : [])];
  box.replaceChildren(...kids.filter(Boolean), ...(page.end ? page.end(lost) : []));
}
