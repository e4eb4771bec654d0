"""The play surface of the game board: an anywidget (its JavaScript and CSS ship in this file).

Plain ipywidgets cannot keep keyboard focus on a board whose move buttons change every
turn, move between cards with the arrow keys, or style a focus ring, so the play surface
is one small anywidget (no build step, nothing loaded from a CDN).  Python sends whole
"frames" (what the board shows); the browser shows them one after another, ``delay``
seconds apart, so a student sees their own move before the computer's reply.  All game
logic stays in Python: the browser only reports "card 15 clicked", "'15' typed", "pass".

>>> view = BoardView()
>>> view.show([{"number": "60", "turn": "Your turn"}])
>>> view.frames[-1]["number"], view.seq
('60', 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

__all__ = ["BOARD_CSS", "BOARD_ESM", "BoardView", "Disclosure", "Fold", "Guard", "Styles"]

BOARD_ESM = r"""
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Icons drawn inline (no emoji font needed): a star for a win, a cross for a loss, a flag otherwise.
const ICONS = {
  win: '<path fill="currentColor" d="M12 1.5l3.1 6.6 7.2.8-5.4 4.9 1.5 7.1L12 17.3l-6.4 3.6 1.5-7.1L1.7 8.9l7.2-.8z"/>',
  loss: '<path fill="none" stroke="currentColor" stroke-width="3.4" stroke-linecap="round" d="M5 5l14 14M19 5L5 19"/>',
  neutral: '<path fill="currentColor" d="M5 2h2v20H5zM8 3h12l-3 5 3 5H8z"/>',
};
const SVG = '<svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">';

