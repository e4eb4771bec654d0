"""Every view audited by axe-core, in forced colours, on small screens, and photographed (issue 29, points 5, 7, 8).

One page per place and theme holds every view (harness.VIEWS_NOTEBOOK: three game boards, a sum board, the
P/N explorer, best play, the builder and the app); on it:

- axe-core (npm's axe.min.js, shipped inside the PyPI package axe-playwright-python: nothing from a CDN) runs on
  each view's own DOM, not on Jupyter's, and finds no critical or serious violation, in Lab and Voilà, light and
  dark; the class report page too;
- each board is a region named by its game and start, has exactly one live region, and the sum board's buttons
  name their component;
- with forced colours (Windows' high contrast, emulated), every control keeps a visible border and every icon a
  visible colour (read from the computed styles);
- the explorers' text is at least 15 px; no focus ring covers a sum board's number; in Lab at 800×600 with the
  file list open, the number and a row of cards are on screen together; the app's introduction grows in projector
  mode;
- screenshots of every view at 1280×720 and 800×600, light and dark, go to test-artifacts/.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import Lab, Voila
from harness import ARTIFACTS, PAGE_SAFETY_NET_MS, SIZES, run_all, switch_to


def axe_js() -> str:
    """npm's axe-core, as the PyPI package axe-playwright-python ships it (pyproject.toml, the test extra); without
    it the audit is skipped with that reason, except under CI=true, where it fails."""
    try:
        import axe_playwright_python
    except ImportError:
        reason = "axe-playwright-python is not installed (pip install -e '.[test]'), so axe-core is missing"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true, so the accessibility audit must run, but {reason}")
        pytest.skip(reason)
    source = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
    version = re.match(r"/\*! axe v(\d+)\.(\d+)", source)
    assert version and (int(version[1]), int(version[2])) >= (4, 10), f"an old axe-core: {source[:40]!r}"
    return source


#: The views of harness.VIEWS_NOTEBOOK: name -> (selector, index among its matches).
VIEWS = {
    "board": (".duel-board", 0),
    "board-pn": (".duel-board", 1),
    "board-won": (".duel-board", 2),
    "sum-board": (".sum-board", 0),
    "explorer": (".duel-explorer", 0),
    "best-play": (".duel-follow-game", 0),
    "builder": (".duel-variant-builder", 0),
    "app": (".duel-app:has(.duel-projector)", 0),
}
#: Shown last on the page: once it is drawn, every view is.
LAST = ".duel-app .duel-board .dg-card >> nth=0"
EXPLORERS = ".duel-explorer, .duel-follow-game, .duel-variant-builder"

#: axe-core on one element: its critical and serious violations (rule, impact, what, where).
AXE_RUN = r"""
async (el) => {
  const r = await axe.run(el, { resultTypes: ["violations"] });
  return r.violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " :: " + n.failureSummary.replace(/\s+/g, " "))
  }));
}
"""

#: Under forced colours: each visible control whose border is missing or has the colour of what is behind it, and
#: each icon (the turn arrow, the result's and the disclosure's SVG, the dots) painted in no visible colour.
FORCED_JS = r"""
(box) => {
  const seen = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden";
  const clear = (c) => !c || c === "transparent" || /rgba\(.*,\s*0\)$/.test(c);
  const bgOf = (e) => {
    for (let x = e; x; x = x.parentElement) {
      const c = getComputedStyle(x).backgroundColor;
      if (!clear(c)) return c;
    }
    return getComputedStyle(document.body).backgroundColor;
  };
  const bad = [], counts = { controls: 0, icons: 0 };
  const controls = "button, input, select, textarea, [role=slider], [role=tab], .widget-toggle-button";
  for (const e of box.querySelectorAll(controls)) {
    if (!seen(e) || e.closest(".dg-live, .duel-fallback")) continue;
    if (e.matches("input[type=checkbox], input[type=radio]")) continue;  // drawn by the system
    counts.controls++;
    const s = getComputedStyle(e);
    for (const side of ["Top", "Right", "Bottom", "Left"]) {
      const width = parseFloat(s["border" + side + "Width"]), style = s["border" + side + "Style"];
      const colour = s["border" + side + "Color"];
      const hidden = style === "none" || style === "hidden";
      if (!(width >= 1) || hidden || clear(colour) || colour === bgOf(e.parentElement)) {
        bad.push("control " + (e.className || e.tagName) + " " + JSON.stringify(e.textContent.trim().slice(0, 20)) +
                 ": border-" + side.toLowerCase() + " " + width + "px " + style + " " + colour);
        break;
      }
    }
  }
  for (const e of box.querySelectorAll(".dg-turn")) {
    if (!seen(e) || e.classList.contains("dg-turn-thinking")) continue;
    counts.icons++;
    const s = getComputedStyle(e, "::before");
    if (clear(s.borderLeftColor) || !clear(s.borderTopColor) || !clear(s.borderBottomColor)) {
      bad.push("turn arrow: left " + s.borderLeftColor + ", top " + s.borderTopColor + " (a square, not an arrow)");
    }
  }
  for (const e of box.querySelectorAll("svg path, svg circle")) {
    if (!seen(e) || e.closest(".duel-plot, .duel-variant-out")) continue;
    counts.icons++;
    const s = getComputedStyle(e), behind = bgOf(e.closest("svg").parentElement);
    const fill = s.fill === "none" || clear(s.fill) ? null : s.fill;
    const stroke = s.stroke === "none" || clear(s.stroke) || !(parseFloat(s.strokeWidth) > 0) ? null : s.stroke;
    if ((fill === null || fill === behind) && (stroke === null || stroke === behind)) {
      bad.push("icon " + e.closest("[class]").className.baseVal + ": fill " + s.fill + ", stroke " + s.stroke +
               " on " + behind);
    }
  }
  return { bad, counts };
}
"""

#: Every visible text in a container with its computed size in px (the hidden fallbacks and live regions aside).
TEXT_SIZES_JS = r"""
(box) => {
  const out = [];
  for (const e of box.querySelectorAll("*")) {
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    const field = e.matches("input[type=text], input[type=number], input:not([type]), select");
    if (!own && !field) continue;
    if (!e.getClientRects().length || e.closest(".dg-live, option, .duel-fallback")) continue;
    out.push([(e.value || e.textContent).trim().slice(0, 30), String(e.className).slice(0, 50),
              parseFloat(getComputedStyle(e).fontSize)]);
  }
  return out;
}
"""


def gather(problems: list[str], check: Any, *args: Any) -> Any:
    """Run ``check``; a failed assertion is kept in ``problems`` (so one run reports every problem)."""
    try:
        return check(*args)
    except AssertionError as error:
        problems.append(str(error).split("\nassert ")[0])
        return None


def view(page: Any, name: str) -> Any:
    css, index = VIEWS[name]
    return page.locator(css).nth(index)


def to_top(box: Any) -> None:
    """Scroll ``box`` to the top of its scroller (Lab draws only the cells near the view)."""
    box.evaluate("e => e.scrollIntoView({block: 'start'})")


def drawn(page: Any) -> None:
    """Wait until every view is drawn (Voilà and Lab draw the outputs one by one, not in order)."""
    page.locator(LAST).wait_for(timeout=PAGE_SAFETY_NET_MS)
    for name, (css, index) in VIEWS.items():
        inner = {"sum-board": ".sum-move", "explorer": "img", "builder": "img", "best-play": ".duel-follow-view b"}
        page.locator(css).nth(index).locator(inner.get(name, ".dg-number")).first.wait_for(state="attached")


def audit(page: Any, where: str) -> list[str]:
    """axe-core on each view: its critical and serious violations, as lines."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_js())
    found = []
    for name in VIEWS:
        box = view(page, name)
        to_top(box)
        for v in box.evaluate(AXE_RUN):
            found.append(f"{where} {name}: {v['impact']} {v['id']} ({v['help']}): " + " | ".join(v["nodes"]))
    return found


