// A seat's phone: role, the actions the engine offers now, private results.
(function () {
  const token = document.getElementById("app").dataset.token;
  const base = "/p/" + token;
  let view = null;
  const $ = (id) => document.getElementById(id);
  const name = (seat) => view.players[seat] ? view.players[seat].name : String(seat);

  async function send(action) {
    action.seq = view.seq;
    const r = await fetch(base + "/action", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(action)});
    const answer = await r.json();
    if (!r.ok) { $("error").textContent = answer.error; return; }
    $("error").textContent = "";
    render(answer);
  }

  function render(v) {
    view = v;
    $("step").textContent = v.step;
    $("role").textContent = v.role;
    $("team").textContent = v.team;
    const box = $("actions");
    box.replaceChildren();
    for (const choice of v.actions) {
      if (choice.count && choice.count[1] === 1 && choice.do !== "potion") {
        for (const t of choice.targets) {
          const b = document.createElement("button");
          b.textContent = choice.do + " " + name(t);
          b.onclick = () => send({do: choice.do, target: name(t)});
          box.append(b);
        }
      } else if (!choice.targets || choice.targets.length === 0) {
        const b = document.createElement("button");
        b.textContent = choice.do;
        b.onclick = () => send({do: choice.do});
        box.append(b);
      }
    }
    $("results").textContent = v.results.map((r) => r.time + ": " + JSON.stringify(r)).join("\n");
  }
  follow(base + "/stream", render);
})();
