// The GM tablet's entry of any seat's action [issue 6]: pick a seat (its
// row or the select), then the same choice widgets as the phone, then
// confirm; and "end this step now" (the step's defaults apply). Part of the
// running game's screen (gm_game.js).
(function () {
  "use strict";
  const { N, t, pick, api, guard, S, nameOf, isNight, roleName, modeName, describe } = GM;  // gm_state.js

  function selectSeat(seat) {
    S.actSeat = seat;
    S.choice = null;
    S.form = null;
    $("act-seat").value = String(seat);
    GM.game.renderPlayers(S.gm);  // gm_game.js
    renderAct();
  }

  function renderActSeat(v) {
    const select = $("act-seat");
    const want = S.actSeat === null ? "" : String(S.actSeat);
    const opts = [el("option", { value: "", text: t("Select a seat") })];
    for (const p of v.players) {
      const acts = p.actions && p.actions.length && (S.secrets || !isNight(v));
      opts.push(el("option", { value: String(p.seat), text: (acts ? "● " : "") + p.name }));
    }
    select.replaceChildren(...opts);
    select.value = want;
  }
  $("act-seat").addEventListener("change", () => {
    const value = $("act-seat").value;
    if (value === "") { S.actSeat = null; S.choice = null; renderAct(); GM.game.renderPlayers(S.gm); }
    else selectSeat(parseInt(value, 10));
  });

  function renderAct() {
    const box = $("gm-act");
    box.replaceChildren();
    const v = S.gm;
    if (!v || !v.players) return;
    if (S.actSeat !== null && v.players[S.actSeat]) {
      const player = v.players[S.actSeat];
      const choices = player.actions || [];
      // a choice taken from an older view may have gone: keep the form only if it still exists
      if (S.choice && !choices.some((c) => JSON.stringify(c) === S.choiceKey)) { S.choice = null; S.form = null; }
      if (!choices.length) box.append(el("p", { class: "quiet", text: t("This seat has nothing to do now.") }));
      for (const c of choices) box.append(choiceWidget(player, c));
      if (S.choice) box.append(confirmBar(player));
    }
    if (v.phase !== "over") {
      box.append(el("button", { type: "button", class: "secondary small timeout",
        text: t("End this step now (defaults apply)"),
        onclick: guard(() => send({ do: "timeout" })) }));
    }
  }

  function choose(c, form) {
    S.choice = c;
    S.choiceKey = JSON.stringify(c);
    S.form = form;
    renderAct();
  }

  function targetButton(c, seat, prefix, selected, onclick) {
    return el("button", { type: "button", class: "target" + (selected ? " on" : ""),
      test: prefix + "-" + seat, text: nameOf(seat), title: nameOf(seat), onclick });
  }

  function choiceWidget(player, c) {
    const mine = S.choice && S.choiceKey === JSON.stringify(c);
    const form = mine ? S.form : {};
    const verb = pick(N.verbs, c.do);
    const box = el("div", { class: "choice" + (mine ? " on" : ""), test: "choice-" + c.do },
      el("p", { class: "choice-title" },
        el("span", { class: "cut", text: player.name, title: player.name }), " · " + verb));
    if (c.do === "potion") {
      if (c.heal) {
        box.append(el("label", { class: "check" },
          el("input", { type: "checkbox", test: "heal", checked: !!form.heal,
            onchange: (e) => choose(c, { ...form, heal: e.target.checked }) }),
          " " + t("heal {name}", { name: nameOf(c.victim) })));
      }
      if ((c.targets || []).length) {
        box.append(el("p", { class: "quiet", text: t("Poison:") }));
        box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "poison",
          form.poison === s, () => choose(c, { ...form, poison: form.poison === s ? null : s })))));
      }
      box.append(el("button", { type: "button", class: "secondary small", text: t("no poison"),
        onclick: () => choose(c, { ...form, poison: null }) }));
    } else if (c.do === "swap") {
      box.append(el("div", { class: "targets" }, (c.cards || []).map((k) => el("button", {
        type: "button", class: "target" + (form.card === k ? " on" : ""), test: "card-" + k,
        text: t("card {k}", { k: k + 1 }) + (S.secrets && S.gm.center ? " · " + roleName(S.gm.center[k]) : ""),
        onclick: () => choose(c, { card: k }) }))));
    } else if (c.do === "spy") {
      box.append(el("div", { class: "targets" }, (c.modes || []).map((m) => el("button", {
        type: "button", class: "target" + (form.mode === m ? " on" : ""), test: "mode-" + m,
        text: modeName(m), onclick: () => choose(c, { mode: m }) }))));
    } else if (c.do === "restore") {  // the bonesetter (RULES.md §8)
      box.append(el("div", { class: "targets" }, (c.powers || []).map((pw) => el("button", {
        type: "button", class: "target" + (form.power === pw ? " on" : ""), test: "power-" + pw,
        text: pick(N.buildings, pw), onclick: () => choose(c, { power: pw }) }))));
    } else if (c.do === "assign") {  // the steward: a vacant building to a drifter
      box.append(el("div", { class: "targets" }, (c.buildings || []).map((b) => el("button", {
        type: "button", class: "target" + (form.building === b ? " on" : ""), test: "building-" + b,
        text: pick(N.buildings, b), onclick: () => choose(c, { ...form, building: b }) }))));
      box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "target",
        form.target === s, () => choose(c, { ...form, target: s })))));
    } else if (c.multi) {
      const [lo, hi] = c.count;
      const picked = form.targets || [];
      box.append(el("p", { class: "quiet", text: lo === hi ? t("Choose {n}", { n: lo })
        : t("Choose {lo} to {hi}", { lo, hi }) }));
      box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "target",
        picked.includes(s), () => {
          const next = picked.includes(s) ? picked.filter((x) => x !== s)
            : picked.length < hi ? picked.concat([s]) : picked;
          choose(c, { targets: next });
        }))));
      if (lo === 0 && !mine) {
        box.append(el("button", { type: "button", class: "secondary small", text: t("Nobody"),
          onclick: () => choose(c, { targets: [] }) }));
      }
    } else if (c.targets && c.count && c.count[1] > 0) {
      box.append(el("div", { class: "targets" }, c.targets.map((s) => targetButton(c, s, "target",
        form.target === s, () => choose(c, { target: s })))));
    } else {
      box.append(el("button", { type: "button", class: "target" + (mine ? " on" : ""),
        test: "do-" + c.do, text: verb, onclick: () => choose(c, {}) }));
    }
    return box;
  }

  function formReady(c, form) {
    if (c.do === "potion") return true;
    if (c.do === "swap") return form.card !== undefined;
    if (c.do === "spy") return !!form.mode;
    if (c.do === "restore") return !!form.power;
    if (c.do === "assign") return !!form.building && form.target !== undefined;
    if (c.multi) {
      const n = (form.targets || []).length;
      return n >= c.count[0] && n <= c.count[1];
    }
    if (c.targets && c.count && c.count[1] > 0) return form.target !== undefined;
    return true;
  }

  function actionOf(player, c, form) {
    const a = { actor: player.name, do: c.do };
    if (c.do === "potion") {
      a.heal = !!form.heal;
      a.poison = form.poison === null || form.poison === undefined ? null : nameOf(form.poison);
    } else if (c.do === "swap") a.card = form.card;
    else if (c.do === "spy") a.mode = form.mode;
    else if (c.do === "restore") a.power = form.power;
    else if (c.do === "assign") { a.building = form.building; a.target = nameOf(form.target); }
    else if (c.multi) a.targets = (form.targets || []).map(nameOf);
    else if (form.target !== undefined) a.target = nameOf(form.target);
    return a;
  }

  function confirmBar(player) {
    const ready = formReady(S.choice, S.form);
    const action = actionOf(player, S.choice, S.form);
    return el("div", { class: "confirm-box" },
      el("p", { class: "confirm-text", text: describe(action) }),
      el("button", { type: "button", class: "secondary", text: t("Cancel"),
        onclick: () => { S.choice = null; S.form = null; renderAct(); } }),
      el("button", { type: "button", class: "primary", test: "confirm", text: t("Confirm"),
        disabled: !ready, onclick: guard(async () => {
          await send(action);
          S.choice = null; S.form = null; renderAct();
        }) }));
  }

  async function send(action) {
    return api("POST", "/api/actions", { ...action, seq: S.gm.seq });
  }

  GM.act = { select: selectSeat, renderSeats: renderActSeat, render: renderAct };
})();