def axe_sees_a_fault(page: Any) -> None:
    """The audit can fail: a button with no name, put into the board for a moment, is reported (critical)."""
    board = view(page, "board")
    board.evaluate("b => b.append(Object.assign(document.createElement('button'), {className: 'axe-probe'}))")
    try:
        found = board.evaluate(AXE_RUN)
    finally:
        board.evaluate("b => b.querySelector('.axe-probe').remove()")
    assert [v["id"] for v in found] == ["button-name"] and ".axe-probe" in found[0]["nodes"][0], found


def boards_named_and_live(page: Any, where: str) -> None:
    """Each game board is a region named by its game and start; each board has exactly one live region; the sum
    board's buttons name their component."""
    names = page.locator(".duel-board .dg-root").evaluate_all("rs => rs.map(r => [r.getAttribute('role'), "
                                                              "r.getAttribute('aria-label')])")  # fmt: skip
    starts = ["Divisor Duel from 60", "Number Factor from 30", "Divisor Duel from 6"]
    assert [role for role, _ in names] == ["region"] * len(names), f"{where}: {names}"
    assert [label.split(":")[0] for _, label in names[:3]] == starts, f"{where}: {names}"
    lives = page.locator(".duel-board, .sum-board").evaluate_all(
        "bs => bs.map(b => b.querySelectorAll('[aria-live]:not([aria-live=off]), [role=status], [role=alert], "
        "[role=log]').length)"
    )
    assert lives and set(lives) == {1}, f"{where}: live regions per board: {lives}"
    labels = (
        view(page, "sum-board")
        .locator(".sum-move")
        .evaluate_all("bs => bs.map(b => b.getAttribute('aria-label') || b.textContent)")
    )
    assert labels[:2] == ["Number 1: 12 − 2 = 10", "Number 1: 12 − 3 = 9"], f"{where}: {labels}"
    assert labels[-1] == "Number 2: 18 − 9 = 9", f"{where}: {labels}"