function render({ model, el: host }) {
  const root = el("div", "dg-root");
  root.tabIndex = -1;
  root.setAttribute("data-lm-suppress-shortcuts", "true");  // JupyterLab: keys here are the board's
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "Game board");
  const head = el("div", "dg-head");
  const title = el("span", "dg-title");
  const score = el("span", "dg-score");
  head.append(title, score);
  const numberLabel = el("div", "dg-number-label", "Current number");
  const number = el("div", "dg-number");
  number.setAttribute("aria-label", "current number");
  const turn = el("div", "dg-turn");
  const instruction = el("div", "dg-instruction");
  const result = el("div", "dg-result");
  result.hidden = true;
  const message = el("div", "dg-message");
  const cards = el("div", "dg-cards");
  cards.setAttribute("role", "group");
  cards.setAttribute("aria-label", "Your moves: arrow keys move between cards, Enter plays one");
  const picture = el("figure", "dg-picture");
  const pictureSvg = el("div", "dg-picture-svg");
  pictureSvg.setAttribute("aria-hidden", "true");  // the caption says it in words
  const caption = el("figcaption", "dg-picture-caption");
  caption.id = "dg-caption-" + Math.random().toString(36).slice(2);
  picture.append(pictureSvg, caption);
  picture.hidden = true;
  const more = el("div", "dg-more");
  const entryRow = el("div", "dg-entry-row");
  const entryLabel = el("label", "dg-entry-label", "Type a divisor");
  const entry = el("input", "dg-entry");
  entry.type = "text";
  entry.inputMode = "numeric";
  entry.autocomplete = "off";
  entry.id = "dg-entry-" + Math.random().toString(36).slice(2);
  entryLabel.htmlFor = entry.id;
  const playBtn = el("button", "dg-play", "Play");
  const passBtn = el("button", "dg-pass", "Pass");
  entryRow.append(entryLabel, entry, playBtn, passBtn);
  const againRow = el("div", "dg-again-row");
  const againBtn = el("button", "dg-again", "New game");
  const rematchBtn = el("button", "dg-rematch", "Rematch");
  againRow.append(againBtn, rematchBtn);
  const busyNote = el("div", "dg-busy-note", "Working…");
  busyNote.setAttribute("aria-hidden", "true");
  const live = el("div", "dg-live");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "status");
  root.append(head, numberLabel, number, turn, result, instruction, cards, more, entryRow, againRow, message,
              busyNote, picture, live);
  host.append(root);

  let frame = {};
  let timers = [];
  let lastFocus = null;   // "entry", "card:<i>", "pass", "again", "rematch"
  let acted = false;      // the student acted on this board: focus comes back to it
  let pending = false;    // a move was sent and its answer has not been shown yet: clicks and keys wait
  let pendingTimer = null;

  function setPending(on) {
    pending = on;
    root.classList.toggle("dg-busy", on);
    root.setAttribute("aria-busy", on ? "true" : "false");
    clearTimeout(pendingTimer);
    if (on) pendingTimer = setTimeout(() => setPending(false), 30000);  // a kernel that never answers
  }

  // One action at a time: a second click (a double-click) before the answer is shown is ignored, and the
  // kernel ignores an action sent from a position it has already left (the view's seq).
  function send(msg) {
    if (pending) return false;
    acted = true;
    setPending(true);
    const v = model.get("view") || {};
    model.send(Object.assign({}, msg, { seq: v.seq }));
    return true;
  }

  function focusKind() {
    const a = document.activeElement;
    if (!root.contains(a)) return null;
    if (a === entry) return "entry";
    if (a === passBtn) return "pass";
    if (a === againBtn) return "again";
    if (a === rematchBtn) return "rematch";
    if (a && a.classList.contains("dg-card")) return "card:" + a.dataset.index;
    return "root";
  }

  function cardButtons() { return Array.from(cards.querySelectorAll(".dg-card")); }

  function restoreFocus(kind) {
    if (!kind) return;
    const cs = cardButtons();
    if (frame.over) { againBtn.focus(); return; }
    if (frame.thinking) {
      if (kind === "entry") entry.focus(); else root.focus();
      return;
    }
    if (kind === "entry" && frame.can_type) { entry.focus(); return; }
    if (frame.can_pass && !cs.length) { passBtn.focus(); return; }
    if (kind.startsWith("card:") && cs.length) {
      const i = Math.min(parseInt(kind.slice(5), 10), cs.length - 1);
      moveTo(i);
      return;
    }
    if (kind === "pass" && !passBtn.hidden) { passBtn.focus(); return; }
    if (cs.length) { moveTo(0); return; }
    if (frame.can_type) { entry.focus(); return; }
    root.focus();
  }

  function moveTo(i) {
    const cs = cardButtons();
    if (!cs.length) return;
    i = (i + cs.length) % cs.length;
    cs.forEach((c, k) => { c.tabIndex = k === i ? 0 : -1; });
    cs[i].focus();
    showPicture(i);
  }

  // The rectangle of dots for card i (or the board's own picture when there is no card).
  function showPicture(i) {
    const list = frame.cards || [];
    const p = list.length ? (list[i] || list[0]).picture : frame.picture;
    if (!p || !frame.pictures) { picture.hidden = true; return; }
    picture.hidden = false;
    picture.dataset.d = list.length ? String((list[i] || list[0]).d) : "";
    pictureSvg.innerHTML = p.svg;
    caption.textContent = p.alt;
  }

  function focusedIndex() {
    const a = document.activeElement;
    return a && a.classList.contains("dg-card") && cards.contains(a) ? parseInt(a.dataset.index, 10) : 0;
  }

  function show(f) {
    frame = f;
    root.classList.toggle("dg-large", !!model.get("large"));
    title.textContent = f.title || "";
    score.textContent = f.score || "";
    number.textContent = f.number || "";
    turn.textContent = f.turn || "";
    turn.className = "dg-turn dg-turn-" + (f.turn_kind || "you");
    instruction.textContent = f.instruction || "";
    if (f.result) {
      result.hidden = false;
      result.className = "dg-result dg-result-" + f.result.kind;
      result.replaceChildren();
      const icon = el("span", "dg-icon");
      icon.innerHTML = SVG + (ICONS[f.result.kind] || ICONS.neutral) + "</svg>";
      icon.setAttribute("aria-hidden", "true");
      const headline = el("span", "dg-headline", f.result.headline);
      const why = el("div", "dg-why", f.result.why || "");
      result.append(icon, headline, why);
    } else {
      result.hidden = true;
    }
    message.replaceChildren();
    if (f.message && f.message.text) {
      const m = el("div", f.message.error ? "dg-error" : "dg-info");
      if (f.message.error) {
        m.setAttribute("role", "alert");
        m.append(el("b", "", (f.words && f.words.problem) || "Problem:"), document.createTextNode(" "));
      }
      // A move ("30 ÷ 6 = 5") never breaks across lines.
      const move = /(\d[\d\u2009,]* [\u2212\u00f7\u00d7+] \d[\d\u2009,]* = \d[\d\u2009,]*)/;
      f.message.text.split(move).forEach((part, i) => {
        m.append(i % 2 ? el("span", "dg-nowrap", part) : document.createTextNode(part));
      });
      message.append(m);
    }
    const old = cardButtons();
    const list = f.cards || [];
    // Reuse the card buttons (same count keeps the same elements, so focus is not lost).
    for (let i = 0; i < list.length; i++) {
      let c = old[i];
      if (!c) {
        c = el("button", "dg-card");
        c.dataset.index = String(i);
        c.addEventListener("click", () => {
          if (pending) return;
          lastFocus = "card:" + c.dataset.index;
          send({ kind: "card", d: Number(c.dataset.d) });
        });
        c.addEventListener("focus", () => showPicture(parseInt(c.dataset.index, 10)));
        c.addEventListener("mouseenter", () => showPicture(parseInt(c.dataset.index, 10)));
        cards.append(c);
      }
      const card = list[i];
      c.dataset.d = String(card.d);
      c.className = "dg-card duel-move duel-move-" + card.d + (card.tag ? " dg-tag-" + card.tag : "");
      c.replaceChildren();
      c.append(el("span", "dg-card-move", card.text));
      if (card.tag) c.append(el("span", "dg-card-tag", card.tag_text));
      c.title = card.tip || "";
      c.setAttribute("aria-label", card.label || card.text);
      if (f.pictures && card.picture) c.setAttribute("aria-describedby", caption.id);
      else c.removeAttribute("aria-describedby");
      c.tabIndex = i === 0 ? 0 : -1;
    }
    for (let i = list.length; i < old.length; i++) old[i].remove();
    cards.hidden = !list.length;
    showPicture(focusedIndex());
    more.textContent = f.more || "";
    entryRow.hidden = !(f.can_type || f.can_pass || f.thinking);
    entry.readOnly = !f.can_type;
    entry.setAttribute("aria-disabled", f.can_type ? "false" : "true");
    playBtn.hidden = !f.can_type;
    entry.hidden = entryLabel.hidden = !f.can_type && !f.thinking;
    passBtn.hidden = !f.show_pass;
    passBtn.disabled = !f.can_pass;
    againRow.hidden = !f.over;
    if (f.words) {
      entryLabel.textContent = f.words.entry_label;
      playBtn.textContent = f.words.play;
      passBtn.textContent = f.words.pass;
      againBtn.textContent = f.words.play_again;
      rematchBtn.textContent = f.words.rematch;
    }
    if (f.announce) live.textContent = f.announce;
  }

  function play(steps, delay) {
    timers.forEach(clearTimeout);
    timers = [];
    const kind = focusKind() || (acted ? lastFocus : null);
    if (!steps.length) setPending(false);
    steps.forEach((f, i) => {
      const run = () => {
        show(f);
        restoreFocus(kind);
        if (i === steps.length - 1) { acted = false; setPending(false); }
      };
      if (i === 0 || delay <= 0) run();
      else timers.push(setTimeout(run, i * delay * 1000));
    });
  }

  function submitTyped() {
    const text = entry.value;
    if (pending || !frame.can_type) return;  // the text stays in the box
    lastFocus = "entry";
    if (send({ kind: "typed", text })) entry.value = "";
  }

  entry.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); submitTyped(); }
  });
  playBtn.addEventListener("click", () => { submitTyped(); entry.focus(); });
  passBtn.addEventListener("click", () => { lastFocus = "pass"; send({ kind: "pass" }); });
  againBtn.addEventListener("click", () => { lastFocus = "card:0"; send({ kind: "again" }); });
  rematchBtn.addEventListener("click", () => { lastFocus = "card:0"; send({ kind: "rematch" }); });

  cards.addEventListener("keydown", (e) => {
    const cs = cardButtons();
    const i = cs.indexOf(document.activeElement);
    if (i < 0) return;
    if (pending) { if (e.key !== "Tab") e.preventDefault(); return; }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (step) { e.preventDefault(); moveTo(i + step); return; }
    if (e.key === "Home") { e.preventDefault(); moveTo(0); return; }
    if (e.key === "End") { e.preventDefault(); moveTo(cs.length - 1); return; }
    if (/^[0-9]$/.test(e.key) && frame.can_type) {
      // Typing a number on a card starts typing it in the box.
      e.preventDefault();
      entry.value = e.key;
      entry.focus();
    }
  });
  cards.addEventListener("mouseleave", () => showPicture(focusedIndex()));

  const update = () => {
    const v = model.get("view") || {};
    play(v.steps || [], model.get("delay"));
  };
  model.on("change:view", update);
  model.on("change:large", () => root.classList.toggle("dg-large", !!model.get("large")));
  model.on("change:focus_request", () => {
    root.scrollIntoView({ block: "nearest" });
    acted = true;
    restoreFocus("card:0");
  });
  update();
  return () => { timers.forEach(clearTimeout); clearTimeout(pendingTimer); };
}

