// The game master's tablet [issue 6], started: its screens (gm_lobby.js,
// gm_seats.js, gm_game.js with gm_act.js, gm_history.js) have registered with
// GM (gm_state.js); this reads the rulesets and saved setups for the lobby and
// follows the GM's event stream.
(function () {
  "use strict";
  $("secrets").checked = false;
  GM.lobby.load().catch(GM.showError);
  GM.followGm();
  for (const id of ["line", "players", "seat-list", "announcements", "log", "games", "replay-news"]) {
    scrollHint($(id), GM.t("scroll for more"));
  }
  // from the host page of a narrated game [issue 20]: its GM stream stays closed, the lobby opens
  if (new URLSearchParams(location.search).has("lobby")) GM.show("lobby", true);
})();
