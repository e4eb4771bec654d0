"""The Voilà app's first card: seconds from page load until the board's first move card shows, in Chromium.

Run ``nice -n 10 python benchmarks/bench_voila.py`` (about a minute).  Needs Debian's chromium and playwright
(tests/browser/conftest.py has the flags).  Each run starts a fresh server on ``notebooks/play.ipynb`` (so a fresh
kernel), opens the page once and times, in the page's own clock (``performance.now()``, from the navigation's
start), when the HTML arrived and when the first ``.dg-card`` became visible.  Target: <= 3 s on a quiet machine.

Setups (``--setup``, several allowed; default: the first four):

* ``plain``: ``voila notebooks/play.ipynb`` run from a folder without a voila.json, the page asked for as soon as
  the server answers: the kernel starts and runs the notebook while the browser waits for the HTML;
* ``repo``: the same command run from the repository's root, so its ``voila.json`` applies (a pre-heated kernel
  for play.ipynb); the page is asked for as soon as the server answers, as when voila opens the browser;
* ``repo-settled``: the same, with the page asked for ``--settle`` seconds later (the pre-heated kernel has
  already run the notebook: a second visitor, or a teacher who starts the server before the lesson);
* ``binder``: ``jupyter server`` with Voilà as its extension, as the Binder app link serves it
  (``/voila/render/notebooks/play.ipynb``; the extension has no kernel pool);
* ``progressive``, ``binder-progressive``: ``plain`` and ``binder`` with Voilà's progressive rendering (measured
  slower here, so not used).

``--code DIR`` serves another copy of the package (``git archive COMMIT | tar -x -C DIR``, for a before/after:
its voila.json, if any, is the one used).  Before timing, ``python -m duel_lessons.warm`` fills matplotlib's and
numba's caches for that copy, as Binder's postBuild does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: As in tests/browser/conftest.py (see /work/shared/browser-testing.md for why each is there).
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SETUPS = ("plain", "repo", "repo-settled", "binder", "progressive", "binder-progressive")
TARGET_S = 3.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(url)


def server(setup: str, code: Path, port: int, env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start the server for ``setup``; the page's URL."""
    notebook = code / "notebooks" / "play.ipynb"
    if setup.startswith("binder"):
        command = [sys.executable, "-m", "jupyter", "server", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                   "--IdentityProvider.token=", "--ServerApp.password=", "--allow-root", f"--ServerApp.root_dir={code}",
                   "--ServerApp.port_retries=0", "--ServerApp.jpserver_extensions={'voila': True}"]  # fmt: skip
        if setup == "binder-progressive":
            command.append("--VoilaConfiguration.progressive_rendering=True")
        url, cwd = f"http://127.0.0.1:{port}/voila/render/notebooks/play.ipynb", code
    else:
        command = [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
                   "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"]  # fmt: skip
        if setup == "progressive":
            command.append("--progressive_rendering=True")
        url = f"http://127.0.0.1:{port}/"
        cwd = code if setup.startswith("repo") else Path(env["BENCH_EMPTY_DIR"])
    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    return proc, url


def one_run(
    setup: str, code: Path, env: dict[str, str], settle: float, browser: object, log: Path
) -> tuple[float, ...]:
    """(HTML arrived, first card visible, server up to first card) in seconds, for one fresh server."""
    port = free_port()
    began = time.monotonic()
    proc, url = server(setup, code, port, env, log)
    try:
        probe = f"http://127.0.0.1:{port}/" + ("api/status" if setup.startswith("binder") else "voila/static/voila.js")
        wait_for(probe, proc)
        if setup == "repo-settled":
            time.sleep(settle)
        page = browser.new_page()  # type: ignore[attr-defined]
        try:
            page.goto(url, wait_until="commit", timeout=180_000)
            page.locator(".duel-board .dg-card").first.wait_for(state="visible", timeout=180_000)
            card, html = page.evaluate(
                "() => [performance.now(), performance.getEntriesByType('navigation')[0].responseStart]"
            )
        finally:
            page.close()
        return html / 1000, card / 1000, time.monotonic() - began
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", action="append", choices=SETUPS, help="which setups (default: all)")
    parser.add_argument("--runs", type=int, default=3, help="fresh servers per setup")
    parser.add_argument("--settle", type=float, default=20.0, help="seconds before the page, for repo-settled")
    parser.add_argument("--code", type=Path, default=ROOT, help="the copy of the repository to serve")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Debian's chromium is needed (apt-get install chromium)")
    code = args.code.resolve()
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = str(code)  # the kernel imports this copy of duel_lessons
        for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):  # nobody's own settings
            env[var] = str(Path(scratch) / var.lower())
            Path(env[var]).mkdir()
        env["BENCH_EMPTY_DIR"] = str(Path(scratch) / "empty")
        Path(env["BENCH_EMPTY_DIR"]).mkdir()
        warm = subprocess.run([sys.executable, "-m", "duel_lessons.warm"], env=env, cwd=scratch, capture_output=True)
        print(warm.stdout.decode().strip() or warm.stderr.decode().strip()[-300:])
        log = Path(scratch) / "server.log"
        print(f"code {code}; {os.cpu_count()} CPUs, load average {os.getloadavg()} at the start")
        print(f"{'setup':14} {'run':>3} {'HTML s':>7} {'first card s':>13} {'server start to card s':>23}")
        results: dict[str, list[float]] = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for setup in args.setup or SETUPS[:4]:
                for run in range(1, args.runs + 1):
                    html, card, total = one_run(setup, code, env, args.settle, browser, log)
                    results.setdefault(setup, []).append(card)
                    print(f"{setup:14} {run:>3} {html:7.2f} {card:13.2f} {total:23.2f}", flush=True)
            browser.close()
        print(f"\nload average {os.getloadavg()} at the end")
        for setup, cards in results.items():
            verdict = "PASS" if statistics.median(cards) <= TARGET_S else "FAIL"
            print(f"{setup:14} first card: median {statistics.median(cards):.2f} s, "
                  f"{min(cards):.2f}-{max(cards):.2f} s  (target <= {TARGET_S:.0f} s)  {verdict}")  # fmt: skip


if __name__ == "__main__":
    main()