export default { render };
"""

GUARD_ESM = r"""
// The boards built from ipywidgets (sum board, follow best play, the builder, the game board's own buttons):
// one action at a time, focus kept on the board after a move, and a live region for what happened.
const BOXES = ".duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder";

function render({ model, el }) {
  const live = document.createElement("div");
  live.className = "dg-live";
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "status");
  el.append(live);
  let busy = false, timer = null, last = null, seen = model.get("done"), watching = 0;
  const box = () => el.closest(BOXES);

  function setBusy(on) {
    busy = on;
    const b = box();
    if (b) { b.classList.toggle("dg-busy", on); b.setAttribute("aria-busy", on ? "true" : "false"); }
    clearTimeout(timer);
    if (on) timer = setTimeout(() => setBusy(false), 30000);  // a kernel that never answers
  }

  // Where the focus was: the row and place of a sum-board move, or the button's own class.
  function where(btn) {
    const row = btn.closest(".sum-row");
    if (row && btn.classList.contains("sum-move")) {
      const moves = Array.from(row.querySelectorAll(".sum-move"));
      const r = Array.from(row.classList).find((c) => /^sum-row-\d+$/.test(c));
      return { row: r, index: moves.indexOf(btn) };
    }
    const own = Array.from(btn.classList).find((c) => c.startsWith("duel-") || c.startsWith("sum-"));
    return { cls: own };
  }

  function target() {
    const b = box();
    if (!b || !last) return null;
    const enabled = (sel) => Array.from(b.querySelectorAll(sel)).filter((x) => !x.disabled && x.offsetParent);
    if (last.row) {
      const same = enabled("." + last.row + " .sum-move");
      if (same.length) return same[Math.min(last.index, same.length - 1)];
      const any = enabled(".sum-move");
      if (any.length) return any[0];
      return enabled(".sum-new")[0] || null;
    }
    if (last.cls) return enabled("." + last.cls)[0] || null;
    return null;
  }

  // After the answer: while the board redraws (new buttons arrive a little later), put the focus back on it
  // whenever it falls out of the board (to <body>, when the focused button is replaced).
  let seenButtons = new WeakSet();
  function keepFocus() {
    const b0 = box();
    seenButtons = new WeakSet(b0 ? Array.from(b0.querySelectorAll("button")) : []);
    const until = performance.now() + 6000, id = ++watching;  // a loaded machine draws the new buttons late
    const step = () => {
      if (id !== watching) return;
      const b = box(), a = document.activeElement;
      let done = false;
      if (b && focusWasHere && (!a || a === document.body || (b.contains(a) && a.disabled))) {
        const t = target();
        if (t) t.focus();
      } else if (b && a && b.contains(a) && a.isConnected && last && last.row && a.classList.contains("sum-move")
                 && !a.disabled && !seenButtons.has(a)) {
        done = true;  // on a new move button: the board has been redrawn
      }
      if (!done && performance.now() < until) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  function onClick(e) {
    const b = box();
    if (!b || !b.contains(e.target)) return;
    const btn = e.target.closest("button.dg-guarded");
    if (!btn || btn.closest(BOXES) !== b) return;
    if (busy) { e.stopImmediatePropagation(); e.preventDefault(); return; }
    if (btn.disabled) return;
    last = where(btn);
    setBusy(true);
  }
  document.addEventListener("click", onClick, true);
  // Whether the last element that had the focus is in this view (focus that falls to <body> from a removed
  // button of this view comes back here; another view's lost focus is not this view's business).
  let focusWasHere = false;
  const onFocus = (e) => { const b = box(); focusWasHere = !!(b && b.contains(e.target)); };
  document.addEventListener("focusin", onFocus, true);

  model.on("change:done", () => {
    if (model.get("done") === seen) return;
    seen = model.get("done");
    setBusy(false);
    keepFocus();
  });
  model.on("change:announce", () => { live.textContent = model.get("announce"); });
  return () => {
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("focusin", onFocus, true);
    clearTimeout(timer);
    watching++;
  };
}

export default { render };
"""

DISCLOSURE_ESM = r"""
// A section that folds away (Settings, Game so far): a real button, so Tab reaches it and Enter or Space opens
// it, with its state announced (aria-expanded).
const CHEVRON = '<svg class="dg-chevron" viewBox="0 0 16 16" width="0.9em" height="0.9em" aria-hidden="true">' +
  '<path fill="none" stroke="currentColor" stroke-width="2.4" d="M5 2.5l5.5 5.5L5 13.5"/></svg>';

function render({ model, el }) {
  const b = document.createElement("button");
  b.className = "dg-disclosure";
  b.type = "button";
  const label = document.createElement("span");
  b.innerHTML = CHEVRON;
  b.append(label);
  el.append(b);
  const sync = () => {
    label.textContent = model.get("label");
    b.setAttribute("aria-expanded", model.get("expanded") ? "true" : "false");
  };
  b.addEventListener("click", () => {
    model.set("expanded", !model.get("expanded"));
    model.save_changes();
    sync();
  });
  model.on("change:expanded", sync);
  model.on("change:label", sync);
  sync();
}

export default { render };
"""

BOARD_CSS = r"""
/* Colours come from JupyterLab's theme (its --jp-* variables), with a light fallback elsewhere; the accents
   have a light and a dark set, each at least 4.5:1 against its background (measured by the browser tests). */
.duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder, .duel-app {
  --dg-ink: var(--jp-ui-font-color0, #111); --dg-ink2: var(--jp-ui-font-color1, rgba(0, 0, 0, 0.87));
  --dg-bg: var(--jp-layout-color0, #fff); --dg-card-bg: var(--jp-layout-color0, #fff);
  --dg-line: #555; --dg-soft: #f2f2f2;
  --dg-win: #005c40; --dg-win-bg: #dff3ea; --dg-loss: #8f2d00; --dg-loss-bg: #fde8dc;
  --dg-turn: #0b4f8a; --dg-turn-bg: #e4effa; --dg-p2: #5a1f78; --dg-p2-bg: #f1e6f7;
  --dg-error: #8a0018; --dg-error-bg: #fff0f2; --dg-error-line: #b00020;
  --dg-pass: #5c4200; --dg-pass-bg: #fff3c4; --dg-hover: #f2f7ff;
  --dg-on-accent: #fff; --dg-ring: #000; --dg-ring-in: #fff; --dg-halo: #ffbf00;
  color: var(--dg-ink);
}
body[data-jp-theme-light="false"] :is(.duel-board, .sum-board, .duel-explorer, .duel-follow-game,
  .duel-variant-builder, .duel-app) {
  --dg-line: #aaa; --dg-soft: #2a2a2a;
  --dg-win: #7fe0b6; --dg-win-bg: #0c2b20; --dg-loss: #ffb38a; --dg-loss-bg: #36190b;
  --dg-turn: #9fcbff; --dg-turn-bg: #0f2538; --dg-p2: #e2bcff; --dg-p2-bg: #2a1534;
  --dg-error: #ffa3b1; --dg-error-bg: #3a0d16; --dg-error-line: #ff6b81;
  --dg-pass: #ffe08a; --dg-pass-bg: #342800; --dg-hover: #1b2a3a;
  --dg-on-accent: #000; --dg-ring: #fff; --dg-ring-in: #000; --dg-halo: #ffbf00;
}
.dg-root { font-family: system-ui, "DejaVu Sans", sans-serif; font-size: 1rem; color: var(--dg-ink);
  padding: 4px 2px 8px; }
.dg-root.dg-large { font-size: 1.45rem; }
.dg-root:focus { outline: none; }
.dg-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 4px 16px; font-size: 1.05em; }
.dg-title { font-weight: 600; }
.dg-score { font-variant-numeric: tabular-nums; }
.dg-number-label { margin-top: 6px; font-size: 0.95em; color: var(--dg-ink2); }
.dg-number { font-size: 3.6em; font-weight: 800; line-height: 1.05; overflow-wrap: anywhere;
  font-variant-numeric: tabular-nums; }
.dg-turn { display: inline-block; margin: 6px 0 4px; padding: 4px 14px; border-radius: 999px; font-size: 1.35em;
  font-weight: 700; border: 3px solid currentColor; }
.dg-turn-you::before, .dg-turn-p1::before, .dg-turn-p2::before { content: ""; display: inline-block;
  border-style: solid; border-width: 0.32em 0 0.32em 0.5em;
  border-color: transparent transparent transparent currentColor;
  margin-right: 0.4em; vertical-align: 0.05em; }
.dg-turn-you, .dg-turn-p1 { color: var(--dg-turn); background: var(--dg-turn-bg); }
.dg-turn-p2 { color: var(--dg-p2); background: var(--dg-p2-bg); }
.dg-turn-thinking { color: var(--dg-ink); background: var(--dg-soft); border-style: dashed; }
.dg-turn-over { display: none; }
.dg-instruction { font-size: 1.1em; margin: 2px 0 8px; }
.dg-result { margin: 8px 0; padding: 10px 16px; border-radius: 10px; border: 4px solid currentColor; max-width: 44em; }
.dg-result-win { color: var(--dg-win); background: var(--dg-win-bg); }
.dg-result-loss { color: var(--dg-loss); background: var(--dg-loss-bg); border-style: dashed; }
.dg-result-neutral { color: var(--dg-ink); background: var(--dg-soft); }
.dg-icon { font-size: 2em; margin-right: 10px; vertical-align: middle; display: inline-block; line-height: 1; }
.dg-icon svg { display: block; }
.dg-headline { font-size: 1.8em; font-weight: 800; vertical-align: middle; }
.dg-why { color: var(--dg-ink); font-size: 1.05em; margin-top: 4px; }
.dg-cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0; }
.dg-card { font: inherit; font-size: 1.35em; font-weight: 600; min-width: 6.5em; padding: 6px 14px;
  background: var(--dg-card-bg); color: var(--dg-ink); border: 2px solid var(--dg-line); border-radius: 10px;
  cursor: pointer; box-shadow: 0 2px 0 var(--dg-line); display: inline-flex; flex-direction: column;
  align-items: center; }
.dg-card:hover { background: var(--dg-hover); border-color: var(--dg-turn); }
.dg-card-tag { font-size: 0.7em; font-weight: 700; margin-top: 2px; }
.dg-tag-P { border-color: var(--dg-win); border-width: 3px; }
.dg-tag-P .dg-card-tag { color: var(--dg-win); }
.dg-tag-N { border-style: dashed; }
.dg-tag-N .dg-card-tag { color: var(--dg-loss); }
.dg-picture { margin: 6px 0 4px; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; }
.dg-picture-svg { color: var(--dg-ink); line-height: 0; }
.dg-large .dg-picture-svg { zoom: 1.45; }
.dg-picture-caption { font-size: 0.95em; max-width: 34em; }
.dg-dots .dg-kept { fill: currentColor; stroke: currentColor; }
.dg-dots .dg-gone { fill: none; stroke: currentColor; stroke-width: 1.2; stroke-dasharray: 2 2; }
.dg-more { font-size: 0.95em; }
.dg-entry-row, .dg-again-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 8px 0; }
.dg-entry-label { font-size: 1.1em; }
.dg-entry { font: inherit; font-size: 1.4em; width: 6em; padding: 4px 8px; border: 2px solid var(--dg-line);
  border-radius: 6px; color: var(--dg-ink); background: var(--dg-card-bg); }
