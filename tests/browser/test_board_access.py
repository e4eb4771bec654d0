"""Safe to click and readable by everyone, in a real JupyterLab and in Voilà.

- A double-click plays one move (a friend's board, the sum board, best play's Next): the second click of a
  double-click lands while the first is answered, and is ignored.
- Text contrast is at least 4.5:1 (WCAG AA) in the light and dark themes, computed from the computed styles.
- Keyboard only: Tab reaches Settings, Enter opens it (aria-expanded), and a new start is typed and played.
- The sum board keeps the focus after a move, so the next move is one more key press.
- Large type (projector mode) is larger than normal type for every text on every view.
- The rectangle of dots follows the card that has the focus.

Screenshots at 1280×720 and 800×600 go to test-artifacts/.
"""

from __future__ import annotations

import re
import time
from typing import Any

from conftest import Lab, Voila
from harness import PAGE_SAFETY_NET_MS, Keys, screenshots, shown_number, switch_to

BOXES = ".duel-board, .sum-board, .duel-explorer, .duel-follow-game, .duel-variant-builder, .duel-app"

#: Every visible text (and text box or menu) in ``sel``: its contrast against what is behind it, and its size.
#: Colours with alpha and parents' opacity are blended over the first opaque background up the tree, as WCAG asks.
CONTRAST_JS = r"""
(sel) => {
  const parse = (c) => {
    const m = c && c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (t, b) => [0, 1, 2].map((i) => t[i] * t[3] + b[i] * (1 - t[3])).concat([1]);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const background = (e) => {
    const layers = [];
    for (let x = e; x; x = x.parentElement) {
      const c = parse(getComputedStyle(x).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    return bg;
  };
  const opacity = (e) => {
    let o = 1;
    for (let x = e; x; x = x.parentElement) o *= Number(getComputedStyle(x).opacity);
    return o;
  };
  const out = [];
  for (const box of document.querySelectorAll(sel)) {
    for (const e of box.querySelectorAll("*")) {
      const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
      const field = e.matches("input[type=text], input:not([type]), select, textarea") && (e.value || "").trim();
      if (!own && !field) continue;
      if (!e.getClientRects().length || getComputedStyle(e).visibility === "hidden") continue;
      if (e.closest("[disabled], .dg-live, option, .duel-fallback, svg")) continue;
      const s = getComputedStyle(e);
      const fg = parse(s.color);
      const bg = background(e);
      const a = fg[3] * opacity(e);
      const text = over([fg[0], fg[1], fg[2], a], bg);
      const [l1, l2] = [lum(text), lum(bg)].sort((x, y) => y - x);
      out.push({ text: (field || e.textContent).trim().slice(0, 40), cls: String(e.className).slice(0, 60),
                 ratio: (l1 + 0.05) / (l2 + 0.05), px: parseFloat(s.fontSize), color: s.color,
                 bg: "rgb(" + bg.slice(0, 3).map(Math.round).join(",") + ")" });
    }
  }
  return out;
}
"""

#: Every visible text of a container, in document order, with its computed font size.
SIZES_JS = r"""
(box) => {
  const out = [];
  for (const e of box.querySelectorAll("*")) {
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    const field = e.matches("input[type=text], input:not([type]), select");
    if (!own && !field) continue;
    if (!e.getClientRects().length || e.closest(".dg-live, option, .duel-fallback")) continue;
    out.push([(e.value || e.textContent).trim().slice(0, 30), String(e.className).slice(0, 40),
              parseFloat(getComputedStyle(e).fontSize)]);
  }
  return out;
}
"""


def contrast_report(page: Any, where: str) -> tuple[float, float]:
    """Assert every text of every board has contrast >= 4.5; (lowest contrast, smallest text px)."""
    found = page.evaluate(CONTRAST_JS, BOXES)
    assert len(found) > 20, f"{where}: only {len(found)} texts found"
    low = [f for f in found if f["ratio"] < 4.5]
    assert not low, f"{where}: {len(low)} texts below 4.5:1, e.g. " + "; ".join(
        f"{f['text']!r} ({f['cls']}) {f['ratio']:.2f}:1 {f['color']} on {f['bg']}" for f in low[:6]
    )
    small = min(found, key=lambda f: f["px"])
    print(f"\n{where}: smallest text {small['px']:.1f} px: {small['text']!r} ({small['cls']})")
    return min(f["ratio"] for f in found), small["px"]


