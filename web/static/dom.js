// The pages' one DOM helper (docs/pages.md): every page script builds its
// elements with el() and finds them with $(), so a node is made one way only.
//
//   el("button", {type: "button", test: "confirm", class: "primary", onclick: send}, label)
//
// attrs: `test` → data-test (the browser tests' hooks), `class` → className,
// `text` → textContent, `on<event>` → a listener for <event>; the value true
// → an empty attribute (checked, disabled…), null/undefined/false → left out.
// kids: nodes or strings, arrays flattened one level; null/undefined/false skipped.
"use strict";

function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "test") node.dataset.test = v;
    else if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, v);
  }
  for (const kid of kids.flat()) {
    if (kid !== null && kid !== undefined && kid !== false) node.append(kid);
  }
  return node;
}

const $ = (id) => document.getElementById(id);

// A player's name in a box of its own [issue 30]: names run to 40 characters;
// one wider than its box ends in "…" (hub.css .name-tag), its whole text in
// the title. nameTag(name, "lines2"): on up to two lines.
function nameTag(name, more) {
  return el("span", {class: "name-tag" + (more ? " " + more : ""), title: name}, name);
}

// A list that may be long scrolls inside its panel and says so: scrollHint(list,
// text) puts "▼ text" right after it, shown while the list holds more than its
// panel shows [issue 18].
function scrollHint(list, text) {
  if (!list) return;
  const hint = el("p", {class: "scroll-hint", "aria-hidden": "true"}, "▼ " + text);
  hint.hidden = true;
  list.after(hint);
  const update = () => { hint.hidden = list.scrollHeight <= list.clientHeight + 1; };
  new ResizeObserver(update).observe(list);
  new MutationObserver(update).observe(list, {childList: true, subtree: true, characterData: true});
  update();
}

// A panel the window must show whole, whatever the page holds above it
// [issue 28]: fitToWindow(panel, keep) gives it at most the room between its
// top and the window's bottom, less what follows it down to the last of the
// `keep` elements (a button that must stay in sight) and a line for its
// scroll hint, so what does not fit scrolls inside it (scrollHint says so), never
// only with the whole page. It returns the fit: call it again after a render
// (the page above may have grown); the window's resizing calls it too.
function fitToWindow(panel, keep) {
  if (!panel) return () => {};
  const fit = () => {
    if (!panel.checkVisibility()) return;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const box = panel.getBoundingClientRect();
    const last = (keep || []).at(-1);  // what follows the panel down to it, margins in
    const below = last ? last.getBoundingClientRect().bottom
      + parseFloat(getComputedStyle(last).marginBottom) - box.bottom : 0;
    const hint = panel.nextElementSibling;  // scrollHint's line, room kept while hidden
    const shown = hint && hint.classList.contains("scroll-hint") && !hint.hidden;
    const room = innerHeight - (box.top + scrollY) - below - (shown ? 0 : 2.2 * rem) - 0.5 * rem;
    panel.style.maxHeight = Math.max(8 * rem, Math.floor(room)) + "px";
  };
  addEventListener("resize", fit);
  fit();
  return fit;
}

// A "Next" that one press ends one thing only [issue 43]: after each press,
// and after each change of stage the page shows (`stage(n)`), the button is
// locked for `ms` — `aria-disabled`, class "locked" (dimmed, "…"), its focus
// kept — so a key's repeat, a double tap, or a press meant for the step that
// just ended (a GM reacts in 0.2–0.5 s) lands in the lock and sends nothing.
//
//   const next = lockout($("skip"), 600, () => send());  // a click sends, unless locked
//   next.stage(view.pace.stage);                         // a new stage shown: locked
function lockout(button, ms, press) {
  let until = 0;
  let timer = 0;
  let shown = null;  // the stage shown last
  function lock() {
    until = performance.now() + ms;
    button.setAttribute("aria-disabled", "true");
    button.classList.add("locked");
    clearTimeout(timer);
    timer = setTimeout(() => {
      button.removeAttribute("aria-disabled");
      button.classList.remove("locked");
    }, ms);
  }
  button.addEventListener("keydown", (e) => {
    if (e.repeat && (e.key === "Enter" || e.key === " ")) e.preventDefault();  // a held key: one press
  });
  button.addEventListener("click", (e) => {
    if (performance.now() < until) { e.preventDefault(); return; }
    lock();
    press();
  });
  return {
    stage(n) {
      if (shown !== null && n !== shown) lock();
      shown = n;
    },
  };
}