.dg-play, .dg-pass, .dg-again, .dg-rematch { font: inherit; font-size: 1.15em; padding: 6px 16px;
  border: 2px solid var(--dg-line); border-radius: 8px; background: var(--dg-soft); color: var(--dg-ink);
  cursor: pointer; }
.dg-pass:not([disabled]) { background: var(--dg-pass-bg); color: var(--dg-pass); border-color: var(--dg-pass); }
.dg-pass[disabled] { opacity: 0.55; cursor: default; }
.dg-again { background: var(--dg-turn); color: var(--dg-on-accent); border-color: var(--dg-turn); }
.dg-message { font-size: 1.05em; max-width: 46em; }
.dg-nowrap { white-space: nowrap; }
.dg-error, .duel-error { border-left: 6px solid var(--dg-error-line); padding: 4px 10px; color: var(--dg-error);
  background: var(--dg-error-bg); margin: 4px 0; white-space: normal; }
.dg-info, .duel-info { padding: 4px 10px; margin: 4px 0; }
.dg-live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.dg-root [hidden] { display: none !important; }
/* Busy: a move is being played and answered; clicks and keys wait (the board ignores them). */
.dg-busy-note { display: none; font-size: 0.95em; font-style: italic; }
.dg-root.dg-busy .dg-busy-note { display: block; }
.dg-busy, .dg-busy button { cursor: progress !important; }
.dg-busy .dg-card, .dg-busy button.dg-guarded { filter: saturate(0.4); }
/* A focus ring a projector shows on every control, light or dark: 3 px next to the control, then 4 px in the
   opposite colour, then 3 px amber (each ring contrasts with its neighbours, so one of them stands out on any
   colour). Shadows, not outlines, so every browser draws the same widths; the transparent outline is what Windows'
   high-contrast mode shows instead. :focus-visible: after a keyboard move, not after every click (text boxes
   and menus show it on click too). Containers keep 12 px of room so no edge clips the ring. */
