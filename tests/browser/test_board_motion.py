"""Motion that shows the maths, in a real JupyterLab: a move animates its rectangle of dots (the column of d dots
leaves, d × (N/d − 1) stay), for less than 400 ms by the CSS's own duration (read from the computed style, never a
clock), and not at all when the browser asks for reduced motion; the end of the game shows it as one strip.
The picture's words fold away behind a button (the board says less).

The game, worked out by hand (Divisor Duel against a friend, from 60): 60 − 12 = 48, 48 − 6 = 42, 42 − 21 = 21,
21 − 7 = 14, 14 − 7 = 7, and Player 2 has no move from the prime 7, so Player 1 wins.
"""

from __future__ import annotations

import json
import time
from typing import Any

from conftest import Lab
from harness import SAFETY_NET, code, notebook, open_and_run, screenshots, shown_number

MOTION_NOTEBOOK = notebook(
    code(
        "from duel_lessons.views.widgets import GameBoard", 'GameBoard("divisor-duel", 60, opponent="human", delay=0)'
    ),
)

#: Records every CSS animation that starts in a board's picture: its name, its computed duration and the dot's class.
LISTEN = """() => {
  window.__dgAnimations = [];
  document.addEventListener("animationstart", (e) => {
    if (!e.target.closest || !e.target.closest(".dg-picture")) return;
    const style = getComputedStyle(e.target);
    window.__dgAnimations.push({name: e.animationName, duration: style.animationDuration,
                                cls: e.target.getAttribute("class")});
  }, true);
}"""

#: Two animation frames: any animation of the frame just drawn has started (and sent its animationstart) by then.
TWO_FRAMES = "() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))"


def wait_until(page: Any, test: Any, what: str) -> None:
    """Poll ``test()``; fail after harness.SAFETY_NET (a safety net against a hang, not a measure)."""
    deadline = time.monotonic() + SAFETY_NET
    while not test():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(50)


def seconds(duration: str) -> float:
    """A CSS time ('0.35s', '350ms') in seconds."""
    return float(duration[:-2]) / 1000 if duration.endswith("ms") else float(duration.rstrip("s"))


def play(board: Any, d: int, after: int) -> None:
    """Click the card of divisor ``d``; wait until ``after`` shows and the board takes clicks again."""
    board.locator(f".duel-move-{d}").click()
    ready = board.locator(".dg-root.dg-busy, .dg-root.dg-cooling")
    wait_until(board.page, lambda: shown_number(board) == after and not ready.count(), f"the move to {after}")
    moved = f":{after + d}:{d}"  # the picture's key ends with the move: before and divisor
    wait_until(board.page, lambda: (board.locator(".dg-picture").get_attribute("data-moved") or "").endswith(moved),
               "the move's picture")  # fmt: skip


def started(page: Any) -> list[dict[str, str]]:
    """The animations started since the last call."""
    page.evaluate(TWO_FRAMES)
    return list(page.evaluate("window.__dgAnimations.splice(0)"))


def test_a_move_animates_its_rectangle_and_the_end_shows_the_whole_game(lab: Lab, page: Any) -> None:
    (lab.root / "motion.ipynb").write_text(json.dumps(MOTION_NOTEBOOK))
    open_and_run(lab, page, "motion.ipynb")
    board = page.locator(".duel-board").first
    board.locator(".duel-move-12").wait_for()
    figure = board.locator(".dg-picture")

    # The picture's words are behind a button: folded at first, one click shows them (the first card's, 60 − 2).
    toggle, caption = figure.locator(".dg-details-toggle"), figure.locator("figcaption")
    assert toggle.get_attribute("aria-expanded") == "false" and not caption.is_visible()
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true" and caption.is_visible()
    assert caption.inner_text() == (
        "60 dots in 2 rows of 30. Subtracting 2 takes away one column of 2 dots: 58 dots are left, in 2 rows of 29."
    )
    toggle.click()
    assert not caption.is_visible()

    page.evaluate(LISTEN)
    play(board, 12, 48)  # 60 as 12 rows of 5: the column of 12 leaves, 12 × (5 − 1) = 48 stay
    moves = started(page)
    assert [m["name"] for m in moves] == ["dg-leave"] * 12, moves
    assert all(0 < seconds(m["duration"]) < 0.4 for m in moves), moves
    assert all("dg-gone" in m["cls"] for m in moves)
    assert figure.get_attribute("data-moved") == "60:1:60:12"
    assert figure.locator(".dg-equation").inner_text() == "60 − 12 = 12 × (5 − 1) = 48"
    assert figure.locator("circle.dg-kept").count() == 48 and figure.locator("circle.dg-gone").count() == 12

    play(board, 6, 42)  # Player 2: 48 as 6 rows of 8, a column of 6 leaves
    moves = started(page)
    assert [m["name"] for m in moves] == ["dg-leave"] * 6 and all(seconds(m["duration"]) < 0.4 for m in moves)

    page.emulate_media(reduced_motion="reduce")
    for d, after in ((21, 21), (7, 14), (7, 7)):
        play(board, d, after)
        assert started(page) == [], f"an animation under reduced motion after the move to {after}"
        name = page.evaluate("getComputedStyle(document.querySelector('.dg-picture .dg-gone')).animationName")
        assert name == "none"
    assert figure.get_attribute("data-moved") == "60:5:14:7"  # still shown, still: 14 as 7 rows of 2

    assert "Player 1 wins!" in board.locator(".dg-result").inner_text()
    assert board.locator(".dg-strip-moves").inner_text() == "60 −12→ 48 −6→ 42 −21→ 21 −7→ 14 −7→ 7"
    screenshots(page, "lab-board-whole-game-strip", board.locator(".dg-result"))
