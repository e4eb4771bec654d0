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
import traitlets

__all__ = ["BOARD_CSS", "BOARD_ESM", "BoardView", "Styles"]

BOARD_ESM = r"""
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function render({ model, el: host }) {
  const root = el("div", "dg-root");
  root.tabIndex = -1;
  root.setAttribute("data-lm-suppress-shortcuts", "true");  // JupyterLab: keys here are the board's
  root.setAttribute("role", "region");
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
  const live = el("div", "dg-live");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "status");
  root.append(head, numberLabel, number, turn, result, instruction, cards, more, entryRow, againRow, message, live);
  host.append(root);

  let frame = {};
  let timers = [];
  let lastFocus = null;   // "entry", "card:<i>", "pass", "again", "rematch"
  let acted = false;      // the student acted on this board: focus comes back to it

  function send(msg) { acted = true; model.send(msg); }

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
      const icon = el("span", "dg-icon", f.result.icon);
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
      m.append(document.createTextNode(f.message.text));
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
          lastFocus = "card:" + c.dataset.index;
          send({ kind: "card", d: Number(c.dataset.d) });
        });
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
      c.tabIndex = i === 0 ? 0 : -1;
    }
    for (let i = list.length; i < old.length; i++) old[i].remove();
    cards.hidden = !list.length;
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
    steps.forEach((f, i) => {
      const run = () => {
        show(f);
        restoreFocus(kind);
        if (i === steps.length - 1) acted = false;
      };
      if (i === 0 || delay <= 0) run();
      else timers.push(setTimeout(run, i * delay * 1000));
    });
  }

  function submitTyped() {
    const text = entry.value;
    if (!frame.can_type) return;
    entry.value = "";
    lastFocus = "entry";
    send({ kind: "typed", text });
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

  const update = () => {
    const v = model.get("view") || {};
    play(v.steps || [], model.get("delay"));
  };
  model.on("change:view", update);
  model.on("change:large", () => root.classList.toggle("dg-large", !!model.get("large")));
  update();
  return () => timers.forEach(clearTimeout);
}

export default { render };
"""