def forced_colours(page: Any, where: str) -> None:
    """With forced colours every control keeps a visible border and every icon a visible colour."""
    tab = box_page(page)
    tab.emulate_media(forced_colors="active")
    try:
        bad, counts = [], {"controls": 0, "icons": 0}
        for name in VIEWS:
            box = view(page, name)
            to_top(box)
            found = box.evaluate(FORCED_JS)
            bad += [f"{name}: {b}" for b in found["bad"]]
            for k in counts:
                counts[k] += found["counts"][k]
        screenshot(page, view(page, "board-won"), f"{where}-forced-colours")
        screenshot(page, view(page, "sum-board"), f"{where}-forced-colours-sum")
    finally:
        tab.emulate_media(forced_colors="none")
    assert counts["controls"] > 40 and counts["icons"] > 50, f"{where}: too few checked: {counts}"
    assert not bad, f"{where}, forced colours: " + "; ".join(bad[:12])
    print(f"\n{where} forced colours: {counts['controls']} controls and {counts['icons']} icons checked")


def explorer_text(page: Any, where: str) -> float:
    """The explorers' smallest text, in px: at least 15."""
    smallest = []
    for box in page.locator(EXPLORERS).all()[:3]:
        to_top(box)
        sizes = box.evaluate(TEXT_SIZES_JS)
        assert len(sizes) > 5, f"{where}: only {sizes}"
        smallest.append(min(sizes, key=lambda s: s[2]))
        small = [s for s in sizes if s[2] < 15]
        assert not small, f"{where}: explorer text under 15 px (text, class, px): {small[:8]}"
    return min(s[2] for s in smallest)


