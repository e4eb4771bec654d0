from typing import Any
from harness import run_all, screenshot
from conftest import Lab

def test_look(lab: Lab, page: Any) -> None:
    for name in ["00-start-here.ipynb", "01-divisors-and-primes.ipynb", "02-play-divisor-duel.ipynb"]:
        lab.start_session(name)
        page.goto(lab.notebook_url(name))
        run_all(page)
        page.wait_for_timeout(6000)
        cells = page.locator(".jp-Cell")
        n = cells.count()
        for i in range(0, n, 7):
            cells.nth(i).scroll_into_view_if_needed()
            page.evaluate("document.querySelector('.jp-WindowedPanel-outer') && 0")
            cells.nth(i).evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(400)
            screenshot(page, f"tmp-look-{name[:2]}-{i:02d}")
