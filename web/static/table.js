// The table screen: public only.
(function () {
  const $ = (id) => document.getElementById(id);
  function render(v) {
    $("step").textContent = v.step || v.phase;
    clock.set(v);
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
  // count down to the hub's deadline on the hub's clock (`now`), not the screen's
  const clock = {
    deadline: null, offset: 0,
    set(v) {
      this.offset = v.now - Date.now() / 1000;
      this.deadline = v.pace ? v.pace.deadline : null;
      this.paused = v.pace ? v.pace.paused : null;
    },
  };
  setInterval(() => {
    let text = "";
    if (clock.paused != null) text = Math.round(clock.paused) + " s (paused)";
    else if (clock.deadline != null) {
      text = Math.max(0, Math.round(clock.deadline - (Date.now() / 1000 + clock.offset))) + " s";
    }
    $("pace").textContent = text;
  }, 250);
  follow("/api/public/stream", render);
})();