def ring_clear_of_numbers(page: Any, where: str) -> None:
    """A sum board's first move in each row with the keyboard focus: its ring (10 px of shadow) covers no number."""
    board = view(page, "sum-board")
    to_top(board)
    keyboard = board.page.keyboard
    for row in (1, 2):
        board.locator(f".sum-row-{row} .sum-move").first.focus()
        keyboard.press("Tab")  # the focus ring shows after a key (:focus-visible): to the next move and back
        keyboard.press("Shift+Tab")
        assert f"sum-move-{row}-" in (board.page.evaluate("document.activeElement.className") or "")
        found = board.evaluate(
            r"""(b) => {
              const a = document.activeElement, r = a.getBoundingClientRect();
              const last = getComputedStyle(a).boxShadow.split(/,(?![^(]*\))/).pop();  // the outermost ring
              const ring = Math.max(0, ...(last.match(/-?[\d.]+px/g) || []).map(parseFloat));
              const out = [];
              for (const n of b.querySelectorAll(".sum-row-label b")) {
                const q = n.getBoundingClientRect();
                if (q.right > r.left - ring && q.left < r.right + ring && q.bottom > r.top - ring
                    && q.top < r.bottom + ring) out.push(n.textContent + " at " + [q.left, q.top, q.right, q.bottom]);
              }
              return { ring, out, button: [r.left, r.top, r.right, r.bottom].map(Math.round) };
            }"""
        )
        assert found["ring"] >= 6, f"{where}: no focus ring found: {found}"
        assert not found["out"], f"{where}: the focus ring of row {row}'s first move covers {found}"


def screenshot(page: Any, box: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    to_top(box)
    box.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def box_page(scope: Any) -> Any:
    """The Page of a Locator (Lab's notebook panel), or the Page itself."""
    return scope.page if hasattr(scope, "page") else scope


def screenshots(page: Any, where: str) -> None:
    """Every view at 1280×720 and 800×600, each scrolled to the top of the screen."""
    tab = box_page(page)
    old = tab.viewport_size
    try:
        for width, height in SIZES:
            tab.set_viewport_size({"width": width, "height": height})
            for name in VIEWS:
                if name != "board-pn":
                    screenshot(page, view(page, name), f"{where}-{name}-{width}x{height}")
    finally:
        tab.set_viewport_size(old)


def set_lab_theme(page: Any, name: str, light: bool) -> None:
    """Settings menu → Theme → ``name``."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Theme$")).first.hover()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{name}$")).first.click()
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{str(light).lower()}'")


def lab_small_screen(panel: Any) -> dict[str, Any]:
    """At 800×600 with the file list open: the board's number and its first row of cards on screen together."""
    page = panel.page
    old = page.viewport_size
    page.set_viewport_size({"width": 800, "height": 600})
    files = page.locator(".jp-FileBrowser")
    opened = not files.is_visible()
    try:
        if opened:
            page.locator(".lm-TabBar-tab[data-id='filebrowser']").click()
        files.wait_for()
        board = view(panel, "board")
        to_top(board)
        return board.evaluate(
            r"""(b) => {
              const scroller = b.closest(".jp-WindowedPanel-outer") || document.scrollingElement;
              const s = scroller.getBoundingClientRect();
              const top = Math.max(0, s.top), bottom = Math.min(innerHeight, s.bottom);
              const left = Math.max(0, s.left), right = Math.min(innerWidth, s.right);
              const inside = (r) => r.top >= top && r.bottom <= bottom && r.left >= left && r.right <= right;
              const n = b.querySelector(".dg-number").getBoundingClientRect();
              const cards = Array.from(b.querySelectorAll(".dg-card")).map((c) => c.getBoundingClientRect());
              const row = cards.filter((c) => Math.abs(c.top - cards[0].top) < 2);
              return { number: inside(n), row: row.length, rowShown: row.every(inside), cards: cards.length,
                       files: document.querySelector(".jp-FileBrowser").getBoundingClientRect().width,
                       notebook: Math.round(right - left) };
            }"""
        )
    finally:
        if opened:
            page.locator(".lm-TabBar-tab[data-id='filebrowser']").click()  # as it was
        page.set_viewport_size(old)


def test_lab_views_axe_forced_colours_sizes_and_screenshots(lab: Lab, lab_board: Any) -> None:
    """On the Lab page the other tests share: views.ipynb in its own tab, then board.ipynb's tab again."""
    page = lab_board
    t0 = time.monotonic()
    panel = switch_to(page, "views.ipynb")
    try:
        smallest, small, problems = lab_checks(page, panel)
    finally:
        close_tab(page, "views.ipynb")  # the tests after this one read board.ipynb's boards, alone on this page
        switch_to(page, "board.ipynb")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
    assert small["number"] and small["rowShown"] and small["row"] >= 2 and small["files"] > 100, small
    print(
        f"\nLab views: axe clean light and dark; explorers' smallest text {smallest:.1f} px; at 800×600 with the "
        f"file list ({small['files']:.0f} px) open: the number and a row of {small['row']} cards on screen "
        f"({small['notebook']} px for the notebook); {time.monotonic() - t0:.1f} s"
    )


def close_tab(page: Any, name: str) -> None:
    """Close notebook ``name``'s tab, its changes (the outputs of Run All) discarded."""
    tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=name)
    tab.locator(".lm-TabBar-tabCloseIcon").click()
    discard = page.locator(".jp-Dialog button.jp-mod-warn")
    deadline = time.monotonic() + 30  # a safety net: the tab goes, or the dialog comes
    while tab.count() and time.monotonic() < deadline:
        if discard.count():
            discard.first.click()
        page.wait_for_timeout(100)
    assert not tab.count(), f"{name}'s tab did not close"


