// The game master's tablet (a working minimum: the full page is its own issue).
(function () {
  const $ = (id) => document.getElementById(id);
  function render(v) {
    $("step").textContent = v.step || v.phase;
    $("pace").textContent = JSON.stringify(v.pace || {});
    $("seats").replaceChildren(...(v.seats || []).map((s) => {
      const p = document.createElement("p");
      const a = document.createElement("a");
      a.href = s.url; a.textContent = s.name; p.append(a);
      p.append(s.claimed ? " (opened)" : "");
      return p;
    }));
    $("view").textContent = JSON.stringify(v, null, 1);
  }
  follow("/api/stream", render);
})();