.duel-board :focus-visible, .sum-board :focus-visible, .duel-explorer :focus-visible,
.duel-follow-game :focus-visible, .duel-variant-builder :focus-visible, .duel-app :focus-visible {
  outline: 3px solid transparent !important; outline-offset: 0 !important;
  box-shadow: 0 0 0 3px var(--dg-ring-in), 0 0 0 7px var(--dg-ring), 0 0 0 10px var(--dg-halo) !important;
  position: relative; z-index: 1;
}
.duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder { padding: 0 12px 12px; }
.duel-board .widget-box, .sum-board .widget-box, .duel-explorer .widget-box, .duel-follow-game .widget-box,
.duel-variant-builder .widget-box { overflow: visible; }
/* Settings and Game so far: a button that opens its section (views.board_view.Disclosure). */
.dg-disclosure { font: inherit; font-size: 1.05rem; font-weight: 600; display: flex; align-items: center; gap: 0.5em;
  width: 100%; text-align: left; padding: 6px 10px; margin: 4px 0 0; color: var(--dg-ink); background: var(--dg-soft);
  border: 1px solid var(--dg-line); border-radius: 6px; cursor: pointer; }
.dg-disclosure .dg-chevron { transition: transform 0.15s; flex: none; }
.dg-disclosure[aria-expanded="true"] .dg-chevron { transform: rotate(90deg); }
.duel-large-type .dg-disclosure { font-size: 1.4rem; }
.duel-fold-body { padding: 4px 8px; border: 1px solid var(--dg-line); border-top: none; }
/* The text fallback (views.common.show_with_fallback) is for pages where widgets do not run: hidden here. */
.duel-fallback { display: none !important; }
.jp-OutputArea-child:has(.duel-fallback), .output_area:has(.duel-fallback) { display: none !important; }
/* Plots at their natural size, shrunk in a narrow window only while their text stays 10 px or more
   (views.common.figure_output); narrower still, the plot scrolls sideways. */
