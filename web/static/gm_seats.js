// The GM tablet's seats [issue 6]: pass the tablet round (each seat's QR
// code in turn), each seat's link and whether it was opened, a new link or a
// freed seat, then "start" (the night's clock was held until every phone has
// its seat).
(function () {
  "use strict";
  const { t, api, guard, S, show } = GM;  // gm_state.js

  function seats() { return (S.gm && S.gm.seats) || []; }

  function renderDealing() {
    if (S.view !== "dealing") return;
    const list = seats();
    if (!list.length) {
      $("pass-to").textContent = "";
      $("seat-qr").removeAttribute("src");
      $("seat-list").replaceChildren();
      return;
    }
    S.seat = Math.min(Math.max(S.seat, 0), list.length - 1);
    const seat = list[S.seat];
    // the name on a line of its own when long, cut to the width ("…") [issue 28]
    const [lead, tail] = t("Pass the tablet to {name}").split("{name}");
    $("pass-to").replaceChildren(lead,
      el("span", { class: "cut", text: seat.name, title: seat.name }), tail || "");
    const src = "/api/seats/" + seat.seat + "/qr.svg?v=" + encodeURIComponent(seat.url.slice(-8));
    if ($("seat-qr").getAttribute("src") !== src) $("seat-qr").setAttribute("src", src);
    $("seat-qr").classList.toggle("claimed", seat.claimed);
    $("prev-seat").disabled = S.seat === 0;
    $("next-seat").disabled = S.seat === list.length - 1;
    const box = $("seat-list");
    box.replaceChildren(...list.map((s) => el("li", {
      class: "seat-row" + (s.claimed ? " claimed" : "") + (s.seat === S.seat ? " current" : "") },
      el("button", { type: "button", class: "seat-name", text: s.name, title: s.name,
        onclick: () => { S.seat = s.seat; renderDealing(); } }),
      el("span", { class: "opened", test: "opened-" + s.seat,
        text: s.claimed ? t("opened") : t("not opened") }),
      el("a", { href: s.url, test: "seat-link-" + s.seat, target: "_blank", rel: "noreferrer",
        class: "small-link", text: "🔗" }),
      el("button", { type: "button", class: "small secondary", test: "reissue-" + s.seat,
        text: t("New link"),
        onclick: guard(() => api("POST", "/api/seats/" + s.seat + "/reissue")) }),
      el("button", { type: "button", class: "small secondary", test: "release-" + s.seat,
        text: t("Free the seat"), disabled: !s.claimed,
        onclick: guard(() => api("POST", "/api/seats/" + s.seat + "/release")) }))));
    fitSeats();
  }
  // the seats scroll in their list (gm.js's hint), "start" stays in sight [issue 28]
  const fitSeats = fitToWindow($("seat-list"), [$("start")]);  // dom.js
  $("next-seat").addEventListener("click", () => { S.seat += 1; renderDealing(); });
  $("prev-seat").addEventListener("click", () => { S.seat -= 1; renderDealing(); });
  $("start").addEventListener("click", guard(async () => {
    // the deal waits for it [issue 28]; asked whatever this tablet's view says
    // (a tap before the new game's view came); 409: it had begun already
    await api("POST", "/api/timer", { do: "start" }).catch((err) => { if (err.status !== 409) throw err; });
    show("running", true);
  }));

  GM.screen("dealing", { shown: renderDealing, view: renderDealing });
})();
