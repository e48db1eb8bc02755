// The table screen: public only.
(function () {
  const $ = (id) => document.getElementById(id);
  function render(v) {
    $("step").textContent = v.step || v.phase;
    $("pace").textContent = v.pace && v.pace.remaining != null ? Math.round(v.pace.remaining) + " s" : "";
    $("players").replaceChildren(...(v.players || []).map((p) => {
      const li = document.createElement("li");
      li.textContent = p.name + (p.role ? " — " + p.role : "") + (p.sheriff ? " ★" : "");
      if (!p.alive) li.className = "dead";
      return li;
    }));
    $("news").replaceChildren(...(v.announcements || []).map((a) => {
      const li = document.createElement("li");
      li.textContent = a.time + " " + a.kind;
      return li;
    }));
  }
  follow("/api/public/stream", render);
})();