.duel-plot { overflow-x: auto; margin: 0 -12px; }  /* the full width: no focus ring to make room for */
.duel-plot .jp-RenderedHTMLCommon { padding-right: 0; }
/* The app's tabs (notebooks/play.ipynb): labels as large as the board's buttons. */
.duel-app .lm-TabBar-tab { font-size: 1.05rem !important; min-height: 2.2em; line-height: 2em;
  color: var(--dg-ink) !important; }
.duel-app .lm-TabBar-tab:not(.lm-mod-current) { background: var(--dg-soft) !important; }
.duel-app .duel-projector { width: auto; }
.duel-app .lm-TabBar-tab { flex: 0 0 auto !important; max-width: none !important; }  /* never cut a tab's name */
.duel-app.duel-large-type .lm-TabBar-tab { font-size: 1.4rem !important; }
.duel-app.duel-large-type .lm-TabBar { min-height: 2.6em; }
/* Hint, Explain, Show P/N and the settings' buttons: readable from the back of the room, not 13 px grey chips. */
:is(.duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder, .duel-app) .jupyter-button {
  font-size: 1.05rem; height: auto; min-height: 2.2em; padding: 2px 14px; }
:is(.duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder) :is(.widget-label,
  .widget-html-content, .widget-dropdown select, .widget-text input, .widget-readout, .widget-checkbox label,
  .widget-inline-hbox > label) { font-size: 0.95rem; }
