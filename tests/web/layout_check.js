// The layout and language check a page runs on itself: see screens_kit.py.
(opts) => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  const se = document.scrollingElement;
  if (se.scrollWidth > W + 1) out.push(`sideways: the page is ${se.scrollWidth}px wide in ${W}px`);
  if (opts.tv && se.scrollHeight > H + 1) out.push(`tv-scroll: the page is ${se.scrollHeight}px tall in ${H}px`);
  const seen = (e) => e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  const label = (e) => {
    const t = (e.innerText || e.value || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : ""}> "${t}"`;
  };
  // text nodes shown on the page (selects and their options aside: checked apart)
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const p = n.parentElement;
    // (a screen reader's words, .sr-only, are not shown: no layout to check [issue 43])
    if (!p || p.closest("select, script, style, noscript, .sr-only") || !seen(p)) continue;
    texts.push(n);
  }
  const fixedOf = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const pos = getComputedStyle(a).position;
      if (pos === "fixed" || pos === "sticky") return a;
    }
    return null;
  };
  // a text scrolled out of a list that scrolls inside its panel is not on screen
  // (the text's own box may be the one that scrolls: the GM's long line [issue 44])
  const scrolledAway = (e, r) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (!(cs.overflowY === "auto" || cs.overflowY === "scroll")) continue;
      const ar = a.getBoundingClientRect();
      if (r.bottom > ar.bottom + 1 || r.top < ar.top - 1) return true;
    }
    return false;
  };
  // a text cut on purpose [issue 28]: in a box that ends it with "…"
  // (text-overflow: ellipsis, its overflow hidden; on its last line when it
  // is clamped to a few, -webkit-line-clamp [issue 30]) and holds its whole
  // text in its title; it is seen as far as that box shows it, and is not "cut"
  const flat = (s) => (s || "").trim().replace(/\s+/g, " ");
  const ellipsisOf = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.textOverflow !== "ellipsis" || cs.overflowX === "visible") continue;
      return flat(a.getAttribute("title")) === flat(a.textContent) ? a : null;
    }
    return null;
  };
  const within = (r, k) => {
    const left = Math.max(r.left, k.left), right = Math.min(r.right, k.right);
    const top = Math.max(r.top, k.top), bottom = Math.min(r.bottom, k.bottom);
    return new DOMRect(left, top, Math.max(0, right - left), Math.max(0, bottom - top));
  };
  // a player's name wider than the line it is laid in [issue 30]: names run
  // to 40 characters (forty "W" are 673 px at 17 px), so such a word can only
  // go on the next line, broken, or be cut with "…"; broken, it is shown
  // whole and is not "broken" (a word that would fit its line still is)
  const nameWords = new Set((opts.names || []).flatMap((nm) => nm.split(/\s+/)));
  const lineOf = (e) => {
    let a = e;  // the box its lines are laid in: the first that is not inline
    while (a.parentElement && ["inline", "contents"].includes(getComputedStyle(a).display)) a = a.parentElement;
    const cs = getComputedStyle(a);
    return a.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  };
  const wholeName = (word, rects, e) => [...nameWords].some((w) => w.includes(word) || word.includes(w)) &&
    rects.reduce((sum, r) => sum + r.width, 0) > lineOf(e) - 1;
  // a link laid on several lines (the printed sheet's seat links): not words
  const link = (n) => /^\s*https?:\/\/\S+\s*$/.test(n.textContent);
  const boxes = [];
  const owners = new Set();
  for (const n of texts) {
    const e = n.parentElement;
    owners.add(e);
    const range = document.createRange();
    range.selectNodeContents(n);
    const cutBox = ellipsisOf(e);
    const shown = cutBox && cutBox.getBoundingClientRect();
    for (const whole of range.getClientRects()) {
      const r = shown ? within(whole, shown) : whole;
      if (r.width < 1 || r.height < 1 || scrolledAway(e, r)) continue;
      boxes.push({r, e, n, fixed: fixedOf(e)});
    }
    // words broken inside: a Latin word laid on two lines
    const re = /[A-Za-z\u00C0-\u024F][A-Za-z\u00C0-\u024F'’-]*[A-Za-z\u00C0-\u024F]/g;
    let m;
    while ((m = re.exec(n.textContent))) {
      const w = document.createRange();
      w.setStart(n, m.index);
      w.setEnd(n, m.index + m[0].length);
      const rects = [...w.getClientRects()].filter((r) => r.width > 0);
      const tops = new Set(rects.map((r) => Math.round(r.top)));
      if (tops.size > 1 && !link(n) && !wholeName(m[0], rects, e)) out.push(`broken: "${m[0]}" is laid on ${tops.size} lines in ${label(e)}`);
    }
  }
  // cut: clipped by its own box, by a clipping ancestor, or by the window
  for (const e of owners) {
    const cs = getComputedStyle(e);
    const clips = (v) => v !== "visible";
    const onPurpose = ellipsisOf(e) === e;
    const clamped = onPurpose && cs.webkitLineClamp !== "none";  // its last line ends in "…"
    if ((clips(cs.overflowX) && !onPurpose && e.scrollWidth > e.clientWidth + 1) ||
        (clips(cs.overflowY) && !clamped && cs.overflowY !== "auto" && cs.overflowY !== "scroll" && e.scrollHeight > e.clientHeight + 1)) {
      out.push(`cut: ${label(e)} clips its text (${e.scrollWidth}×${e.scrollHeight} in ${e.clientWidth}×${e.clientHeight})`);
    }
    if (opts.tv && opts.minFont && parseFloat(cs.fontSize) < opts.minFont) {
      out.push(`small: ${label(e)} is ${cs.fontSize}`);
    }
  }
  for (const b of boxes) {
    if (b.r.right > W + 1 || b.r.left < -1) out.push(`cut: ${label(b.e)} runs out of the window (${Math.round(b.r.left)}..${Math.round(b.r.right)} of ${W})`);
    if (opts.tv && b.r.bottom > H + 1) out.push(`cut: ${label(b.e)} runs below the TV's edge (${Math.round(b.r.bottom)} > ${H})`);
    for (let a = b.e.parentElement; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const ar = a.getBoundingClientRect();
      const scrolls = (cs.overflowY === "auto" || cs.overflowY === "scroll") && a.scrollHeight > a.clientHeight + 1;
      if (scrolls) break;  // a list that scrolls: see the hint below
      if (b.r.right > ar.right + 1 || b.r.left < ar.left - 1 || b.r.bottom > ar.bottom + 1 || b.r.top < ar.top - 1) {
        out.push(`cut: ${label(b.e)} is clipped by ${label(a)}`);
        break;
      }
    }
  }
  // a select whose chosen option does not fit in it (unless it ends in "…":
  // its open list shows the option whole)
  const canvas = document.createElement("canvas").getContext("2d");
  for (const s of document.querySelectorAll("select")) {
    if (!seen(s) || s.selectedIndex < 0) continue;
    const cs = getComputedStyle(s);
    if (cs.textOverflow === "ellipsis") continue;
    canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16;
    const need = canvas.measureText(text).width;
    if (need > room + 1) out.push(`cut: the select ${label(s)} shows "${text}" (${Math.round(need)}px in ${Math.round(room)}px)`);
  }
  // lists that scroll inside their panel: a visible hint says so
  for (const a of document.body.querySelectorAll("*")) {
    const cs = getComputedStyle(a);
    if (!(cs.overflowY === "auto" || cs.overflowY === "scroll") || !seen(a) || a.matches("textarea, input")) continue;
    if (a.scrollHeight <= a.clientHeight + 1 || a === se) continue;
    const box = a.parentElement || a;
    const hint = [...box.querySelectorAll(".scroll-hint")].some(seen);
    if (!hint) out.push(`no-hint: ${label(a)} scrolls (${a.scrollHeight}px in ${a.clientHeight}px) with no hint`);
  }
  // overlap: two texts, or (TV: nothing scrolls) a fixed element over a text
  const meet = (p, q) => Math.min(p.right, q.right) - Math.max(p.left, q.left) > 2 &&
    Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 2;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const p = boxes[i], q = boxes[j];
      if (p.n === q.n) continue;
      if (!opts.tv && p.fixed !== q.fixed) continue;  // a bar over a page that scrolls under it
      if (meet(p.r, q.r)) out.push(`overlap: ${label(p.e)} and ${label(q.e)}`);
    }
  }
  if (opts.tv) {
    for (const f of document.body.querySelectorAll("button, [role=button]")) {
      if (!seen(f) || getComputedStyle(f).position !== "fixed") continue;
      const fr = f.getBoundingClientRect();
      for (const b of boxes) if (!f.contains(b.e) && meet(fr, b.r)) out.push(`overlap: ${label(f)} covers ${label(b.e)}`);
    }
  }
  // one language per page
  if (opts.lang) {
    let shown = texts.map((n) => n.textContent).join("\n");
    for (const name of opts.names || []) shown = shown.split(name).join(" ");
    for (const ok of opts.latinOk || []) shown = shown.split(ok).join(" ");
    if (opts.lang === "en") {
      const cjk = shown.match(/[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+/g);
      if (cjk) out.push(`cjk: ${[...new Set(cjk)].slice(0, 8).join(" ")}`);
    } else {
      const latin = shown.match(/[A-Za-z]{2,}/g);
      if (latin) out.push(`latin: ${[...new Set(latin)].slice(0, 8).join(" ")}`);
    }
  }
  return [...new Set(out)];
}
