// The story of the game [issue 35]: what the hub tells (companion/words/story.py
// says every sentence; this only lays it out). Three readers:
// - the table screen at the end: the public view's page (`v.story`: one night
//   or day, its lines), large, fitted to the screen (tableStory);
// - a phone (at the end, or a dead player's with the `ghosts` option) and
//   the GM's history: the whole story, the reader's own lines marked
//   (storyBook, from GET /p/<token>/story or /api/games/<id>/story).
// el() is dom.js's.
(function () {
  "use strict";

  // the whole story as chapters: each a title and its lines; `own` (a seat
  // or null) marks the lines that name it
  function storyBook(told, own) {
    const book = el("div", {class: "story-book", test: "story-book"});
    for (const ch of told.chapters || []) {
      const lines = (ch.lines || []).map((ln) => el("li", {
        class: "story-line story-" + ln.kind + (own !== null && own !== undefined
          && (ln.seats || []).includes(own) ? " mine" : ""),
      }, ln.text));
      book.append(el("section", {class: "story-chapter story-" + ch.kind},
        el("h3", {}, ch.title), el("ol", {}, ...lines)));
    }
    return book;
  }

  // the table screen's page: its title, "k / n", its lines; the text shrinks
  // until the page fits the screen (read from 3 m: it starts large)
  function tableStory(v, box) {
    const page = v && v.story;
    document.body.classList.toggle("telling", !!page);
    if (!page) { box.hidden = true; box.replaceChildren(); return; }
    const key = (v.game || "") + ":" + page.page;
    box.hidden = false;
    if (box.dataset.page === key) return;
    box.dataset.page = key;
    box.replaceChildren(
      el("header", {class: "story-head"},
        el("h2", {test: "story-title"}, page.title),
        el("span", {class: "story-count", test: "story-count"}, (page.page + 1) + " / " + page.pages)),
      el("ol", {class: "story-lines", test: "story-lines"},
        ...(page.lines || []).map((ln) => el("li", {}, ln.text))));
    fitStory(box);
  }

  function fitStory(box) {
    const list = box.querySelector(".story-lines");
    for (let k = 20; k >= 6; k--) {
      box.style.setProperty("--story-k", String(k / 20));
      if (list.scrollHeight <= list.clientHeight + 1) return;
    }
  }

  // the page's language as the hub names it ("zh-Hant" → "zh_Hant")
  const storyLang = () => (document.documentElement.lang || "en").replace("-", "_");

  async function fetchStory(url) {
    const r = await fetch(url, {headers: {Accept: "application/json"}, credentials: "same-origin"});
    return r.ok ? r.json() : null;
  }

  // a phone: the whole story at the end, or, dead with the `ghosts` option,
  // the story so far (asked again at each new view); the seat's view says
  // which (`reads_story`: "end", "ghost" or null, by the engine's one rule,
  // engine/story.py readable [issue 45]) and the hub answers by the same rule
  let phoneKey = null;
  const GHOST_OPEN_MS = 60000;
  let ghostTimer = null;
  async function phoneStory(v, box) {
    const ghost = v.reads_story === "ghost";
    if (!v.reads_story) {
      phoneKey = null;
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const key = [v.game, v.seq, v.phase].join(":");
    if (key === phoneKey) return;
    phoneKey = key;
    const token = document.getElementById("app").dataset.token;
    const doc = await fetchStory("/p/" + token + "/story?lang=" + storyLang());
    if (!doc || phoneKey !== key) return;
    const words = doc.told.words;
    if (ghost) {
      // closed until the ghost opens it, and closed again after GHOST_OPEN_MS
      // or at each new view: at arm's length his phone shows no card [issue 35]
      const wasOpen = box.querySelector("details.ghost-story[open]") !== null;
      const book = el("details", {class: "ghost-story", test: "ghost-story"},
        el("summary", {}, words.ghost_open), storyBook(doc.told, v.seat));
      book.addEventListener("toggle", () => {
        clearTimeout(ghostTimer);
        if (book.open) ghostTimer = setTimeout(() => { book.open = false; }, GHOST_OPEN_MS);
      });
      if (wasOpen) book.open = true;  // a new view while he reads: the clock keeps running
      box.replaceChildren(el("h2", {}, words.heading),
        el("p", {class: "ghost-note", test: "ghost-note"}, words.ghost), book);
      box.hidden = false;
      return;
    }
    box.replaceChildren(el("h2", {}, words.heading), storyBook(doc.told, v.seat));
    box.hidden = false;
  }

  // the GM's tablet at the end, and the host page: a tap turns the table
  // screen's page (POST /api/story/step); with `book`, the whole story below
  const shown = new WeakMap();  // box -> the game whose story it shows
  async function overStory(v, box, book) {
    if (v.phase !== "over" || !v.game) {
      shown.delete(box);
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const key = v.game + ":" + storyLang();
    if (shown.get(box) === key) return;
    shown.set(box, key);
    const doc = await fetchStory("/api/games/" + v.game + "/story?lang=" + storyLang());
    if (!doc) return;
    const words = doc.told.words;
    const next = el("button", {type: "button", test: "story-next", onclick: () => fetch("/api/story/step", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: "{}", credentials: "same-origin",
    })}, words.next + " ▶");
    const whole = book ? [el("details", {class: "story-details"},
      el("summary", {}, words.heading), storyBook(doc.told, null))] : [];
    box.replaceChildren(next, ...whole);
    box.hidden = false;
  }

  // the GM's history: the story of the game stepped through (`show`: a game
  // over, or the GM sees the secrets)
  async function historyStory(game, box, show) {
    if (!show) { shown.delete(box); box.hidden = true; box.replaceChildren(); return; }
    const key = game + ":" + storyLang();
    if (shown.get(box) === key) return;
    shown.set(box, key);
    const doc = await fetchStory("/api/games/" + game + "/story?lang=" + storyLang());
    if (!doc || shown.get(box) !== key) return;
    box.replaceChildren(el("h3", {}, doc.told.words.heading), storyBook(doc.told, null));
    box.hidden = false;
  }

  window.storyBook = storyBook;
  window.tableStory = tableStory;
  window.phoneStory = phoneStory;
  window.overStory = overStory;
  window.historyStory = historyStory;
  window.fetchStory = fetchStory;
  window.storyLang = storyLang;
})();