BOARD_CSS = r"""
.duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder {
  --dg-ink: #111; --dg-win: #005c40; --dg-win-bg: #dff3ea; --dg-loss: #8f2d00; --dg-loss-bg: #fde8dc;
  --dg-turn: #0b4f8a; --dg-card-bg: #fff; --dg-ring: #000; --dg-halo: #ffbf00;
}
.dg-root { font-family: system-ui, "DejaVu Sans", sans-serif; color: var(--dg-ink); padding: 4px 2px 8px; }
.dg-root:focus { outline: none; }
.dg-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 4px 16px; font-size: 1.05rem; }
.dg-title { font-weight: 600; }
.dg-score { font-variant-numeric: tabular-nums; }
.dg-number-label { margin-top: 6px; font-size: 0.95rem; color: #333; }
.dg-number { font-size: 3.6rem; font-weight: 800; line-height: 1.05; overflow-wrap: anywhere;
  font-variant-numeric: tabular-nums; }
.dg-turn { display: inline-block; margin: 6px 0 4px; padding: 4px 14px; border-radius: 999px; font-size: 1.35rem;
  font-weight: 700; border: 3px solid currentColor; }
.dg-turn-you::before, .dg-turn-p1::before, .dg-turn-p2::before { content: "▶ "; }
.dg-turn-you, .dg-turn-p1 { color: var(--dg-turn); background: #e4effa; }
.dg-turn-p2 { color: #5a1f78; background: #f1e6f7; }
.dg-turn-thinking { color: #333; background: #eee; border-style: dashed; }
.dg-turn-over { display: none; }
.dg-instruction { font-size: 1.1rem; margin: 2px 0 8px; }
.dg-result { margin: 8px 0; padding: 10px 16px; border-radius: 10px; border: 4px solid currentColor; max-width: 44rem; }
.dg-result-win { color: var(--dg-win); background: var(--dg-win-bg); }
.dg-result-loss { color: var(--dg-loss); background: var(--dg-loss-bg); border-style: dashed; }
.dg-result-neutral { color: #222; background: #f3f3f3; }
.dg-icon { font-size: 2.2rem; margin-right: 10px; vertical-align: middle; }
.dg-headline { font-size: 1.8rem; font-weight: 800; vertical-align: middle; }
.dg-why { color: #222; font-size: 1.05rem; margin-top: 4px; }
.dg-cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0; }
.dg-card { font: inherit; font-size: 1.35rem; font-weight: 600; min-width: 6.5em; padding: 6px 14px;
  background: var(--dg-card-bg); color: var(--dg-ink); border: 2px solid #555; border-radius: 10px; cursor: pointer;
  box-shadow: 0 2px 0 #777; display: inline-flex; flex-direction: column; align-items: center; }
.dg-card:hover { background: #f2f7ff; border-color: var(--dg-turn); }
.dg-card-tag { font-size: 0.95rem; font-weight: 700; margin-top: 2px; }
.dg-tag-P { border-color: var(--dg-win); border-width: 3px; }
.dg-tag-P .dg-card-tag { color: var(--dg-win); }
.dg-tag-N { border-style: dashed; }
.dg-tag-N .dg-card-tag { color: var(--dg-loss); }
.dg-more { font-size: 0.95rem; }
.dg-entry-row, .dg-again-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 8px 0; }
.dg-entry-label { font-size: 1.1rem; }
.dg-entry { font: inherit; font-size: 1.4rem; width: 6em; padding: 4px 8px; border: 2px solid #555;
  border-radius: 6px; }
.dg-play, .dg-pass, .dg-again, .dg-rematch { font: inherit; font-size: 1.15rem; padding: 6px 16px;
  border: 2px solid #333; border-radius: 8px; background: #f4f4f4; color: var(--dg-ink); cursor: pointer; }
.dg-pass:not([disabled]) { background: #fff3c4; border-color: #7a5800; }
.dg-pass[disabled] { opacity: 0.55; cursor: default; }
.dg-again { background: var(--dg-turn); color: #fff; }
.dg-message { font-size: 1.05rem; max-width: 46rem; }
.dg-error { border-left: 6px solid #b00020; padding: 4px 10px; color: #8a0018; background: #fff0f2; margin: 4px 0; }
.dg-info { padding: 4px 10px; margin: 4px 0; }
.dg-live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.dg-root [hidden] { display: none !important; }
.dg-large .dg-number { font-size: 6rem; }
.dg-large .dg-card { font-size: 2.1rem; }
.dg-large .dg-turn, .dg-large .dg-headline { font-size: 2rem; }
.dg-large .dg-instruction, .dg-large .dg-message, .dg-large .dg-head, .dg-large .dg-why { font-size: 1.4rem; }
/* A focus ring a projector shows: 4 px black, with a 4 px amber halo, on every control of the boards. */
.duel-board :focus-visible, .sum-board :focus-visible, .duel-explorer :focus-visible,
.duel-follow-game :focus-visible, .duel-variant-builder :focus-visible,
.duel-board .jupyter-button:focus, .sum-board .jupyter-button:focus, .duel-board input:focus, .duel-board select:focus {
  outline: 4px solid var(--dg-ring) !important; outline-offset: 2px !important;
  box-shadow: 0 0 0 8px var(--dg-halo) !important;
}
.duel-board .duel-coach, .duel-board .duel-history-box { font-size: 1.05rem; line-height: 1.45; }
.duel-coach-text p { margin: 0 0 0.5em; white-space: normal; overflow-wrap: normal; word-break: normal; }
.duel-coach-text .duel-old { color: #444; border-top: 1px solid #bbb; padding-top: 4px; }
.duel-large-type { font-size: 1.3rem; }
.duel-large-type .widget-label, .duel-large-type .widget-html-content, .duel-large-type button,
.duel-large-type select, .duel-large-type input { font-size: 1.25rem !important; }
.duel-large-type .widget-html-content, .duel-large-type .widget-label { line-height: 1.4 !important; }
"""


class Styles(anywidget.AnyWidget):
    """Only the boards' CSS (focus ring, large type), for views that have no play surface."""

    _esm = traitlets.Unicode("export default { render() {} };").tag(sync=True)
    _css = traitlets.Unicode(BOARD_CSS).tag(sync=True)


class BoardView(anywidget.AnyWidget):
    """The board's play surface: shows frames, reports the student's actions to ``on_action``."""

    _esm = traitlets.Unicode(BOARD_ESM).tag(sync=True)
    _css = traitlets.Unicode(BOARD_CSS).tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    delay = traitlets.Float(0.6).tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)

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

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and self.on_action is not None:
            self.on_action(content)
