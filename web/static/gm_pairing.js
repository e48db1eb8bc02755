// The GM's seat [issue 17]: "pair another tablet" asks the hub for a pairing
// link (one tablet, 10 minutes) and shows its QR code; "new GM token" rotates
// the token (the terminal shows it), which unpairs every other tablet. Words
// come from the template (_gm_pairing.html); api() and $() are gm_state.js's
// and dom.js's.
(function () {
  "use strict";
  const { api, guard } = GM;
  const box = $("pair-box");
  $("pair-tablet").addEventListener("click", guard(async () => {
    const doc = await api("POST", "/api/gm/pair", {});
    $("pair-qr").innerHTML = doc.svg; // the hub's own SVG of the link
    $("pair-url").textContent = doc.url;
    $("pair-url").href = doc.url;
    $("rotated").hidden = true;
    box.hidden = false;
  }));
  $("rotate-token").addEventListener("click", guard(async () => {
    if (!window.confirm($("rotate-token").dataset.confirm)) return;
    await api("POST", "/api/gm/rotate", {});
    refresh();
    $("pair-qr").replaceChildren();
    $("pair-url").textContent = "";
    $("rotated").hidden = false;
    box.hidden = false;
  }));
  $("pair-close").addEventListener("click", () => { box.hidden = true; refresh(); });
  // how many tablets are paired: one more than this one means someone else
  // paired (a photo of the display); "new GM token" unpairs them
  async function refresh() {
    const doc = await api("GET", "/api/gm/tablets");
    $("paired").textContent = $("paired").dataset.words.replace("{n}", String(doc.paired));
  }
  guard(refresh)();
  setInterval(guard(refresh), 30000);
})();
