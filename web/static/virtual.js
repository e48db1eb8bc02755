// The virtual table [issue 7]: the simulated seat boxes (click = press the
// mock button, through the same path as a real press) with each LED's state,
// and the display's current frame. GM only; polls /api/hardware.
(function () {
  "use strict";
  const {t} = pageWords("names");  // words.js; el() and $() are dom.js's
  let frames = -1;
  let names = [];
  let built = 0;
  const refusedAt = {};  // seat -> when its LED last began three quick blinks (ms)
  // each LED state the hub names (/api/hardware), in words
  const LED_WORDS = {off: N_("off"), waiting: N_("waiting for you"), recorded: N_("vote recorded"),
    refused: N_("refused"), dark: N_("dark (night)"), speaking: N_("speaking")};

  function build(leds, simulated) {
    $("boxes").replaceChildren(...leds.map((box) => el("li", {class: "box", test: "box-" + box.seat},
      el("span", {class: "led", id: "led-" + box.seat, test: "led-" + box.seat}),
      el("span", {id: "label-" + box.seat}),
      el("span", {class: "who", id: "who-" + box.seat, test: "who-" + box.seat}),
      el("button", {type: "button", test: "press-" + box.seat, text: t("Seat {n}", {n: box.seat}),
        disabled: !simulated, onclick: () => press(box.seat)}))));
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
      const now = Date.now();
      for (const box of hw.leds) {
        const led = $("led-" + box.seat);
        // three quick blinks take 1.2 s; a refusal again before they end shows
        // steady ("refused-again"), never more than 3 flashes a second [issue 43]
        let shown = box.led;
        if (shown === "refused" && led.dataset.led !== "refused") {
          if (now - (refusedAt[box.seat] || 0) < 1500) shown = "refused-again";
          else refusedAt[box.seat] = now;
        }
        if (shown === "refused" && led.dataset.led === "refused-again") shown = "refused-again";
        if (led.dataset.led !== shown) led.dataset.led = shown;
        $("label-" + box.seat).textContent = t(LED_WORDS[box.led] || box.led);
        const who = $("who-" + box.seat);  // a long name ends in "…", whole in the title [issue 30]
        who.textContent = who.title = names[box.seat - 1] || "";
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
