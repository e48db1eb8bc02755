// The host's tablet in a narrated game [issue 20]: the table's public view
// (/api/public/stream: the phase, the line, the clock, which seats a phone
// opened, a lost phone's vote), the clock's controls (POST /api/host/timer,
// answered with the public view), the QR codes of the seats no phone has
// opened yet, and the voice's volume. It never asks for a card: the hub
// refuses the GM's secret routes while a narrated game runs, and gives no
// opened seat's code [issue 29]: a lost phone is the table's vote ("This
// phone is lost", POST /api/seats/<n>/lost). el() and $() are dom.js's.
(function () {
  "use strict";
  const words = pageWords("names");  // words.js
  const {t, stepText} = words;
  // what the clock's Next ends (companion/table/pacing.py SKIPPABLE)
  const OPEN = ["calls", "discussion", "ballot", "prompt", "last-words", "verdict"];
  let view = null;
  let offset = 0;  // hub clock − this tablet's clock
  let seatsKey = "";  // what the seat list was drawn from
  let seatList = [];  // GET /api/seats: names and the links the host may see

  async function post(url, body) {
    $("error").textContent = "";
    const r = await fetch(url, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const doc = await r.json().catch(() => ({}));
    if (!r.ok) { $("error").textContent = doc.error || r.statusText; return null; }
    return doc;
  }
  // a press names the stage it was made on (not "start": it only ever ends the deal) [issue 30 item 2]
  const clock = (action, seconds) => post("/api/host/timer", {do: action, seconds: seconds || 0,
    stage: action === "start" || !view || !view.pace ? undefined : view.pace.stage})
    .then((v) => v && render(v));

  const running = (v) => v.phase !== "lobby" && v.phase !== "over" && !!v.players;

  function render(v) {
    view = v;
    if (typeof v.now === "number") offset = v.now - Date.now() / 1000;
    $("phase").textContent = v.phase === "lobby" ? t("Waiting for a game") : stepText(v.step);
    $("line").textContent = v.line || "";
    overStory(v, $("host-story"), false);  // story.js: a tap turns the story's page [issue 35]
    // only what can be done now [issue 29]: the deal, Start; a paused clock,
    // Resume; a running one, Pause (something has a deadline), +30 s and Next
    // (something is open); at the end, nothing but "New game"
    const pace = v.pace || {};
    const paused = pace.paused !== null && pace.paused !== undefined;
    const live = running(v) && pace.mode !== "over";
    const deal = live && pace.mode === "deal";
    const timed = typeof pace.deadline === "number";
    const open = live && !deal && !paused && OPEN.includes(pace.mode);
    $("start").hidden = !deal;
    $("resume").hidden = !(live && !deal && paused);
    $("pause").hidden = !(open && timed);
    $("extend").hidden = !(open && timed);
    $("next").hidden = !open;
    next.stage(pace.stage);
    // a speaking turn: Next skips it [issue 34]
    $("next").textContent = pace.mode === "discussion" && pace.turns ? t("Skip this turn") : t("Next");
    lostPhone(v);
    tick();
    const key = [v.game, (v.opened || []).join(), v.lost_phone ? v.lost_phone.status + v.lost_phone.seat : ""].join("|");
    if (key !== seatsKey) {
      seatsKey = key;
      seats().catch(() => {});
    } else {
      drawSeats();
    }
  }

  function left(until) {
    return Math.max(0, Math.ceil(until - (Date.now() / 1000 + offset)));
  }

  function tick() {
    const pace = (view && view.pace) || {};
    if (pace.paused !== null && pace.paused !== undefined) {
      $("timer").textContent = t("paused");
    } else if (typeof pace.deadline === "number" && view.phase !== "over") {
      const s = left(pace.deadline);
      $("timer").textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    } else {
      $("timer").textContent = "";
    }
    const lost = view && view.lost_phone;
    const count = $("lost-left");
    if (lost && count) count.textContent = t("{s} s", {s: left(lost.until)});
  }

  // a lost phone's request, as the table screen shows it (public; shared.js)
  function lostPhone(v) {
    renderLost($("lost"), v.lost_phone, words, {
      ask: () => t("{name}'s phone is lost: the living vote on their phones.", {name: v.lost_phone.name}),
      countClass: null, countTest: "host-lost-count",
      decided: (lost) => [el("p", {class: "ask"},
        t("{name}'s new code is on the table screen: {name} scans it with the phone to play on.", {name: lost.name}))],
      end: () => [el("p", {class: "row"}, el("span", {id: "lost-left", class: "left"}),
        el("button", {type: "button", test: "host-lost-cancel",
          onclick: () => post("/api/lost/cancel", {})}, t("Withdraw")))]});
  }

  async function seats() {
    const r = await fetch("/api/seats", {credentials: "same-origin", cache: "no-store"});
    if (!r.ok) return;
    seatList = (await r.json()).seats || [];
    drawSeats();
  }

  // Each seat: a phone opened it (live, the public view's `opened`), or its
  // QR code while none has; a seat whose code the hub no longer shows says
  // where it is [issue 29]
  function drawSeats() {
    const v = view || {};
    const opened = v.opened || [];
    const lost = v.lost_phone;
    const live = running(v);
    $("seats").replaceChildren(...seatList.map((s) => {
      const isOpen = opened.length ? !!opened[s.seat] : s.claimed;
      const status = isOpen ? t("opened")
        : s.url ? t("not opened") : lost && lost.seat === s.seat ? t("Its new code is on the table screen.") : t("not opened");
      return el("li", {class: isOpen ? "claimed" : "", test: "host-seat-" + s.seat,
        "data-opened": isOpen ? "1" : "0"},
      el("div", {text: s.name}),
      !isOpen && s.url ? el("img", {alt: s.name, src: "/api/seats/" + s.seat + "/qr.svg?v=" +
          encodeURIComponent(s.url.slice(-8))}) : null,
      el("div", {class: "quiet", test: "host-seat-status-" + s.seat, text: status}),
      live && !lost && (isOpen || !s.url) ? el("button", {type: "button", class: "lost-button",
        test: "host-lost-" + s.seat, onclick: () => post("/api/seats/" + s.seat + "/lost", {})},
      t("This phone is lost")) : null);
    }));
  }

  $("start").addEventListener("click", () => clock("start"));
  $("pause").addEventListener("click", () => clock("pause"));
  $("resume").addEventListener("click", () => clock("resume"));
  $("extend").addEventListener("click", () => clock("extend", 30));
  // one press ends one thing: locked 600 ms after a press and a new stage [issue 43]
  const next = lockout($("next"), 600, () => clock("skip"));
  $("volume").addEventListener("change", () => post("/api/speech/volume",
    {volume: parseFloat($("volume").value)}));
  fetch("/api/speech?after=1000000000", {cache: "no-store"}).then((r) => r.json())
    .then((s) => { $("volume").value = s.volume; }).catch(() => {});
  follow("/api/public/stream", render, {state: "/api/public"});  // stream.js
  setInterval(tick, 1000);
})();
