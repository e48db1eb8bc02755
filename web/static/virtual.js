// The virtual table [issue 7]: the simulated seat boxes (click = press the
// mock button, through the same path as a real press) with each LED's state,
// and the display's current frame. GM only; polls /api/hardware.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const {t} = pageWords("names");  // words.js
  let frames = -1;
  let names = [];
  let built = 0;

  function build(leds, simulated) {
    const list = $("boxes");
    list.textContent = "";
    for (const box of leds) {
      const li = document.createElement("li");
      li.className = "box";
      li.dataset.test = "box-" + box.seat;
      const led = document.createElement("span");
      led.className = "led";
      led.id = "led-" + box.seat;
      led.dataset.test = "led-" + box.seat;
      const label = document.createElement("span");
      label.id = "label-" + box.seat;
      const who = document.createElement("span");
      who.className = "who";
      who.id = "who-" + box.seat;
      who.dataset.test = "who-" + box.seat;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = t("Seat {n}", {n: box.seat});
      button.dataset.test = "press-" + box.seat;
      button.disabled = !simulated;
      button.addEventListener("click", () => press(box.seat));
      li.append(led, label, who, button);
      list.append(li);
    }
    built = leds.length;
  }

  async function press(seat) {
    await fetch("/api/hardware/press", {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({seat: seat})});
    poll();
  }

  async function poll() {
    try {
      const r = await fetch("/api/hardware", {credentials: "same-origin", cache: "no-store"});
      if (!r.ok) return;
      const hw = await r.json();
      $("real").hidden = !!hw.simulated;
      $("about").hidden = !hw.simulated;
      if (built !== hw.leds.length) build(hw.leds, !!hw.simulated);
      for (const box of hw.leds) {
        const led = $("led-" + box.seat);
        if (led.dataset.led !== box.led) led.dataset.led = box.led;
        $("label-" + box.seat).textContent = t(box.led);
        $("who-" + box.seat).textContent = names[box.seat - 1] || "";
      }
      if (hw.frames !== frames) {
        frames = hw.frames;
        $("display").src = "/api/display.png?frame=" + frames;
        $("display").dataset.frame = String(frames);
      }
    } catch (err) { /* the hub restarting: try again */ }
  }

  async function players() {
    try {
      const r = await fetch("/api/public", {cache: "no-store"});
      if (r.ok) names = ((await r.json()).players || []).map((p) => p.name);
    } catch (err) { /* next time */ }
  }

  players();
  poll();
  setInterval(poll, 250);
  setInterval(players, 2000);
})();
