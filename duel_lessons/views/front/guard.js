
// The boards built from ipywidgets (sum board, follow best play, the builder, the game board's own buttons):
// one action at a time, focus kept on the board after a move, and a live region for what happened.
const BOXES = ".duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder";
const LOST = "The kernel restarted: run this cell again.";
const NO_ANSWER = "No answer from the kernel. If it stopped or restarted, run this cell again.";

// What ipywidgets leaves unnamed or out of the keyboard's reach, mended in the view's own DOM (axe-core audits it:
// tests/browser/test_axe_views.py):
// - a slider's handles get a name from the slider's label ("n from, to: from" and "...: to" for a range);
// - a sum board's move names its component: its aria-label is its tooltip ("Number 1: 12 − 2 = 10");
// - a table or plot that scrolls sideways can take the focus (then the arrow keys scroll it), only while it does.
function mend(b) {
  for (const slider of b.querySelectorAll(".widget-slider")) {
    const label = (slider.querySelector(".widget-label") || {}).textContent || "";
    const handles = slider.querySelectorAll(".noUi-handle");
    handles.forEach((h, i) => {
      const name = handles.length > 1 ? label + ": " + (i ? "to" : "from") : label;
      if (name && h.getAttribute("aria-label") !== name) h.setAttribute("aria-label", name);
    });
  }
  for (const move of b.querySelectorAll(".sum-move[title]")) {
    if (move.getAttribute("aria-label") !== move.title) move.setAttribute("aria-label", move.title);
  }
  for (const wide of b.querySelectorAll(".duel-plot, .duel-variant-out pre")) {
    const scrolls = wide.scrollWidth > wide.clientWidth + 1;
    if (scrolls && wide.tabIndex !== 0) {
      wide.tabIndex = 0;
      wide.setAttribute("role", "region");
      wide.setAttribute("aria-label", wide.matches("pre") ? "Table (scrolls sideways)" : "Plot (scrolls sideways)");
    } else if (!scrolls && wide.hasAttribute("tabindex")) {
      wide.removeAttribute("tabindex");
      wide.removeAttribute("role");
      wide.removeAttribute("aria-label");
    }
  }
}

function render({ model, el }) {
  // One live region per board: a board with its own (the game board's play surface) sets live=False.
  const live = document.createElement("div");
  live.className = "dg-live";
  if (model.get("live")) {
    live.setAttribute("aria-live", "polite");
    live.setAttribute("role", "status");
  }
  const note = document.createElement("div");  // "the kernel restarted", in words, where the student looks
  note.className = "dg-error dg-guard-note";
  note.hidden = true;
  el.append(live, note);
  let busy = false, timer = null, releaseTimer = null, last = null, seen = model.get("done"), watching = 0;
  let clickedAt = -Infinity, dead = false, cooling = false;
  const box = () => el.closest(BOXES);

  function setBusy(on) {
    busy = on;
    const b = box();
    if (b) { b.classList.toggle("dg-busy", on); b.setAttribute("aria-busy", on ? "true" : "false"); }
    clearTimeout(timer);
    if (on) timer = setTimeout(() => { setBusy(false); say(NO_ANSWER); }, 30000);  // a kernel that never answers
  }

  // Answered; until `gap` ms after the click the view's guarded buttons still wait (.dg-cooling), so a second
  // click of one intention (a double-click) is ignored.
  function setCooling(on) {
    cooling = on;
    const b = box();
    if (b) b.classList.toggle("dg-cooling", on);
  }

  function release() {
    const wait = (model.get("gap") || 0) - (performance.now() - clickedAt);
    setBusy(false);
    clearTimeout(releaseTimer);
    setCooling(wait > 0);
    if (wait > 0) releaseTimer = setTimeout(() => setCooling(false), wait);
  }

  function say(text) {
    note.textContent = "";
    const b = document.createElement("b");
    b.textContent = "Problem:";
    note.append(b, document.createTextNode(" " + text));
    note.hidden = false;
    live.textContent = "Problem: " + text;
  }

  // The kernel restarted or the connection was lost (JupyterLab marks the widget disconnected): say so at once.
  function checkAlive() {
    if (dead || !el.closest(".jupyter-widgets-disconnected")) return;
    dead = true;
    setBusy(false);
    say(LOST);
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
    checkAlive();
    if (dead) { e.stopImmediatePropagation(); e.preventDefault(); say(LOST); return; }
    // Busy: this view's last click is answered or within `gap` ms, or the game board's own surface is answering
    // a move or is within `gap` ms of it (a stray second click must not reach Hint or Show P/N).
    if (busy || cooling || b.querySelector(".dg-root.dg-busy, .dg-root.dg-cooling")) { e.stopImmediatePropagation(); e.preventDefault(); return; }
    if (btn.disabled) return;
    last = where(btn);
    setBusy(true);
    clickedAt = performance.now();
    model.send({ kind: "click", t: Date.now() });  // the kernel checks the time too (board_view.OneMove)
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
    release();
    keepFocus();
  });
  model.on("change:announce", () => { live.textContent = model.get("announce"); });
  let mending = 0;
  const mendSoon = () => {  // once per frame, however many changes arrive
    if (mending) return;
    mending = requestAnimationFrame(() => { mending = 0; const b = box(); if (b) mend(b); });
  };
  const watcher = new MutationObserver(mendSoon);
  let tries = 0;
  const startWatching = () => {
    const b = box();
    if (!b) { if (++tries < 600) requestAnimationFrame(startWatching); return; }  // not in the page yet
    watcher.observe(b, { childList: true, subtree: true, attributes: true, attributeFilter: ["title"] });
    mend(b);
  };
  startWatching();
  window.addEventListener("resize", mendSoon);
  model.on("comm_live_update", checkAlive);
  checkAlive();
  return () => {
    watcher.disconnect();
    window.removeEventListener("resize", mendSoon);
    clearTimeout(releaseTimer);
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("focusin", onFocus, true);
    clearTimeout(timer);
    watching++;
  };
}

export default { render };
