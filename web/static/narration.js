// The table screen speaks in a narrated game [issue 20]: it reads the
// narration's timeline (/api/speech?after=N, public: what the table screen
// shows, said aloud) and plays each utterance's audio in order, one after
// the other, at the host's volume. Browsers play sound only after a tap, as
// for the night sound: one tap on the voice button. The night's masking
// sound (table.js) goes on under the voice. el() and $() are dom.js's.
(function () {
  "use strict";
  const queue = [];
  let after = -1;
  let game = null;
  let on = false;
  let playing = false;
  let volume = 1;
  let offset = 0;  // the hub's clock − this screen's
  const BACKLOG_S = 30;  // switched on late: what was said in the last 30 s, then on
  // a faster voice for an impatient table (and the browser tests): localStorage "narration-rate"
  const rate = Math.min(16, Math.max(0.5, parseFloat(localStorage.getItem("narration-rate")) || 1));
  const button = el("button", {type: "button", id: "voice", test: "voice", class: "sound voice",
    "aria-pressed": "false", hidden: true, text: "🗣 ▶", style: "right: 16vw"});
  const spoken = el("ol", {test: "spoken", hidden: true});  // what was played, for the tests
  document.body.append(button, spoken);

  function play() {
    if (!on || playing || !queue.length) return;
    const u = queue.shift();
    playing = true;
    const audio = new Audio(u.url);
    audio.volume = volume;
    audio.playbackRate = rate;
    const done = () => { playing = false; play(); };
    audio.addEventListener("ended", () => {
      spoken.append(el("li", {text: u.text, "data-n": String(u.n)}));
      done();
    });
    audio.addEventListener("error", done);
    audio.play().catch(done);
  }

  async function poll() {
    let narrated = false;
    try {
      const r = await fetch("/api/speech?after=" + after, {cache: "no-store"});
      if (r.ok) {
        const s = await r.json();
        if (s.game !== game) { game = s.game; after = -1; queue.length = 0; }
        narrated = s.narrated;
        button.hidden = !(s.narrated && s.audio);
        volume = s.volume;
        offset = s.now - Date.now() / 1000;
        for (const u of s.said) if (u.n > after) { after = u.n; queue.push(u); }
        play();
      }
    } catch (err) { /* the hub is restarting: the next poll tries again */ }
    setTimeout(poll, narrated ? 700 : 5000);  // a game master's game says nothing
  }

  button.addEventListener("click", () => {
    on = !on;
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "🗣 ■" : "🗣 ▶";
    if (on) {
      const since = Date.now() / 1000 + offset - BACKLOG_S;
      queue.splice(0, queue.length, ...queue.filter((u) => u.at >= since));
    }
    play();
  });
  poll();
})();
