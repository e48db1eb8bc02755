// Follow one view over server-sent events. The hub sends the full view on
// every (re)connect, then one message per change of that view.
//
//   const line = follow(url, render, {state, ordered, online});
//   line.refresh();   // read the view again now (after a 409, say)
//
// - state: the URL of the same view as JSON. It is read again when the phone
//   wakes up, comes back online, or the browser gave the stream up, and when
//   the hub says "closed" (the seat's link was reissued, a new game began, or
//   the hub is stopping). "replaced": a newer stream of the same seat (or, for
//   the public view, of the same device) took this one's place [issue 17]:
//   the page waits until it is looked at again, so two tabs never take turns.
//   A state that answers 401/403/404 reloads the page,
//   which then says why; one that does not answer is a hub restarting: try
//   again every 2 s.
// - ordered (default true): drop a message older (lower seq) than the one
//   shown. The GM's seq is the number of actions applied, which an undo lowers:
//   the GM page passes false.
// - online(up): told when the line drops and when it is back.
function follow(url, render, opts = {}) {
  const ordered = opts.ordered !== false;
  const online = opts.online || (() => {});
  let seq = -1;
  let es = null;
  let waiting = false;
  let replaced = false;

  function show(view) {
    if (ordered && typeof view.seq === "number" && view.seq < seq) return;
    seq = view.seq;
    online(true);
    render(view);
  }
  function open() {
    es = new EventSource(url);
    es.onmessage = (ev) => show(JSON.parse(ev.data));
    es.onerror = () => online(false);
    es.addEventListener("closed", closed);
    es.addEventListener("replaced", () => { es.close(); replaced = true; online(false); });
  }
  async function refresh() {
    if (!opts.state) return true;
    const r = await fetch(opts.state, {cache: "no-store", credentials: "same-origin"});
    if ([401, 403, 404].includes(r.status)) { location.reload(); return false; }
    if (!r.ok) throw new Error(r.statusText);
    seq = -1; // a restarted hub numbers views anew (upwards): take this one
    show(await r.json());
    return true;
  }
  async function closed() {
    es.close();
    waiting = true;
    online(false);
    try {
      if (await refresh()) { waiting = false; open(); }
    } catch (e) {
      setTimeout(closed, 2000);
    }
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
  return {refresh: () => refresh().catch(() => online(false))};
}
