// A closed vote as its tally says it was made (contract C1): the table
// screen and the GM's tablet render it; neither counts. The numbers are the
// tally's `counts`, a voter's weight is his ballot's `weight` (the sheriff's
// ×2 in an execution vote), and votes no ballot cast are its `extra` entries
// (the rumormonger's poster, RULES.md §8) — never worked out here.
//
//   const {rows, abstained} = tallyRows(tally, name, words);
//   rows: [{seat, count, lead, who: ["Ann ×2", "Bob", "rumour ×2"],
//           by: [["Ann", " ×2"], ["Bob", ""], ["rumour", " ×2"]]}], most votes first
//         (`by`: each of `who` as its name and its weight, for a page that
//         cuts a long name but never the ×2 [issue 30])
//   abstained: ["Eve"]   (ballots with no target; abstainedBy: [["Eve", ""]])
//
//   tallyVoters(row.by): those names as nodes, each in its nameTag, the ×2 never cut
//
// name(seat) → the player's name; words = pageWords(...) (its N.sources names
// an extra entry's source, e.g. "poster").
"use strict";

function tallyRows(tally, name, words) {
  const times = (n) => (n > 1 ? " ×" + n : "");
  const by = {};
  const abstainedBy = [];
  const add = (seat, label, n) => { (by[seat] = by[seat] || []).push([label, times(n)]); };
  for (const b of tally.ballots || []) {
    if (b.target === null || b.target === undefined) abstainedBy.push([name(b.voter), times(b.weight)]);
    else add(b.target, name(b.voter), b.weight);
  }
  for (const x of tally.extra || []) add(x.target, words.pick(words.N.sources, x.source), x.votes);
  const text = (pairs) => pairs.map(([label, w]) => label + w);
  const counts = tally.counts || {};
  const rows = Object.keys(counts).sort((a, b) => counts[b] - counts[a]).map((seat) => (
    {seat: +seat, count: counts[seat], lead: counts[seat] === tally.top,
      who: text(by[seat] || []), by: by[seat] || []}));
  return {rows, abstained: text(abstainedBy), abstainedBy};
}

// A row's voters (its `by`, or `abstainedBy`) as nodes for el(): each name
// in its nameTag (dom.js), cut when long, never its ×2 [issue 30]
function tallyVoters(by) {
  return by.flatMap(([label, w], i) => [i ? ", " : "", nameTag(label), w]);
}