:is(.duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder) .widget-dropdown select {
  width: auto; flex: 0 1 auto; max-width: 100%; }
:is(.duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder) .widget-dropdown {
  width: auto; max-width: 100%; }
.duel-board .duel-coach, .duel-board .duel-history-box { font-size: 1.05rem; line-height: 1.45; }
.duel-coach-text p { margin: 0 0 0.5em; white-space: normal; overflow-wrap: normal; word-break: normal; }
.duel-coach-text .duel-old { color: var(--dg-ink2); border-top: 1px solid var(--dg-line); padding-top: 4px; }
.sum-board .sum-title, .sum-board .sum-status, .sum-board .sum-message, .sum-board .sum-history,
.sum-board .sum-row-label, .duel-follow-game .duel-follow-view { font-size: 1.05rem; }
.sum-board .sum-status .widget-html-content, .sum-board .sum-title .widget-html-content,
.sum-board .sum-history .widget-html-content, .sum-board .sum-row-label .widget-html-content,
.sum-board .sum-message .widget-html-content, .duel-follow-game .duel-follow-view .widget-html-content {
  font-size: inherit; line-height: 1.45; }
.sum-board .sum-history pre { font-size: 0.95rem; }
.duel-variant-out pre { white-space: pre !important; overflow-x: auto; }  /* a table's rows never wrap mid-word */
.sum-board .sum-status .sum-over { border: 3px solid var(--dg-ink); border-radius: 6px; padding: 6px 10px; }
.sum-board .sum-move { font-size: 1.15rem; }
/* Projector mode (large=True): every text bigger than normal type, nothing smaller. */
.duel-large-type { font-size: 1.3rem; }
.duel-large-type :is(.widget-label, .widget-html-content, .jupyter-button, .widget-dropdown select,
  .widget-text input, .widget-readout, .widget-checkbox label, .widget-inline-hbox > label, .widget-toggle-button,
  .widget-html-content *) { font-size: 1.4rem !important; line-height: 1.4 !important; }
.duel-large-type .sum-move { font-size: 1.55rem !important; }
.duel-large-type .widget-output pre, .duel-large-type .jp-OutputArea-output pre { font-size: 1.2rem !important; }
.duel-large-type .widget-inline-hbox, .duel-large-type .widget-text, .duel-large-type .widget-dropdown {
  height: auto; min-height: 2em; }
