// A closed vote as its tally says it was made (contract C1): the table
// screen and the GM's tablet render it; neither counts. The numbers are the
// tally's `counts`, a voter's weight is his ballot's `weight` (the sheriff's
// ×2 in an execution vote), and votes no ballot cast are its `extra` entries
// (the rumormonger's poster, RULES.md §8) — never worked out here.
//
//   const {rows, abstained} = tallyRows(tally, name, words);
//   rows: [{seat, count, lead, who: ["Ann ×2", "Bob", "rumour ×2"]}], most votes first
//   abstained: ["Eve"]   (ballots with no target)
//
// name(seat) → the player's name; words = pageWords(...) (its N.sources names
// an extra entry's source, e.g. "poster").
"use strict";

function tallyRows(tally, name, words) {
  const times = (n) => (n > 1 ? " ×" + n : "");
  const who = {};
  const abstained = [];
  const add = (seat, text) => { (who[seat] = who[seat] || []).push(text); };
  for (const b of tally.ballots || []) {
    const text = name(b.voter) + times(b.weight);
    if (b.target === null || b.target === undefined) abstained.push(text);
    else add(b.target, text);
  }
  for (const x of tally.extra || []) add(x.target, words.pick(words.N.sources, x.source) + times(x.votes));
  const counts = tally.counts || {};
  const rows = Object.keys(counts).sort((a, b) => counts[b] - counts[a]).map((seat) => (
    {seat: +seat, count: counts[seat], lead: counts[seat] === tally.top, who: who[seat] || []}));
  return {rows, abstained};
}
