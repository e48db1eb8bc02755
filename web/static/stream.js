// Follow one view over server-sent events. The hub sends the full view on
// every (re)connect, then one message per change of that view.
//
//   const line = follow(url, render, {state, ordered, online});
//   line.refresh();   // read the view again now (after a 409, say)
//   line.show(view);  // a view got otherwise (an action's answer): shown if newer
//
// - state: the URL of the same view as JSON. It is read again when the phone
//   wakes up, comes back online, or the browser gave the stream up, and when
//   the hub says "closed" (the seat's link was reissued, a new game began, or
//   the hub is stopping). "replaced": a newer stream of the same seat (or, for
//   the public view, of the same device) took this one's place [issue 17]:
//   the page waits until it is looked at again, so two tabs never take turns.
//   A state that answers 401/403/404 reloads the page,
//   which then says why; one that does not answer is a hub restarting: try
//   again every 2 s. A state asked too often answers 429 [issue 30]: it is
//   read again after the hub's Retry-After (`patientFetch`), and a stream the
//   hub refused (a 429, or any answer that is not a stream) is opened again
//   after a pause that doubles while it goes on: a page never hammers.
// - check: for a view with no state URL (the GM's), a URL asked instead at
//   those times, the same way (401/403: the tablet was unpaired by a new GM
//   token), though it has no view to show.
// - ordered (default true): drop a message older (lower seq) than the one
//   shown — of the same game and the same hub start only (`newer`): a new
//   game or a restarted hub numbers its views anew [issue 18]. The GM's seq
//   is the number of actions applied, which an undo lowers: the GM page
//   passes false.
// - online(up): told when the line drops and when it is back.
//
// A view names its game's language: a page whose language came from the
// game (no `lang` cookie: the device's own choice) reloads itself in the new
// one when the game's language changes, once per game and language.
function follow(url, render, opts = {}) {
  const ordered = opts.ordered !== false;
  const online = opts.online || (() => {});
  let es = null;
  let waiting = false;
  let replaced = false;
  let pause = 0; // ms before a stream the hub refused is opened again

  let last = null; // the view shown: its game, boot and seq

  function show(view) {
    if (ordered && !newer(view, last)) return;
    last = view;
    online(true);
    if (followLanguage(view)) return;
    render(view);
    // which view the page shows (the browser tests wait for it)
    document.body.dataset.seq = String(view.seq);
    document.body.dataset.game = String(view.game);
  }
  function open() {
    es = new EventSource(url);
    es.onopen = () => { pause = 0; };
    es.onmessage = (ev) => show(JSON.parse(ev.data));
    // after an error the browser reconnects and the hub sends the full view
    // first, whatever its seq (a hub restarted on a new data folder starts again);
    // an answer that is not a stream (CLOSED: the browser gives up) is `refused`
    es.onerror = () => {
      last = null;
      if (es.readyState === EventSource.CLOSED) refused();
      else online(false);
    };
    es.addEventListener("closed", closed);
    es.addEventListener("replaced", () => { es.close(); replaced = true; online(false); });
  }
  async function refresh() {
    const url = opts.state || opts.check;
    if (!url) return true;
    const r = await patientFetch(url, {cache: "no-store", credentials: "same-origin"},
      (long) => { if (long) online(false); });
    if ([401, 403, 404].includes(r.status)) { location.reload(); return false; }
    if (!opts.state) return true; // the check: still allowed, no view to show
    if (!r.ok) throw new Error(r.statusText);
    last = null; // the state read now is the newest: take it whatever its seq
    show(await r.json());
    return true;
  }
  async function closed(quiet) {
    es.close();
    waiting = true;
    if (quiet !== true) online(false);
    try {
      if (await refresh()) { waiting = false; open(); }
    } catch (e) {
      setTimeout(closed, 2000);
    }
  }
  // The hub answered the stream with no stream (a 429 [issue 30], a 403):
  // nothing said at once; the state is read (patiently) and the stream
  // opened again after `pause`, 1 s, then 2, 4 … 30 s while it goes on.
  function refused() {
    if (waiting) return;
    es.close();
    waiting = true;
    pause = Math.min(30000, pause ? pause * 2 : 1000);
    setTimeout(() => closed(true), pause);
  }
  function revive(looked) {
    if (waiting || (replaced && !looked)) return;
    replaced = false;
    if (!es || es.readyState === EventSource.CLOSED) open();
    refresh().catch(() => online(false));
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) revive(true); });
  window.addEventListener("online", () => revive(false));
  window.addEventListener("pageshow", (e) => { if (e.persisted) revive(true); });
  setInterval(() => { if (es && es.readyState === EventSource.CLOSED) revive(false); }, 5000);
  open();
  return {refresh: () => refresh().catch(() => online(false)), show};
}

// fetch(), patient with a hub that says 429 ("too many requests from this
// device" [issue 30]): it waits the answer's Retry-After, or longer when it
// is told again (1, 2, 4 … 30 s), and asks again; what it returns is never a
// 429. `slow(true)`: the waiting has gone on for PATIENT_MS (a page says
// so only then); `slow(false)`: it is over.
const PATIENT_MS = 6000;
async function patientFetch(url, init, slow = () => {}) {
  let wait = 0;
  let since = 0;
  for (;;) {
    const r = await fetch(url, init);
    if (r.status !== 429) {
      if (since) slow(false);
      return r;
    }
    const told = Number(r.headers.get("Retry-After")) || 1;
    wait = Math.min(30, Math.max(told, wait * 2));
    if (!since) since = Date.now();
    if (Date.now() - since >= PATIENT_MS) slow(true);
    await new Promise((done) => setTimeout(done, wait * 1000));
  }
}

// Whether `view` is to be shown after `last` (the one shown; null: none yet):
// a view of another game or another hub start is, whatever its seq; within
// one game and one start, only a seq not lower than the last [issue 18].
function newer(view, last) {
  if (!last || typeof view.seq !== "number" || typeof last.seq !== "number") return true;
  if (view.game !== last.game || view.boot !== last.boot) return true;
  return view.seq >= last.seq;
}

// The page's language follows the game's when the device chose none: a page
// reloads itself (the hub renders it in the game's language) when a view's
// language is not the page's. Once per game and language (sessionStorage), so
// a page the hub cannot render in that language never loops. True: reloading.
function followLanguage(view) {
  const lang = view.language;
  if (!lang || view.game === null || view.game === undefined) return false;
  const page = (document.documentElement.lang || "en").replace("-", "_");
  if (page === lang || /(^|;\s*)lang=/.test(document.cookie)) return false;
  const key = "werewolf-lang-reload";
  const mark = view.game + ":" + lang;
  try {
    if (sessionStorage.getItem(key) === mark) return false;
    sessionStorage.setItem(key, mark);
  } catch (e) {
    return false;
  }
  location.reload();
  return true;
}
