// The table screen speaks in a narrated game [issue 20]: it reads the
// narration's timeline (/api/speech?after=N, public: what the table screen
// shows, said aloud) and plays each utterance at its moment on the hub's
// clock (`at`, for `dur` seconds) [issue 29]: the hub's pacing waits for
// those words, so the voice and the clock are one. A line the hub dropped
// (its step ended before it began) is never played; one it cut stops at its
// cut. Each line's audio is fetched once it is rendered (`ready`), before its
// moment. Browsers play sound only after a tap, as for the night sound: one
// tap on the voice button. The night's masking sound (table.js) goes on under
// the voice. el() and $() are dom.js's.
//
// A screen that is behind catches up, line by line [issue 42]: of the lines
// whose moment is past it still plays, whole and in turn, those that tell
// what happened (`news`: the dawn, a tally, the verdict, the end) and skips
// only a call or a prompt that a newer line replaces; switched on late it
// joins a call being said where it is. It tells the hub when it begins and
// ends each line (POST /api/speech/heard), and the hub's pacing waits for a
// screen behind, a few seconds a stage at most. Every spoken line is shown
// as a caption while it is said, with the voice off too (the night's calls
// as well), large, in the game's language: a player who cannot hear it (a
// loud room, a deaf player) reads it.
(function () {
  "use strict";
  const lines = new Map();  // n -> the utterance as last sent (a later word may cut or drop it)
  const audios = new Map();  // n -> its Audio, fetched ahead
  const started = new Set();  // n of the lines begun (or passed over) on this screen
  let after = -1;
  let game = null;
  let lang = "";
  let on = false;
  let volume = 1;
  let rate = 1;  // the hub's voice rate (tests speak faster; the hub's clock waits as long)
  let offset = 0;  // the hub's clock − this screen's
  let current = null;  // {u, audio} being said
  const SEEK_S = 1.0;  // a call begun later than this: join it where it is, not from its start
  const AHEAD_S = 10;  // fetch a line's audio this long before its moment
  const CATCH_UP_S = 45;  // news that ended at most this long ago is still played, whole
  const CAPTION_S = 3;  // a caption without a voice (dur 0) stays at least this long
  const button = el("button", {type: "button", id: "voice", test: "voice", class: "sound voice",
    "aria-pressed": "false", hidden: true, text: "🗣 ▶"});
  const spoken = el("ol", {test: "spoken", hidden: true});  // what was played, for the tests
  const caption = el("p", {id: "caption", test: "caption", class: "caption", hidden: true});
  const night = document.getElementById("sound");  // beside the night sound's button, in the heading
  if (night) night.after(button); else document.body.append(button);
  document.head.append(el("link", {rel: "stylesheet", href: "/static/narration.css"}));
  document.body.append(spoken, caption);

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

  // the hub's voice follows a screen that is behind (its wait is capped there)
  function tell(n, what) {
    if (game === null) return;
    fetch("/api/speech/heard", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({game, n, what})}).catch(() => {});
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
    const join = !u.news && late > SEEK_S;  // a call said now: where it is; news: whole
    if (join) audio.currentTime = late * rate;  // the audio's own seconds
    else if (audio.currentTime) audio.currentTime = 0;
    // when it should end here (a browser that cannot play it never says "ended")
    const playing = {u, audio, ends: join ? u.at + u.dur : now + u.dur};
    current = playing;
    const done = () => { if (current === playing) current = null; };
    audio.addEventListener("ended", () => { tell(u.n, "ended"); done(); }, {once: true});
    spoken.append(el("li", {text: u.text, "data-n": String(u.n),
      "data-at": String(u.at), "data-begun": now.toFixed(3),
      "data-wall": (Date.now() / 1000).toFixed(3)}));
    tell(u.n, "begun");
    audio.play().catch(done);
  }

  // the next line to say: in turn; of those whose moment is past, news is
  // still said (whole) and a call or prompt only while no newer line is due
  function next(now) {
    const due = [...lines.values()].filter((u) => !u.dropped && !started.has(u.n)
      && u.at <= now + 0.02).sort((a, b) => a.n - b.n);
    for (let i = 0; i < due.length; i++) {
      const u = due[i];
      const over = now >= u.at + u.dur;
      const newer = i < due.length - 1;
      const keep = u.news ? now - (u.at + u.dur) < CATCH_UP_S : !over && !newer;
      if (!keep) {  // replaced, or its time long gone: the hub need not wait for it
        started.add(u.n);
        tell(u.n, "skipped");
        continue;
      }
      if (!u.ready) return null;  // said once rendered: the hub moves it (and what follows)
      return u;
    }
    return null;
  }

  // the line being said here, else the hub's line of now (the voice off), a
  // moment more after its end so that the caption does not blink between lines
  function captionOf(now) {
    if (on && current) return current.u;
    const said = [...lines.values()].filter((u) => !u.dropped && u.at <= now
      && now < u.at + Math.max(u.dur, CAPTION_S) + 1).sort((a, b) => b.n - a.n);
    return said[0] || null;
  }

  function show(now) {
    const u = captionOf(now);
    const text = u ? u.text : "";
    if (caption.textContent !== text) caption.textContent = text;
    if (lang && caption.lang !== lang) caption.lang = lang;
    caption.hidden = !text;
  }

  function tick() {
    const now = hubNow();
    if (current) {
      const u = lines.get(current.u.n) || current.u;
      if (u.dropped || (u.cut && now >= current.ends)) stop();  // its step ended: as cut
      else if (now > current.ends + 2) {  // never said "ended": over all the same
        tell(u.n, "ended");
        stop();
      }
    }
    for (const [n, u] of lines) {  // fetch what comes soon; forget what is long said
      if (u.at + u.dur < now - 120) { lines.delete(n); audios.delete(n); continue; }
      if (on && u.ready && !u.dropped && !started.has(n) && u.at - now < AHEAD_S) audioOf(u);
    }
    if (on && !current) {
      const u = next(now);
      if (u) begin(u, now);
    }
    show(now);
  }

  // the timeline's lines as sent (new ones, and later words on those still to come)
  function take(said) {
    for (const u of said) {
      const known = lines.get(u.n);
      if (known && !known.ready && u.ready) audios.delete(u.n);  // its audio is there now
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
        lang = s.lang || "";
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
    if (!on) {
      stop();
      tell(-1, "off");  // the hub waits for this screen no more
    } else {  // switched on: what is long said is not played again
      const now = hubNow();
      for (const u of lines.values()) {
        if (u.at + u.dur < now - CATCH_UP_S) started.add(u.n);
      }
    }
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
