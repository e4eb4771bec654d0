
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
const CHEVRON = '<svg class="dg-chevron" viewBox="0 0 16 16" width="0.8em" height="0.8em" aria-hidden="true">' +
  '<path fill="none" stroke="currentColor" stroke-width="2.4" d="M5 2.5l5.5 5.5L5 13.5"/></svg>';

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
  // The picture's maths in one line (visible); its words, which a screen reader reads with each card, fold away
  // behind a button (the board says less: one line of instruction, the details on request).
  const side = el("div", "dg-picture-side");
  const equation = el("div", "dg-equation");
  const detailsBtn = el("button", "dg-details-toggle");
  detailsBtn.type = "button";
  detailsBtn.innerHTML = CHEVRON;
  const detailsLabel = el("span", "", "The dots in words");
  detailsBtn.append(detailsLabel);
  detailsBtn.setAttribute("aria-expanded", "false");
  side.append(equation, detailsBtn);
  const caption = el("figcaption", "dg-picture-caption");
  caption.id = "dg-caption-" + Math.random().toString(36).slice(2);
  caption.hidden = true;
  detailsBtn.setAttribute("aria-controls", caption.id);
  detailsBtn.addEventListener("click", () => {
    caption.hidden = !caption.hidden;
    detailsBtn.setAttribute("aria-expanded", caption.hidden ? "false" : "true");
  });
  picture.append(pictureSvg, side, caption);
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
  let pendingTimer = null, releaseTimer = null;
  let sentAt = -Infinity; // when the last action was sent (performance.now())
  let cooling = false;    // answered, but within `gap` ms of the click: this board's own clicks still wait
  let dead = false;       // the kernel restarted (or the widget lost its connection): nothing can be played
  let movedKey = null;    // the last move whose picture was shown (each move is shown once)
  let holding = false;    // the picture shows that move until the student points at a card
  let holdUntil = 0;      // ... and the mouse only after its motion ended
  let restoring = false;  // the board itself moves the focus (not the student)

  function setPending(on) {
    pending = on;
    root.classList.toggle("dg-busy", on);
    root.setAttribute("aria-busy", on ? "true" : "false");
    clearTimeout(pendingTimer);
    if (on) {
      // Nothing under the pointer moves while the move is answered: the board keeps at least its size (where
      // the page sizes it to its content, a shorter line would narrow every full-width control).
      const whole = root.closest(".duel-board") || root;
      root.style.minHeight = root.getBoundingClientRect().height + "px";  // border-box (board.css)
      whole.style.minWidth = whole.getBoundingClientRect().width + "px";
      pendingTimer = setTimeout(noAnswer, 30000);  // a kernel that never answers
    } else {
      root.style.minHeight = "";
      (root.closest(".duel-board") || root).style.minWidth = "";
    }
  }

  // One move per intention: a second click or key press while a move is answered (the computer's reply
  // included) or within `gap` ms of it is ignored.  The kernel checks again (views.board_view.OneMove), with
  // the position clicked on and the click's time, since it may receive both clicks all the same.
  function setCooling(on) {
    cooling = on;
    root.classList.toggle("dg-cooling", on);
  }

  function release() {
    const wait = (model.get("gap") || 0) - (performance.now() - sentAt);
    setPending(false);
    clearTimeout(releaseTimer);
    setCooling(wait > 0);
    if (wait > 0) releaseTimer = setTimeout(() => setCooling(false), wait);
  }

  function words(key, fallback) { return (frame.words && frame.words[key]) || fallback; }

  function problem(text) {
    message.replaceChildren();
    const m = el("div", "dg-error");
    m.append(el("b", "", words("problem", "Problem:")), document.createTextNode(" " + text));
    message.append(m);
    live.textContent = words("problem", "Problem:") + " " + text;
  }

  // The kernel restarted or the connection was lost (JupyterLab marks the widget disconnected): say so at once.
  function checkAlive() {
    if (dead || !root.closest(".jupyter-widgets-disconnected")) return;
    dead = true;
    setPending(false);
    root.classList.add("dg-dead");
    cardButtons().forEach((c) => c.setAttribute("aria-disabled", "true"));
    problem(words("kernel_lost", "The kernel restarted: run this cell again."));
  }

  function noAnswer() {
    setPending(false);
    problem(words("no_answer", "No answer from the kernel. If it stopped or restarted, run this cell again."));
  }

  function send(msg) {
    checkAlive();
    if (dead) { problem(words("kernel_lost", "The kernel restarted: run this cell again.")); return false; }
    // Busy: this board's last action is answered or within `gap` ms, or a button of the board (Hint, Show P/N)
    // waits for its answer (guard.js marks the board .dg-busy).
    if (pending || cooling || root.closest(".dg-busy") || performance.now() - sentAt < (model.get("gap") || 0)) {
      return false;
    }
    acted = true;
    setPending(true);
    sentAt = performance.now();
    const v = model.get("view") || {};
    const steps = v.steps || [];
    const shown = steps.length ? steps[steps.length - 1].position : undefined;  // the position clicked on
    model.send(Object.assign({}, msg, { seq: v.seq, position: shown, t: Date.now() }));
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
    restoring = true;
    try { restoreFocusTo(kind); } finally { restoring = false; }
  }

  function restoreFocusTo(kind) {
    const cs = cardButtons();
    if (frame.over) { againBtn.focus(); return; }
    if (frame.thinking) {  // the cards stay: the focus stays where it is
      if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });
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

  function moveTo(i, own) {
    const cs = cardButtons();
    if (!cs.length) return;
    i = (i + cs.length) % cs.length;
    cs.forEach((c, k) => { c.tabIndex = k === i ? 0 : -1; });
    cs[i].focus();
    showPicture(i, own);
  }

  function drawPicture(p) {
    picture.hidden = false;
    pictureSvg.innerHTML = p.svg;
    equation.textContent = p.equation || "";
    caption.textContent = p.alt;
  }

  // The rectangle of dots for card i (or the board's own picture when there is no card).  `own`: the student
  // pointed at a card (mouse, arrow keys, Tab), which ends the showing of the last move; the board's own focus
  // moves do not.
  function showPicture(i, own) {
    if (frame.thinking) return;  // the picture stays with the cards while the computer thinks
    if (holding && !(own === "key" || (own === "mouse" && performance.now() >= holdUntil))) return;
    holding = false;
    picture.classList.remove("dg-moving", "dg-moving-subtract", "dg-moving-divide");
    delete picture.dataset.moved;
    const list = frame.cards || [];
    const p = list.length ? (list[i] || list[0]).picture : frame.picture;
    if (!p || !frame.pictures) { picture.hidden = true; return; }
    picture.dataset.d = list.length ? String((list[i] || list[0]).d) : "";
    drawPicture(p);
  }

  // Motion that shows the maths: the move just played, as its rectangle (N as d rows of N/d), with the column of
  // d dots (a division: the other rows) leaving and d × (N/d − 1) staying (board.css: under 400 ms, and none
  // when the browser asks for reduced motion; the picture then shows the same, still).  Each move once.
  function showMoved(f) {
    const m = f.moved;
    if (!m) { movedKey = null; holding = false; return; }
    if (m.key === movedKey) return;
    movedKey = m.key;
    picture.classList.remove("dg-moving", "dg-moving-subtract", "dg-moving-divide");
    picture.dataset.d = "";
    picture.dataset.moved = m.key;
    drawPicture(m);
    void picture.offsetWidth;  // a new animation, even for the same picture
    picture.classList.add("dg-moving", "dg-moving-" + (m.move || "subtract"));
    const gone = pictureSvg.querySelector(".dg-gone");
    const style = gone ? getComputedStyle(gone) : null;
    const ms = style && style.animationName !== "none" ? parseFloat(style.animationDuration) * 1000 : 0;
    holding = true;
    holdUntil = performance.now() + (ms || 0);  // a pointer resting on the cards does not cut the motion short
  }

  function focusedIndex() {
    const a = document.activeElement;
    return a && a.classList.contains("dg-card") && cards.contains(a) ? parseInt(a.dataset.index, 10) : 0;
  }

  function show(f) {
    frame = f;
    root.classList.toggle("dg-large", !!model.get("large"));
    root.setAttribute("aria-label", f.region || "Game board");
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
      if (f.result.strip) {  // the whole game in one line of numbers and moves
        const strip = el("div", "dg-strip");
        const steps = el("span", "dg-strip-moves");
        f.result.strip.split(/([^ ]+\u2192 [^ ]+)/).forEach((part, i) => {  // a move and its result never part
          steps.append(i % 2 ? el("span", "dg-nowrap", part) : document.createTextNode(part));
        });
        strip.append(el("span", "dg-strip-label", words("strip", "The whole game") + ": "), steps);
        result.append(strip);
      }
    } else {
      result.hidden = true;
    }
    message.replaceChildren();
    if (f.message && f.message.text) {
      const m = el("div", f.message.error ? "dg-error" : "dg-info");  // read out by the board's one live region
      if (f.message.error) {
        m.append(el("b", "", (f.words && f.words.problem) || "Problem:"), document.createTextNode(" "));
      }
      // A move ("30 ÷ 6 = 5") never breaks across lines.
      const move = /(\d[\d\u2009,]* [\u2212\u00f7\u00d7+] \d[\d\u2009,]* = \d[\d\u2009,]*)/;
      f.message.text.split(move).forEach((part, i) => {
        m.append(i % 2 ? el("span", "dg-nowrap", part) : document.createTextNode(part));
      });
      message.append(m);
    } else {
      message.append(el("div", "dg-info dg-no-message", "\u00a0"));  // an empty line keeps its room: nothing moves
    }
    showMoved(f);
    if (f.words && f.words.details) detailsLabel.textContent = f.words.details;
    if (f.thinking) {
      // The computer is thinking: the cards and the rest stay where they are, greyed and disabled (the busy
      // board ignores clicks), so nothing moves under the pointer; the reply redraws them.
      cardButtons().forEach((c) => c.setAttribute("aria-disabled", "true"));
      cards.classList.add("dg-waiting");
      if (f.announce) live.textContent = f.announce;
      return;
    }
    cards.classList.remove("dg-waiting");
    const old = cardButtons();
    const list = f.cards || [];
    // Reuse the card buttons (same count keeps the same elements, so focus is not lost).
    for (let i = 0; i < list.length; i++) {
      let c = old[i];
      if (!c) {
        c = el("button", "dg-card");
        c.dataset.index = String(i);
        c.addEventListener("click", () => {
          if ((pending || cooling) && !dead) return;
          lastFocus = "card:" + c.dataset.index;
          send({ kind: "card", d: Number(c.dataset.d) });
        });
        c.addEventListener("focus", () => showPicture(parseInt(c.dataset.index, 10), restoring ? undefined : "key"));
        c.addEventListener("mouseenter", () => showPicture(parseInt(c.dataset.index, 10), "mouse"));
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
      c.removeAttribute("aria-disabled");
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
    if (!steps.length) release();
    steps.forEach((f, i) => {
      const run = () => {
        show(f);
        restoreFocus(kind);
        // The last frame ends the answer, unless the computer is still thinking (its reply is a new view).
        if (i === steps.length - 1 && !f.thinking) { acted = false; release(); }
      };
      if (i === 0 || delay <= 0) run();
      else timers.push(setTimeout(run, i * delay * 1000));
    });
  }

  function submitTyped() {
    const text = entry.value;
    if (dead) { send({}); return; }
    if (pending || cooling || !frame.can_type) return;  // the text stays in the box
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
    if (pending || cooling) { if (e.key !== "Tab") e.preventDefault(); return; }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (step) { e.preventDefault(); moveTo(i + step, "key"); return; }
    if (e.key === "Home") { e.preventDefault(); moveTo(0, "key"); return; }
    if (e.key === "End") { e.preventDefault(); moveTo(cs.length - 1, "key"); return; }
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
  model.on("comm_live_update", checkAlive);
  model.on("change:large", () => root.classList.toggle("dg-large", !!model.get("large")));
  model.on("change:focus_request", () => {
    root.scrollIntoView({ block: "nearest" });
    acted = true;
    restoreFocus("card:0");
  });
  update();
  checkAlive();
  return () => { timers.forEach(clearTimeout); clearTimeout(pendingTimer); clearTimeout(releaseTimer); };
}

export default { render };
