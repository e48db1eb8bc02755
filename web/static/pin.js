// A seat's PIN [issue 40] (narrated games): the player chooses it on his
// first phone before his card is shown (player.html's #pin-set, the same
// screen on every phone), and a seat the table's vote reissued opens on his
// new phone only with it (unlock.html). One form, two routes: the form's
// data-post is "pin" (choose) or "unlock" (open).
(function () {
  "use strict";
  const form = $("pin-form");
  if (!form) return;
  const token = (document.querySelector("[data-token]") || {dataset: {}}).dataset.token;
  const words = JSON.parse(($("i18n") || {textContent: "{}"}).textContent || "{}");
  const t = (k) => words[k] || k;
  const error = $("pin-error");
  function say(text) {
    error.textContent = text;
    error.hidden = !text;
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const pin = $("pin").value.trim();
    if (!/^[0-9]{4,8}$/.test(pin)) return say(t("4 to 8 digits."));
    say("");
    fetch("/p/" + token + "/" + form.dataset.post, {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({pin})})
      .then((r) => r.json().then((doc) => [r, doc]))
      .then(([r, doc]) => {
        if (r.ok) {
          $("pin").value = "";
          if (form.dataset.post === "unlock") location.reload();
          return;
        }
        const e = String(doc.error || r.statusText);
        say(e.startsWith("too many") ? t("Too many wrong PINs: this code opens no more. Ask the table to vote on the lost phone again.")
          : e === "wrong PIN" ? t("Wrong PIN.") : e);
      })
      .catch((err) => say(String(err.message || err)));
  });
})();