.duel-large-type input[type="checkbox"] { width: 1.3em; height: 1.3em; }
.duel-large-type .widget-toggle-buttons .widget-toggle-button { width: auto; min-width: 7em; }
@media (forced-colors: active) {
  .dg-card, .dg-turn, .dg-result, .dg-disclosure { border-color: CanvasText; }
  .dg-dots .dg-kept { fill: CanvasText; stroke: CanvasText; }
  .dg-dots .dg-gone { stroke: CanvasText; }
}
"""


class Guard(anywidget.AnyWidget):
    """The boards' CSS, and for views built from ipywidgets: one action at a time, focus kept, a live region.

    Put one in a container (``.sum-board``, ``.duel-follow-game``, ...).  A click on a button of the
    container marked ``dg-guarded`` makes the container busy until Python has handled it (``done``
    changes, see :meth:`guarded`); clicks meanwhile are ignored, so a double-click acts once.  Then the
    focus goes back to the board if the clicked button was replaced.  ``announce`` is read out by
    screen readers (a polite live region).

    >>> guard = Guard()
    >>> calls = []
    >>> handler = guard.guarded(lambda: calls.append(1))
    >>> handler(None); calls, guard.done
    ([1], 1)
    """

    _esm = traitlets.Unicode(GUARD_ESM).tag(sync=True)
    _css = traitlets.Unicode(BOARD_CSS).tag(sync=True)
    done = traitlets.Int(0).tag(sync=True)
    announce = traitlets.Unicode("").tag(sync=True)

    def guarded(self, action: Callable[[], object]) -> Callable[[Any], None]:
        """A button handler that runs ``action`` and then tells the browser it is done."""

        def handler(_button: Any) -> None:
            try:
                action()
            finally:
                self.done += 1

        return handler

    def say(self, text: str) -> None:
        """Announce ``text`` to screen readers (again, even if it is the same as last time)."""
        self.announce = ""
        self.announce = text


#: The name views used before the guard: only the CSS.
Styles = Guard


class Disclosure(anywidget.AnyWidget):
    """A button that opens and folds a section, with aria-expanded (Settings, Game so far)."""

    _esm = traitlets.Unicode(DISCLOSURE_ESM).tag(sync=True)
    _css = traitlets.Unicode(BOARD_CSS).tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    expanded = traitlets.Bool(False).tag(sync=True)


class Fold(w.VBox):  # type: ignore[misc]
    """A section under a :class:`Disclosure` button: ``fold.expanded = True`` shows it.

    >>> fold = Fold("Settings", w.Label("inside"))
    >>> fold.body.layout.display, fold.toggle.expanded
    ('none', False)
    >>> fold.expanded = True
    >>> fold.body.layout.display
    ''
    """

    def __init__(self, label: str, *children: w.Widget, css: str = "") -> None:
        self.toggle = Disclosure(label=label)
        self.body = w.VBox(list(children)).add_class("duel-fold-body")
        super().__init__([self.toggle, self.body])
        if css:
            self.add_class(css)
        self.toggle.observe(lambda _: self._show(), names="expanded")
        self._show()

    def _show(self) -> None:
        self.body.layout.display = "" if self.toggle.expanded else "none"

    @property
    def expanded(self) -> bool:
        """Whether the section is shown."""
        return bool(self.toggle.expanded)

    @expanded.setter
    def expanded(self, value: bool) -> None:
        self.toggle.expanded = bool(value)


class BoardView(anywidget.AnyWidget):
    """The board's play surface: shows frames, reports the student's actions to ``on_action``."""

    _esm = traitlets.Unicode(BOARD_ESM).tag(sync=True)
    _css = traitlets.Unicode(BOARD_CSS).tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    delay = traitlets.Float(0.6).tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    focus_request = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seq = 0
        self.on_action: Callable[[dict[str, Any]], None] | None = None
        self.on_msg(self._received)

    @property
    def frames(self) -> list[dict[str, Any]]:
        """The frames last sent (the last one is what the board shows when they have played)."""
        return list(self.view.get("steps", []))

    def show(self, frames: list[dict[str, Any]]) -> None:
        """Send frames to the browser, shown one after another ``delay`` seconds apart."""
        self.seq += 1
        self.view = {"steps": frames, "seq": self.seq}

    def request_focus(self) -> None:
        """Scroll the board into view and put the focus on its first card (or what the student can use)."""
        self.focus_request += 1

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or self.on_action is None:
            return
        seq = content.get("seq")
        if isinstance(seq, int) and seq != self.seq:
            return  # sent from a position the board has already left (a second click of a double-click)
        self.on_action(content)