#: Whether the focus is on a move button of a sum board that can be pressed.
ON_A_SUM_MOVE = (
    "() => { const a = document.activeElement; "
    "return !!(a && a.closest('.sum-board') && a.classList.contains('sum-move') && !a.disabled); }"
)


def wait_until(page: Any, test: Any, what: Any, timeout: float = 120) -> None:
    """Poll ``test()``; on timeout (a safety net against a hang) fail with ``what`` (a text, or a function)."""
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"timed out waiting for {what() if callable(what) else what}"
        page.wait_for_timeout(50)


def history_moves(board: Any) -> int:
    """How many moves the board's "Game so far" lists."""
    text = board.locator(".duel-history").text_content() or ""
    return len(re.findall(r"Subtracting \d+ from \d+", text))


def double_click_plays_one_move(page: Any, where: str) -> None:
    """A friend's board from 60: a double-click on 60 − 3 plays it once (Player 2 to move from 57)."""
    board = page.locator(".duel-board").first
    board.locator(".duel-move-3").wait_for()
    assert shown_number(board) == 60
    board.locator(".duel-move-3").dblclick()
    # Then one more action (once the board takes clicks again: 400 ms after the move); the kernel answers in order,
    # so once its answer shows, a second move would have too.
    wait_until(board.page, lambda: not board.locator(".dg-root.dg-busy, .dg-root.dg-cooling").count(),
               "the board to take clicks again")
    board.locator(".duel-hint").click()
    board.locator(".duel-coach", has_text="Hint").wait_for()
    wait_until(page, lambda: "dg-busy" not in (board.locator(".dg-root").get_attribute("class") or ""), "not busy")
    assert shown_number(board) == 57, f"{where}: a double-click played more than one move"
    assert "Player 2's turn" in board.locator(".dg-turn").inner_text()
    assert history_moves(board) == 1, board.locator(".duel-history").text_content()


def sum_board_keeps_focus(page: Any, scope: Any, where: str) -> int:
    """The hot-seat sum board: a double-click plays once; then Enter plays a move and the focus stays on the board,
    so Enter again plays the next one.  The key presses for two moves."""
    board = scope.locator(".sum-board").first
    board.locator(".sum-move").first.wait_for()
    board.scroll_into_view_if_needed()
    count = lambda: len(re.findall(r"component \d", board.locator(".sum-history").text_content() or ""))  # noqa: E731
    board.locator(".sum-row-1 .sum-move").first.dblclick()
    # The board is busy until the move is answered (a click meanwhile is ignored, Hint's too): then ask for a hint.
    wait_until(page, lambda: board.get_attribute("aria-busy") == "false"
               and "dg-cooling" not in (board.get_attribute("class") or ""), "the sum board to answer")
    board.locator(".sum-hint").click()
    board.locator(".sum-message", has_text="XOR").wait_for()
    assert count() == 1, f"{where}: a double-click played {count()} moves on the sum board"
    keys = Keys(page)
    board.locator(".sum-move").first.focus()
    for played in (2, 3):
        wait_until(page, lambda: "dg-cooling" not in (board.get_attribute("class") or ""), "the board to take keys")
        keys.press("Enter")
        wait_until(page, lambda played=played: count() == played, f"move {played}")
        wait_until(page, lambda: bool(page.evaluate(ON_A_SUM_MOVE)),
                   lambda: f"{where}: focus back on a move (it is on {Keys(page).focused()!r})")  # fmt: skip
    return keys.count


def rectangle_follows_focus(page: Any, scope: Any, where: str) -> None:
    """The rectangle of dots is the focused card's: 57 − 3 leaves 3 rows of 18 (the arrow keys move the focus)."""
    board = scope.locator(".duel-board").first
    cards = board.locator(".dg-card")
    cards.first.focus()
    for _ in range(8):
        if page.evaluate("document.activeElement.dataset.d") == "3":
            break
        page.keyboard.press("ArrowRight")
    figure = board.locator(".dg-picture")
    assert figure.get_attribute("data-d") == "3"
    caption = figure.locator("figcaption").inner_text()
    assert caption == "57 dots in 3 rows of 19. Subtracting 3 takes away one column of 3 dots: 54 dots are left, in 3 rows of 18.", caption  # noqa: E501
    svg = figure.locator("svg")
    assert svg.locator("circle.dg-kept").count() == 54 and svg.locator("circle.dg-gone").count() == 3
    described = page.evaluate(
        "document.getElementById(document.activeElement.getAttribute('aria-describedby')).textContent"
    )
    assert described == caption, f"{where}: the card is not described by the picture's words"
    page.keyboard.press("ArrowRight")
    d = page.evaluate("document.activeElement.dataset.d")
    assert figure.get_attribute("data-d") == d != "3"


