// The table screen speaks in a narrated game [issue 20]: it reads the
// narration's timeline (/api/speech?after=N, public: what the table screen
// shows, said aloud) and plays each utterance at its moment on the hub's
// clock (`at`, for `dur` seconds) [issue 29]: the hub's pacing waits for
// those words, so the voice and the clock are one. A line the hub dropped
// (its step ended before it began) is never played; one it cut stops at its
// cut; a screen switched on late joins the line being said, from where it
// is. Each line's audio is fetched as soon as it is in the timeline, before
// its moment. Browsers play sound only after a tap, as for the night sound:
// one tap on the voice button. The night's masking sound (table.js) goes on
// under the voice. el() and $() are dom.js's.
(function () {
  "use strict";
  const lines = new Map();  // n -> the utterance as last sent (a later word may cut or drop it)
  const audios = new Map();  // n -> its Audio, fetched ahead
  const started = new Set();  // n of the lines begun on this screen
  let after = -1;
  let game = null;
  let on = false;
  let volume = 1;
  let rate = 1;  // the hub's voice rate (tests speak faster; the hub's clock waits as long)
  let offset = 0;  // the hub's clock − this screen's
  let current = null;  // {u, audio} being said
  const SEEK_S = 1.0;  // begun later than this: join it where it is, not from its start
  const AHEAD_S = 10;  // fetch a line's audio this long before its moment
  const button = el("button", {type: "button", id: "voice", test: "voice", class: "sound voice",
    "aria-pressed": "false", hidden: true, text: "🗣 ▶"});
  const spoken = el("ol", {test: "spoken", hidden: true});  // what was played, for the tests
  const night = document.getElementById("sound");  // beside the night sound's button, in the heading
  if (night) night.after(button); else document.body.append(button);
  document.body.append(spoken);

  const hubNow = () => Date.now() / 1000 + offset;

  function audioOf(u) {
    let audio = audios.get(u.n);
    if (!audio) {
      audio = new Audio(u.url);
      audio.preload = "auto";
      audios.set(u.n, audio);
    }
    return audio;
  }

  function stop() {
    if (current) current.audio.pause();
    current = null;
  }

  function begin(u, now) {
    stop();
    started.add(u.n);
    const audio = audioOf(u);
    audio.volume = volume;
    audio.playbackRate = rate;
    const late = now - u.at;
    if (late > SEEK_S) audio.currentTime = late * rate;  // the audio's own seconds
    current = {u, audio};
    audio.addEventListener("ended", () => { if (current && current.audio === audio) current = null; });
    spoken.append(el("li", {text: u.text, "data-n": String(u.n),
      "data-at": String(u.at), "data-begun": now.toFixed(3),
      "data-wall": (Date.now() / 1000).toFixed(3)}));
    audio.play().catch(() => { if (current && current.audio === audio) current = null; });
  }

  function tick() {
    const now = hubNow();
    if (current) {
      const u = lines.get(current.u.n) || current.u;
      if (u.dropped || (u.cut && now >= u.at + u.dur)) stop();  // its step ended
    }
    for (const [n, u] of lines) {  // fetch what comes soon; forget what is long said
      if (u.at + u.dur < now - 60) { lines.delete(n); audios.delete(n); continue; }
      if (on && !u.dropped && !started.has(n) && u.at - now < AHEAD_S) audioOf(u);
    }
    if (!on) return;
    const due = [...lines.values()].filter((u) => !u.dropped && !started.has(u.n)
      && u.at <= now + 0.02 && now < u.at + u.dur).sort((a, b) => a.n - b.n);
    if (due.length) begin(due[due.length - 1], now);  // the line of now (any before it is over)
  }

  // the timeline's lines as sent (new ones, and later words on those still to come)
  function take(said) {
    for (const u of said) {
      lines.set(u.n, u);
      after = Math.max(after, u.n);
    }
    tick();
  }

  async function poll() {
    let narrated = false;
    try {
      const sent = Date.now() / 1000;
      const r = await fetch("/api/speech?after=" + after, {cache: "no-store"});
      if (r.ok) {
        const s = await r.json();
        const got = Date.now() / 1000;
        if (s.game !== game) {
          game = s.game; after = -1; stop();
          lines.clear(); audios.clear(); started.clear();
        }
        narrated = s.narrated;
        button.hidden = !(s.narrated && s.audio);
        volume = s.volume;
        rate = s.rate || 1;
        if (current) current.audio.volume = volume;
        offset = s.now - (sent + got) / 2;  // the hub's clock at the middle of the round trip
        take(s.said);
      }
    } catch (err) { /* the hub is restarting: the next poll tries again */ }
    setTimeout(poll, narrated ? 250 : 5000);  // a game master's game says nothing
  }

  button.addEventListener("click", () => {
    on = !on;
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "🗣 ■" : "🗣 ▶";
    if (!on) stop();
    tick();
  });
  setInterval(tick, 100);
  // the table screen's view changed (table.js): what it announces is in the
  // timeline now — ask at once rather than at the next poll
  let poking = false;
  window.narrationPoke = () => {
    if (poking || !game) return;
    poking = true;
    fetch("/api/speech?after=" + after, {cache: "no-store"}).then((r) => r.ok ? r.json() : null)
      .then((s) => {
        if (s && s.game === game) take(s.said);
      }).catch(() => {}).finally(() => { poking = false; });
  };
  poll();
})();
