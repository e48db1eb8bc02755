// The host's tablet in a narrated game [issue 20]: the table's public view
// (/api/public/stream: the phase, the line, the clock), the clock's controls
// (POST /api/host/timer, answered with the public view), the seats' links as
// QR codes and the voice's volume. It never asks for a card: the hub refuses
// the GM's secret routes while a narrated game runs. el() and $() are dom.js's.
(function () {
  "use strict";
  const {t, stepText} = pageWords("names");  // words.js
  let view = null;
  let offset = 0;  // hub clock − this tablet's clock

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

  function render(v) {
    view = v;
    if (typeof v.now === "number") offset = v.now - Date.now() / 1000;
    $("phase").textContent = v.phase === "lobby" ? t("Waiting for a game") : stepText(v.step);
    $("line").textContent = v.line || "";
    const pace = v.pace || {};
    const paused = pace.paused !== null && pace.paused !== undefined;
    $("start").hidden = pace.mode !== "deal";  // the night waits for it [issue 28]
    $("pause").disabled = paused || v.phase === "over";
    $("resume").disabled = !paused;
    tick();
    seats().catch(() => {});
  }

  function tick() {
    const pace = (view && view.pace) || {};
    if (pace.paused !== null && pace.paused !== undefined) {
      $("timer").textContent = t("paused");
    } else if (typeof pace.deadline === "number") {
      const left = Math.max(0, Math.round(pace.deadline - (Date.now() / 1000 + offset)));
      $("timer").textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    } else {
      $("timer").textContent = "";
    }
  }

  async function seats() {
    const r = await fetch("/api/seats", {credentials: "same-origin", cache: "no-store"});
    if (!r.ok) return;
    const list = (await r.json()).seats || [];
    $("seats").replaceChildren(...list.map((s) => el("li", {class: s.claimed ? "claimed" : "",
      test: "host-seat-" + s.seat},
      el("div", {text: s.name}),
      el("img", {alt: s.name, src: "/api/seats/" + s.seat + "/qr.svg?v=" +
        encodeURIComponent(s.url.slice(-8))}),
      el("div", {class: "quiet", text: s.claimed ? t("opened") : t("not opened")}))));
  }

  $("start").addEventListener("click", () => clock("start"));
  $("pause").addEventListener("click", () => clock("pause"));
  $("resume").addEventListener("click", () => clock("resume"));
  $("extend").addEventListener("click", () => clock("extend", 30));
  $("next").addEventListener("click", () => clock("skip"));
  $("volume").addEventListener("change", () => post("/api/speech/volume",
    {volume: parseFloat($("volume").value)}));
  fetch("/api/speech?after=1000000000", {cache: "no-store"}).then((r) => r.json())
    .then((s) => { $("volume").value = s.volume; }).catch(() => {});
  follow("/api/public/stream", render, {state: "/api/public"});  // stream.js
  setInterval(tick, 1000);
})();