def keyboard_settings_route(page: Any, scope: Any, where: str) -> int:
    """From the cards, by keys only: Tab to Settings, Enter opens it, Tab to the start box, type 45, Enter.
    The key presses."""
    board = scope.locator(".duel-board").first
    board.locator(".dg-card").first.focus()
    keys = Keys(page)
    while "Settings" not in page.evaluate("document.activeElement.textContent || ''") or \
            "dg-disclosure" not in keys.focused():  # fmt: skip
        assert keys.count < 20, f"{where}: Settings not reached by Tab (focus on {keys.focused()!r})"
        keys.press("Tab")
    toggle = board.locator(".duel-settings .dg-disclosure")
    assert toggle.get_attribute("aria-expanded") == "false"
    keys.press("Enter")
    wait_until(page, lambda: toggle.get_attribute("aria-expanded") == "true", "Settings open")
    board.locator(".duel-start input").wait_for()
    while "duel-start" not in str(page.evaluate("document.activeElement.closest('.duel-start') ? 'duel-start' : ''")):
        assert keys.count < 30, f"{where}: the start box is not reached by Tab"
        keys.press("Tab")
    keys.press("Control+a")
    keys.type("45")
    keys.press("Enter")
    board.locator(".dg-number", has_text="45").wait_for()
    assert "New game of Divisor Duel from 45" in board.locator(".dg-message").inner_text()
    return keys.count


def test_lab_safe_clicks_keyboard_and_themes(lab: Lab, lab_board: Any) -> None:
    page = lab_board
    panel = switch_to(page, "access.ipynb")
    from harness import run_all

    run_all(page, panel)
    board = panel.locator(".duel-board").first
    board.locator(".dg-card").first.wait_for()
    double_click_plays_one_move(panel, "Lab")
    rectangle_follows_focus(page, panel, "Lab")
    presses = keyboard_settings_route(page, panel, "Lab")
    sum_keys = sum_board_keeps_focus(page, panel, "Lab")
    # Best play: a double-click on Next goes one step.
    follow = panel.locator(".duel-follow-game")
    follow.scroll_into_view_if_needed()
    follow.locator(".duel-next").dblclick()
    wait_until(page, lambda: follow.get_attribute("aria-busy") == "false"
               and "dg-cooling" not in (follow.get_attribute("class") or ""), "best play to take clicks again")
    follow.locator(".duel-next").click()
    follow.locator(".duel-follow-view", has_text="Position 2 of").wait_for()
    page.wait_for_timeout(300)
    assert "Position 2 of" in follow.locator(".duel-follow-view").inner_text()
    board.scroll_into_view_if_needed()
    low_light, px_light = contrast_report(page, "Lab light")
    screenshots(page, "lab-access-light", board)
    set_lab_theme(page, "JupyterLab Dark")
    try:
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")
        page.wait_for_timeout(500)
        low_dark, px_dark = contrast_report(page, "Lab dark")
        screenshots(page, "lab-access-dark", board)
        set_lab_theme(page, "JupyterLab Dark High Contrast")
        page.wait_for_function("document.body.dataset.jpThemeName === 'JupyterLab Dark High Contrast'")
        page.wait_for_timeout(500)
        low_contrast_theme, _ = contrast_report(page, "Lab dark high contrast")
        screenshots(page, "lab-access-high-contrast", board)
    finally:
        set_lab_theme(page, "JupyterLab Light")
        page.wait_for_function("document.body.dataset.jpThemeLight === 'true'")
    print(f"\nLab: Settings by keyboard in {presses} key presses; sum board 2 moves in {sum_keys} keys; contrast "
          f"light >= {low_light:.2f}:1, dark >= {low_dark:.2f}:1, high contrast >= {low_contrast_theme:.2f}:1; "
          f"smallest text {px_light:.1f} px / {px_dark:.1f} px")


