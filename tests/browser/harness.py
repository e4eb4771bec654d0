"""Helpers for browser tests: run all cells, read the board, play by mouse or keyboard, save screenshots."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = ((1280, 720), (800, 600))
#: How long a poll waits before it fails: a safety net against a hang, far above what a move takes even
#: on a loaded machine (the tests judge what the board shows, never how fast).
SAFETY_NET = 120.0
#: The same for a page that runs a notebook first (Voilà executes every cell before the board shows;
#: beside a CPU hog that took over 90 s), in Playwright's milliseconds.
PAGE_SAFETY_NET_MS = 300_000


def code(*lines: str) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": "\n".join(lines)}


def notebook(*cells: dict[str, Any]) -> dict[str, Any]:
    return {
        "cells": list(cells),
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 4,
    }


NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
KEYBOARD_START = 30  # against the perfect computer, the winner plays 5 moves from 30
SUM_START = [12, 18]  # Grundy values 3 and 1: XOR 2, so the player to move (me) wins
LESSON_02 = "02-play-divisor-duel.ipynb"

#: The Lab test notebook: boards (mouse with P/N, Number Factor in large type), explorers, the builder, a sum
#: board, and last the keyboard board (Run All leaves the last cell active, so Tab from there reaches it), all in
#: one kernel and one page.
BOARD_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import FollowGame, GameBoard, PNExplorer, VariantBuilder",
         "from duel_lessons.views.sum_widgets import SumBoard", "",
         'board = GameBoard("divisor-duel", 60, opponent="computer", level="perfect", delay=0.2)', "board"),
    code('GameBoard("number-factor", 30, opponent="computer", first=2, large=True)'),
    code("PNExplorer()"),
    code("FollowGame()"),
    code("VariantBuilder(board)"),
    code(f'SumBoard({SUM_START}, opponent="computer", level="perfect")'),
    code(f'GameBoard("divisor-duel", {KEYBOARD_START}, opponent="computer", level="perfect", delay=0.3)'),
)  # fmt: skip

#: Safe to click, readable in any theme: a friend's board (a double-click plays one move), a sum board (focus kept),
#: best play (Next acts once per click).
ACCESS_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import FollowGame, GameBoard",
         "from duel_lessons.views.sum_widgets import SumBoard", "",
         'GameBoard("divisor-duel", 60, opponent="human", delay=0)'),
    code(f"SumBoard({SUM_START})"),
    code("FollowGame()"),
)  # fmt: skip

#: Normal and large type side by side, every view with every section open (projector mode: larger, never smaller).
SIZES_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import FollowGame, GameBoard, PNExplorer, VariantBuilder",
         "from duel_lessons.views.sum_widgets import SumBoard", "",
         "def board(large):",
         '    b = GameBoard("divisor-duel", 60, opponent="computer", delay=0, large=large)',
         "    b.settings.expanded = b.history.expanded = True",
         "    return b", "",
         "def builder(large):",
         "    v = VariantBuilder(large=large)",
         "    v.misere_box.value = True",
         "    v.build()",
         "    return v"),
    *(code(make.format(large=large)) for make in ("board({large})", "SumBoard([12, 18], large={large})",
                                                  "FollowGame(large={large})", "builder({large})")
      for large in (False, True)),
)  # fmt: skip

#: One move per intention (test_one_move_in_browser.py): a friend's board and the computer's (its usual
#: pause), a friend's sum board and the computer's, each clicked twice 150 ms and 300 ms apart.
CLICKS_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import GameBoard",
         "from duel_lessons.views.sum_widgets import SumBoard", "",
         'GameBoard("divisor-duel", 60, opponent="human", delay=0)'),
    code('GameBoard("divisor-duel", 60, opponent="computer", level="perfect")'),
    code("SumBoard([60, 48])"),
    code('SumBoard([60, 48], opponent="computer", level="perfect")'),
)  # fmt: skip

#: Boards whose kernel is restarted under them (test_one_move_in_browser.py): a click must say so.
RESTART_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import GameBoard",
         "from duel_lessons.views.sum_widgets import SumBoard", "",
         'GameBoard("divisor-duel", 60, opponent="human", delay=0)'),
    code("SumBoard([12, 18])"),
)  # fmt: skip

#: Lesson 04's proof, ordered in its widget (test_order_widget_lab.py): the class report reads the saved order.
ORDER_NOTEBOOK = notebook(
    code("from duel_lessons.teaching.lesson import Lesson",
         'lesson = Lesson("04", rules="divisor-duel", upto=10_000, big=[999, 1000, 1024, 2048], win_from=96, '
         "all_from=1024)"),
    code('lesson.parsons("order")'),
)  # fmt: skip

#: Every view once, each section open (test_axe_views.py: axe-core, forced colours, screenshots, small screens).
VIEWS_NOTEBOOK = notebook(
    code("from duel_lessons.views.app import PlayApp",
         "from duel_lessons.views.sum_widgets import SumBoard",
         "from duel_lessons.views.widgets import FollowGame, GameBoard, PNExplorer, VariantBuilder", "",
         'board = GameBoard("divisor-duel", 60, opponent="computer", delay=0)',
         "board.settings.expanded = board.history.expanded = True",
         "board"),
    code('pn = GameBoard("number-factor", 30, opponent="human", delay=0)', "pn.pn_toggle.value = True", "pn"),
    code('won = GameBoard("divisor-duel", 6, opponent="computer", delay=0)', "won.choose(3)", "won"),
    code("SumBoard([12, 18])"),
    code("PNExplorer()"),
    code("FollowGame()"),
    code("builder = VariantBuilder()", "builder.misere_box.value = True", "builder.build()", "builder"),
    code("PlayApp(delay=0)"),
)  # fmt: skip

#: Notebooks the Lab server gets (besides a copy of notebooks/), and those whose kernels start with the server.
LAB_NOTEBOOKS: dict[str, Any] = {"board.ipynb": BOARD_NOTEBOOK, "access.ipynb": ACCESS_NOTEBOOK,
                                 "clicks.ipynb": CLICKS_NOTEBOOK, "restart.ipynb": RESTART_NOTEBOOK,
                                 "order.ipynb": ORDER_NOTEBOOK, "views.ipynb": VIEWS_NOTEBOOK}  # fmt: skip
LAB_OPENED = ("board.ipynb", LESSON_02, "access.ipynb", "clicks.ipynb", "restart.ipynb", "order.ipynb", "views.ipynb")
#: Notebooks Voilà serves (kernels pre-heated: each has run before its page is opened).
KEYBOARD_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import GameBoard", "",
         f'GameBoard("divisor-duel", {KEYBOARD_START}, opponent="computer", level="perfect")'),
)  # fmt: skip
VOILA_NOTEBOOKS: dict[str, Any] = {
    "keyboard.ipynb": KEYBOARD_NOTEBOOK, "play.ipynb": NOTEBOOKS / "play.ipynb",
    "access.ipynb": ACCESS_NOTEBOOK, "sizes.ipynb": SIZES_NOTEBOOK, "clicks.ipynb": CLICKS_NOTEBOOK,
    "views.ipynb": VIEWS_NOTEBOOK,
    # The app again, for a test of its own: a page opened a second time waits for a new kernel to run the app.
    "app.ipynb": NOTEBOOKS / "play.ipynb",
}  # fmt: skip


def run_all(page: Any, panel: Any = None) -> None:
    """Run every cell: click a cell (of ``panel``, the notebook shown), open the Run menu, click "Run All Cells"."""
    (panel if panel is not None else page).locator(".jp-Cell").first.click()
    dialog = page.locator(".jp-Dialog button.jp-mod-accept")
    if dialog.count():
        dialog.first.click()
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator("li.lm-Menu-item:not(.lm-mod-disabled)[data-command='runmenu:run-all']").click()


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def screenshots(page: Any, name: str, target: Any = None) -> None:
    """Screenshots at 1280×720 and 800×600 (``target`` scrolled into view), then the old size again."""
    old = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        if target is not None:
            target.scroll_into_view_if_needed()
        screenshot(page, f"{name}-{width}x{height}")
    page.set_viewport_size(old)


def shown_number(board: Any) -> int:
    """The current number in large type on a board (a generous wall limit: a safety net, not a measure)."""
    deadline = time.monotonic() + SAFETY_NET
    while True:
        found = re.findall(r"\d+", board.locator(".dg-number").inner_text().replace("\u2009", ""))
        if found:
            return int(found[-1])
        assert time.monotonic() < deadline, f"no number on the board: {board.locator('.dg-root').inner_text()!r}"
        board.scroll_into_view_if_needed()  # Lab renders only the cells near the view: bring the board back
        board.page.wait_for_timeout(50)


def is_over(board: Any) -> bool:
    return bool(board.locator(".dg-result:not([hidden])").count())


def wait_until_ready(board: Any) -> None:
    """Until the board takes clicks (not answering a move, nor within 400 ms of one), as a student waits for it."""
    deadline = time.monotonic() + SAFETY_NET
    while board.locator(".dg-root.dg-busy, .dg-root.dg-cooling").count():
        assert time.monotonic() < deadline, f"The board stayed busy: {board.locator('.dg-root').inner_text()!r}"
        board.page.wait_for_timeout(50)


def wait_for_reply(board: Any, before: int, mine: int) -> None:
    """After my move from ``before`` to ``mine``: wait for the computer's reply (after its pause), or the end, and
    for the board to take clicks again (one move per intention: not before 400 ms after the last one)."""
    deadline = time.monotonic() + SAFETY_NET
    while time.monotonic() < deadline:
        n = shown_number(board)
        ready = not board.locator(".dg-root.dg-busy, .dg-root.dg-cooling").count()
        if ready and is_over(board) and n == mine:
            return
        if ready and "Your turn" in board.locator(".dg-turn").inner_text() and n not in (before, mine):
            return
        board.page.wait_for_timeout(50)
    raise AssertionError(f"The board did not answer: {board.locator('.dg-root').inner_text()!r}")


def play_to_a_win(board: Any, choose: Any, before_click: Any = None) -> int:
    """Click the card of ``choose(n)`` (a winning divisor of the number shown) until the game ends; the moves."""
    moves = 0
    while not is_over(board):
        n = shown_number(board)
        d = choose(n)
        assert d is not None, f"{n} should be a winning position for me"
        if before_click is not None:
            before_click(moves, n, d)
        wait_until_ready(board)
        board.locator(f".duel-move-{d}").click()
        moves += 1
        wait_for_reply(board, n, n - d)
        assert moves < 30, "the game did not end"
    assert "You win!" in board.locator(".dg-result").inner_text()
    return moves


class Keys:
    """Presses keys on a page and counts them."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def type(self, text: str) -> None:
        for ch in text:
            self.press(ch)

    def focused(self) -> str:
        return str(self.page.evaluate("document.activeElement ? document.activeElement.className : ''"))


