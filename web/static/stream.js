// Follow one view: the stream sends the full view on every (re)connect, then
// one message per change; older messages (lower seq) are dropped.
function follow(url, render) {
  let seq = -1;
  const open = () => {
    const es = new EventSource(url);
    es.onmessage = (ev) => {
      const view = JSON.parse(ev.data);
      if (typeof view.seq === "number" && view.seq < seq) return;
      seq = view.seq;
      render(view);
    };
    es.addEventListener("closed", () => { es.close(); location.reload(); });
  };
  open();
}