def set_lab_theme(page: Any, name: str) -> None:
    """Settings menu → Theme → ``name``."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Theme$")).first.hover()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{name}$")).first.click()


def test_voila_double_click_contrast_and_focus(voila: Voila, page: Any) -> None:
    page.goto(voila.page_url("access.ipynb"))
    page.locator(".duel-board .dg-card").first.wait_for(timeout=PAGE_SAFETY_NET_MS)
    double_click_plays_one_move(page, "Voilà")
    rectangle_follows_focus(page, page, "Voilà")
    presses = keyboard_settings_route(page, page, "Voilà")
    sum_keys = sum_board_keeps_focus(page, page, "Voilà")
    low_light, px = contrast_report(page, "Voilà light")
    page.goto(voila.page_url("access.ipynb") + "?theme=dark")  # another theme: a new kernel runs it again
    page.locator(".duel-board .dg-card").first.wait_for(timeout=PAGE_SAFETY_NET_MS)
    assert page.evaluate("document.body.dataset.jpThemeLight") == "false", "Voilà did not load its dark theme"
    low_dark, _ = contrast_report(page, "Voilà dark")
    screenshots(page, "voila-access-dark", page.locator(".duel-board").first)
    print(f"\nVoilà: Settings by keyboard in {presses} key presses; sum board 2 moves in {sum_keys} keys; contrast "
          f"light >= {low_light:.2f}:1, dark >= {low_dark:.2f}:1; smallest text {px:.1f} px")


def test_voila_large_type_is_larger_for_every_text(voila: Voila, page: Any) -> None:
    """Each view twice, normal then large (harness.SIZES_NOTEBOOK): every text of the large one is bigger."""
    page.goto(voila.page_url("sizes.ipynb"))
    page.locator(".duel-variant-builder .duel-plot img, .duel-variant-builder .duel-variant-out img").nth(1).wait_for(
        timeout=PAGE_SAFETY_NET_MS)  # fmt: skip
    smallest = {}
    for css in (".duel-board", ".sum-board", ".duel-follow-game", ".duel-variant-builder"):
        boxes = page.locator(css)
        boxes.nth(1).wait_for(timeout=PAGE_SAFETY_NET_MS)  # Voilà shows the cells' outputs one by one
        assert boxes.count() == 2, css
        normal, large = (boxes.nth(i).evaluate(SIZES_JS) for i in (0, 1))
        assert len(normal) == len(large) > 3, f"{css}: {len(normal)} texts in normal type, {len(large)} in large"
        smaller = [(a[0], a[1], a[2], b[2]) for a, b in zip(normal, large, strict=True) if not b[2] > a[2]]
        assert not smaller, f"{css}: not larger in large type (text, class, normal px, large px): {smaller[:8]}"
        smallest[css] = (min(a[2] for a in normal), min(b[2] for b in large))
    screenshots(page, "voila-large-type", page.locator(".duel-board").nth(1))
    sizes = ", ".join(f"{k} {v[0]:.1f}/{v[1]:.1f}" for k, v in smallest.items())
    print(f"\nsmallest text (normal px, large px): {sizes}")


def test_voila_app_first_screen_and_projector_switch(voila: Voila, page: Any) -> None:
    """At 800×600 the app's first screen shows the board's cards; the projector switch makes the board large."""
    page.set_viewport_size({"width": 800, "height": 600})
    t0 = time.monotonic()
    page.goto(voila.page_url("app.ipynb"))
    card = page.locator(".duel-board .dg-card").first
    card.wait_for(timeout=PAGE_SAFETY_NET_MS)
    first_board = time.monotonic() - t0
    box = card.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 600, f"the first card is below the fold at 800×600: {box}"
    text = page.locator("body").inner_text()
    for lab_only in ("Tab twice", "Ctrl+Enter", "Teachers"):
        assert lab_only not in text, f"the app shows {lab_only!r}"
    screenshots(page, "voila-app-first-screen")
    before = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.dg-number')).fontSize)")
    intro = "parseFloat(getComputedStyle(document.querySelector('.jp-RenderedMarkdown p')).fontSize)"
    intro_before = page.evaluate(intro)
    page.locator(".duel-projector").click()
    page.locator(".duel-board .dg-root.dg-large").wait_for()
    after = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.dg-number')).fontSize)")
    assert after > before
    intro_after = page.evaluate(intro)
    assert intro_after >= 1.3 * intro_before, f"the introduction: {intro_before} px, in projector mode {intro_after} px"
    screenshots(page, "voila-app-projector")
    page.locator(".lm-TabBar-tab", has_text="P/N explorer").click()  # made when first opened, in large type then
    page.locator(".duel-explorer.duel-large-type").wait_for(state="attached")
    print(f"\nVoilà app: first board after {first_board:.1f} s (page load to first card); number {before:.0f} px, "
          f"projector {after:.0f} px; introduction {intro_before:.0f} px, projector {intro_after:.0f} px")