def lab_checks(page: Any, panel: Any) -> tuple[float, dict[str, Any], list[str]]:
    """Every check of views.ipynb in Lab: (the explorers' smallest text, the small screen's boxes, problems)."""
    run_all(page, panel)
    last = panel.locator(LAST)
    for _ in range(3):  # Lab draws a cell's output when it is near the view: bring the last one there
        panel.locator(".jp-Cell").last.evaluate("e => e.scrollIntoView()")
        if last.count():
            break
        page.wait_for_timeout(500)
    drawn(panel)
    problems = audit(panel, "Lab light")
    axe_sees_a_fault(panel)
    gather(problems, boards_named_and_live, panel, "Lab")
    smallest = gather(problems, explorer_text, panel, "Lab")
    gather(problems, ring_clear_of_numbers, panel, "Lab")
    gather(problems, forced_colours, panel, "lab")
    screenshots(panel, "lab-light")
    small = lab_small_screen(panel)
    set_lab_theme(page, "JupyterLab Dark", light=False)
    try:
        problems += audit(panel, "Lab dark")
        screenshots(panel, "lab-dark")
    finally:
        set_lab_theme(page, "JupyterLab Light", light=True)
    return smallest, small, problems


def test_voila_views_axe_and_screenshots(voila: Voila, page: Any) -> None:
    t0 = time.monotonic()
    problems: list[str] = []
    for theme in ("light", "dark"):
        page.goto(voila.page_url("views.ipynb") + ("?theme=dark" if theme == "dark" else ""))
        drawn(page)
        problems += audit(page, f"Voilà {theme}")
        if theme == "light":
            gather(problems, boards_named_and_live, page, "Voilà")
            gather(problems, explorer_text, page, "Voilà")
            gather(problems, ring_clear_of_numbers, page, "Voilà")
            gather(problems, forced_colours, page, "voila")
        screenshots(page, f"voila-{theme}")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
    print(f"\nVoilà views: axe clean light and dark; {time.monotonic() - t0:.1f} s")


def test_class_report_page_axe_and_screenshots(page: Any, tmp_path: Path) -> None:
    """The class report of 30 students (test_class_report_page.class_of_30): axe-core finds no critical or serious
    violation in light or dark mode; screenshots at both sizes."""
    from test_class_report_page import class_of_30

    html = tmp_path / "report.html"
    html.write_text(class_of_30().html(), encoding="utf-8")
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(html.as_uri())
        page.evaluate(axe_js())
        for v in page.locator("body").evaluate(AXE_RUN):
            problems.append(f"class report {scheme}: {v['impact']} {v['id']} ({v['help']}): " + " | ".join(v["nodes"]))
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"class-report-{scheme}-{width}x{height}.png"))
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(18, 18, 18)", f"the dark page's background: {background}"
    assert not problems, "\n".join(problems)
