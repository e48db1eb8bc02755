// The GM tablet's history [issue 6]: past games, one step at a time (the GM
// view of a game after its first K actions), and each player's results
// across finished games.
(function () {
  "use strict";
  const { N, t, pick, api, guard, S, roleName, teamName, stepName, winText, describe, actionOfEvent } = GM;  // gm_state.js

  async function loadHistory() {
    const [games, stats] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/stats")]);
    const box = $("games");
    box.replaceChildren(...games.games.map((g) => el("li", {},
      el("button", { type: "button", class: "game" + (S.history.game === g.id ? " on" : ""),
        test: "game-" + g.id, onclick: guard(() => openReplay(g.id, null, g.winner !== null)) },
        el("strong", { text: "#" + g.id + " " }),
        el("span", { text: pick(N.rulesets, g.ruleset) + " · " + t("{n} players", { n: (g.players || []).length }) }),
        el("br"),
        el("span", { class: "quiet", text: new Date(g.created * 1000).toLocaleString() + " · "
          + (g.winner ? winText(g.winner) : t("running")) })))));
    renderStats(stats);
    await loadSeason();
  }

  // a season [issue 35]: each player's results over a chosen period, the
  // table's record, and the CSV to take away (GET /api/season[.csv])
  async function loadSeason() {
    let box = $("season");
    if (!box) {
      box = el("div", { id: "season", class: "season", test: "season" });
      $("stats").before(box);
    }
    const from = box.querySelector("[data-test=season-from]");
    const to = box.querySelector("[data-test=season-to]");
    const period = new URLSearchParams();
    if (from && from.value) period.set("from", from.value);
    if (to && to.value) period.set("to", to.value);
    const season = await api("GET", "/api/season?" + period + "&lang=" + storyLang());
    const w = season.words;
    const sides = Object.entries(season.sides).map(([side, n]) => winText(side) + " " + n).join(", ");
    const input = (test, value) => el("input", { type: "date", test, value: value || "",
      onchange: guard(loadSeason) });
    box.replaceChildren(el("h3", {}, w.title),
      el("label", {}, w.from + " ", input("season-from", season.from)), " ",
      el("label", {}, w.to + " ", input("season-to", season.to)), " ",
      el("a", { href: "/api/season.csv?" + period, download: "werewolf-season.csv", test: "season-csv" }, w.csv),
      el("p", { test: "season-record" }, w.record.replace("{games}", String(season.games))
        + (sides ? " " + sides : "")));
    renderStats(season.players);
  }

  function renderStats(stats) {
    const body = $("stats").querySelector("tbody");
    const rows = Object.entries(stats).sort((a, b) => b[1].won - a[1].won || a[0].localeCompare(b[0]));
    const pairs = (obj, name) => Object.entries(obj).map(([k, [p, w]]) => name(k) + " " + w + "/" + p).join(", ");
    body.replaceChildren(...rows.map(([name, s]) => el("tr", {},
      el("td", { text: name }), el("td", { text: String(s.played) }),
      el("td", { text: s.won + " (" + Math.round(100 * s.won / Math.max(1, s.played)) + "%)" }),
      el("td", { text: pairs(s.sides, teamName) }), el("td", { text: pairs(s.roles, roleName) }))));
  }

  async function openReplay(game, at, over) {
    const url = "/api/games/" + game + "/view" + (at === null ? "" : "?at=" + at);
    const view = await api("GET", url);
    S.history = { game, at: view.at, total: view.total, over: over !== undefined ? over : S.history.over, view };
    for (const b of document.querySelectorAll("#games .game")) {
      b.classList.toggle("on", b.dataset.test === "game-" + game);
    }
    renderReplay();
  }

  function renderReplay() {
    const h = S.history;
    const v = h.view;
    if (!v) return;
    $("replay-title").textContent = "#" + h.game;
    $("replay-at").max = String(h.total);
    $("replay-at").value = String(h.at);
    $("replay-pos").textContent = t("Action {k} of {n}", { k: h.at, n: h.total });
    $("step-back").disabled = h.at <= 0;
    $("step-forward").disabled = h.at >= h.total;
    const names = v.players.map((p) => p.name);
    const seatName = (s) => (s === null || s === undefined ? t("Nobody") : names[s]);
    const show = S.secrets || h.over;
    if (v.action) {
      $("replay-action").textContent = show || !v.phase.startsWith("night")
        ? describe(actionOfEvent(v.action, seatName)) : "#" + h.at;
    } else $("replay-action").textContent = "";
    $("replay-step").textContent = v.phase === "over" ? stepName("over") : GM.dayOrNight(v);
    $("replay-players").replaceChildren(...v.players.map((p) => el("li", {
      class: "player" + (p.alive ? "" : " dead") },
      el("span", { class: "seatno", text: String(p.seat + 1) }),
      el("span", { class: "pname", text: p.name, title: p.name }),  // the game's seats (gm.css)
      p.sheriff ? el("span", { class: "star", text: "★", title: t("sheriff") }) : null,
      show ? el("span", { class: "pinfo" },
        el("span", { class: "role", text: roleName(p.role), title: roleName(p.role) })) : null)));
    $("replay-news").replaceChildren(...(v.news || []).map((text) => el("li", {}, text)).reverse());  // [issue 45]
    let told = $("replay-story");  // the story of the game [issue 35] (story.js)
    if (!told) {
      told = el("div", { id: "replay-story", class: "story-box", test: "replay-story" });
      $("replay-news").after(told);
    }
    historyStory(h.game, told, show);
  }
  $("step-back").addEventListener("click", guard(() => {
    if (S.history.game !== null && S.history.at > 0) return openReplay(S.history.game, S.history.at - 1);
  }));
  $("step-forward").addEventListener("click", guard(() => {
    const h = S.history;
    if (h.game !== null && h.at < h.total) return openReplay(h.game, h.at + 1);
  }));
  $("replay-at").addEventListener("change", guard(() => {
    if (S.history.game !== null) return openReplay(S.history.game, parseInt($("replay-at").value, 10));
  }));

  GM.screen("history", {
    shown: () => loadHistory().catch(GM.showError),
    secrets: () => { if (S.history.view) renderReplay(); },
  });
})();
