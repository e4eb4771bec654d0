"""The play surface of the game board: an anywidget (its JavaScript and CSS ship in ``views/front/``).

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

import math
from collections.abc import Callable
from importlib import resources
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

__all__ = ["BOARD_CSS", "BOARD_ESM", "ONE_MOVE_MS", "BoardView", "Disclosure", "Fold", "Guard", "OneMove", "Styles"]


def _front(name: str) -> str:
    """A file of the board's front end (``views/front/``: JavaScript and CSS, package data, nothing from a CDN)."""
    return resources.files("duel_lessons.views").joinpath("front", name).read_text(encoding="utf-8")


BOARD_ESM = _front("board.js")

GUARD_ESM = _front("guard.js")

DISCLOSURE_ESM = _front("disclosure.js")

BOARD_CSS = _front("board.css")

#: Two actions on one board closer than this (milliseconds, measured by the browser where the student clicks)
#: are one intention, such as a double-click: the second is ignored.
ONE_MOVE_MS = 400


class OneMove:
    """The kernel's half of "one move per intention": which actions arriving from the browser are played.

    The browser ignores a second click while a move is answered and for ``gap_ms`` after it
    (views/front/board.js, guard.js), but the kernel may still receive both clicks: the same board
    shown twice (two views, each with its own guard), a view drawn again while it waited, or a
    guard that gave up waiting.  So the kernel checks too, with two keys the browser sends:

    - ``position``, the name of the position the click was made on (``board_frame.position_key``).  An
      action from a position the board has already left (the second of two clicks on the same card) is
      not played; one from any drawing of the position it is at is, even if the board has been drawn
      again since (a message, P/N shown, a cell that touched the board while the page was loading).
      An action without it (an older front end) is checked by ``seq``, the number of the view it was
      made on, instead.
    - ``t``, the browser's clock (ms) at the click.  An action less than ``gap_ms`` after the last
      action played is the same intention again.  Both times come from the student's browser, so
      a busy kernel, which receives clicks late and bunched together, cannot mistake two
      deliberate moves for one.

    An action without ``t`` (a test, an old front end) is checked by its position (or ``seq``) only.

    >>> gate = OneMove()
    >>> gate.admits(seq=3, now=3, t=1000.0), gate.admits(seq=3, now=3, t=1150.0), gate.admits(seq=3, now=3, t=1400.0)
    (True, False, True)
    >>> gate.admits(seq=2, now=3, t=5000.0)   # sent from a view the board has left
    False
    >>> gate.admits(seq=2, now=3, t=9000.0, position="p", here="p")   # an older drawing of the same position
    True
    >>> gate.admits(seq=3, now=3, t=9900.0, position="p", here="q")   # a position the board has left
    False
    """

    def __init__(self, gap_ms: float = ONE_MOVE_MS) -> None:
        self.gap_ms = gap_ms
        self.last: float | None = None  # the browser time of the last action played

    def admits(self, seq: object, now: int, t: object = None, position: object = None, here: object = None) -> bool:
        """Whether an action sent from view ``seq`` (showing ``position``) at browser time ``t`` is played.

        The board shows view ``now``, of the position named ``here``."""
        if isinstance(position, str) and isinstance(here, str):
            if position != here:
                return False
        elif isinstance(seq, int) and not isinstance(seq, bool) and seq != now:
            return False
        if not isinstance(t, int | float) or isinstance(t, bool) or math.isnan(t):
            return True
        if self.last is not None and 0 <= t - self.last < self.gap_ms:
            return False  # the same intention again (a clock set back, t < last, is a new page: played)
        self.last = float(t)
        return True


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
    live = traitlets.Bool(True).tag(sync=True)
    gap = traitlets.Float(ONE_MOVE_MS).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gate = OneMove(self.gap)
        self._stamp: object = None
        self.on_msg(self._stamped)

    def _stamped(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """The browser's time of the click whose button message comes next (same connection, so in order)."""
        if isinstance(content, dict) and content.get("kind") == "click":
            self._stamp = content.get("t")

    def guarded(self, action: Callable[[], object]) -> Callable[[Any], None]:
        """A button handler that runs ``action`` and then tells the browser it is done."""

        def handler(_button: Any) -> None:
            stamp, self._stamp = self._stamp, None
            try:
                if self.gate.admits(None, 0, stamp):
                    action()
            finally:
                self.done += 1

        return handler

    def answered(self, action: Callable[[], object]) -> None:
        """Run ``action`` for a change the browser already made (a toggle button), then tell the browser it is done."""
        self._stamp = None
        try:
            action()
        finally:
            self.done += 1

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
    gap = traitlets.Float(ONE_MOVE_MS).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seq = 0
        self.gate = OneMove(self.gap)
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
        here = self.frames[-1].get("position") if self.frames else None
        if not self.gate.admits(content.get("seq"), self.seq, content.get("t"), content.get("position"), here):
            # The second click of one intention (OneMove).  The view that sent it waits for an answer: the
            # position again (a new seq, so any other copy of that click is stale too).
            self.show(self.frames[-1:])
            return
        self.on_action(content)