def tab_to_board(keys: Keys, limit: int = 12) -> None:
    """Press Tab until a move card (or the divisor box) has the focus."""
    while "dg-card" not in keys.focused() and "dg-entry" not in keys.focused():
        assert keys.count < limit, f"no card reached in {limit} Tabs (focus on {keys.focused()!r})"
        keys.press("Tab")


def play_by_keyboard(board: Any, keys: Keys, choose: Any) -> int:
    """Win by typing each winning divisor and Enter (focus must stay on the board); the moves played."""
    moves = 0
    while not is_over(board):
        n = shown_number(board)
        d = choose(n)
        focus = keys.focused()
        assert "dg-card" in focus or "dg-entry" in focus, f"focus left the board: {focus!r}"
        keys.type(str(d))
        keys.press("Enter")
        moves += 1
        wait_for_reply(board, n, n - d)
        assert moves < 30, "the game did not end"
    assert "You win!" in board.locator(".dg-result").inner_text()
    return moves


def notebook_panel(page: Any) -> Any:
    """The notebook in Lab's current tab (other notebooks stay in the page, hidden)."""
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")


def switch_to(page: Any, name: str) -> Any:
    """Open notebook ``name`` in the Lab page already loaded (a double-click in the file browser, or its tab);
    its panel once it shows."""
    tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=name)
    if tab.count():
        tab.first.click()
    else:
        page.locator(".jp-DirListing-item", has_text=name).first.dblclick()
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current", has_text=name).wait_for()
    return notebook_panel(page)


def open_and_run(lab: Any, page: Any, name: str) -> None:
    """Open notebook ``name`` (in lab.root) in JupyterLab with its kernel started, and run every cell."""
    page.set_default_timeout(int(SAFETY_NET * 1000))  # a safety net against a hang, not a measure
    lab.start_session(name)
    page.goto(lab.notebook_url(name))
    run_all(page)
