"""Fixtures for real-browser tests: JupyterLab and Voila servers, headless Chromium.

See shared/browser-testing.md for why each flag is here. Without Chromium the tests
are skipped with that reason, except under CI=true, where they fail instead.

Speed on a 2-core machine: one Lab and one Voilà server for the whole session, started side by
side; the test notebooks (harness.LAB_NOTEBOOKS, VOILA_NOTEBOOKS) are written before they start,
so Lab kernels are created by REST and Voilà pre-heats its kernels (each notebook has run before
its page is asked for) while Chromium loads Lab; every kernel imports the widgets at start-up.
The Lab tests share one page (``lab_board``); nothing waits a fixed time.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path() -> str | None:
    """Debian's Chromium, or None."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing_tools() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    missing = []
    if chromium_path() is None:
        missing.append("Debian's chromium is not installed (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright is not installed (pip install -e '.[test]')")
    return "; ".join(missing)


def require_tools() -> None:
    """Skip (fail under CI=true) when Chromium or Playwright is missing."""
    reason = missing_tools()
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"CI=true, so the browser tests must run, but {reason}")
    if reason:
        pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: Imported by every test kernel at start-up (IPython startup file), so a kernel is ready to show a board as
#: soon as it is idle: kernels start while the browser loads, instead of after "Run All".
WARM_UP = "import duel_lessons.views.widgets  # browser tests: warm the kernel while the page loads\n"


@pytest.fixture(scope="session")
def jupyter_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment with private Jupyter, IPython and matplotlib dirs."""
    base = tmp_path_factory.mktemp("jupyter")
    env = dict(os.environ)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_SETTINGS_DIR",
                "JUPYTERLAB_WORKSPACES_DIR", "IPYTHONDIR", "MPLCONFIGDIR"):
        path = base / var.lower()
        path.mkdir()
        env[var] = str(path)
    settings = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    startup = Path(env["IPYTHONDIR"]) / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-warm-up.py").write_text(WARM_UP)
    return env


def wait_for(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (OSError, http.client.HTTPException):  # not up yet (or, before it exits, someone else's port)
            time.sleep(0.1)
    raise TimeoutError(f"server did not answer {url} within {timeout} s")


def stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to every server at once, then wait for each (they shut their kernels down in parallel)."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


class Lab:
    """A running JupyterLab server rooted at ``root``."""

    def __init__(self, url: str, token: str, root: Path) -> None:
        self.url, self.token, self.root = url, token, root
        self.sessions: set[str] = set()

    def notebook_url(self, path: str) -> str:
        return f"{self.url}/lab/tree/{path}?token={self.token}&reset"

    def start_session(self, path: str) -> None:
        """Create the kernel session first, so no "Select Kernel" dialog appears (once per notebook)."""
        if path in self.sessions:
            return
        body = json.dumps({"path": path, "name": path, "type": "notebook", "kernel": {"name": "python3"}}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/sessions?token={self.token}", data=body, method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60):
            self.sessions.add(path)


class Voila:
    """A running Voilà server on a folder; each notebook has a kernel that ran it before the page is asked for."""

    def __init__(self, url: str, root: Path) -> None:
        self.url, self.root = url, root

    def page_url(self, name: str) -> str:
        return f"{self.url}/voila/render/{name}"


class Servers:
    """One JupyterLab and one Voilà server for the whole test session, started side by side."""

    def __init__(self, lab: Lab, voila: Voila) -> None:
        self.lab, self.voila = lab, voila


@pytest.fixture(scope="session")
def servers(jupyter_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """Lab serving a scratch copy of notebooks/ plus the tests' notebooks; Voilà serving the app and the tests'
    Voilà notebooks with pre-heated kernels (each notebook has already run when its page is opened)."""
    from harness import LAB_NOTEBOOKS, LAB_OPENED, VOILA_NOTEBOOKS

    require_tools()
    lab_root, voila_root = tmp_path_factory.mktemp("lab-root"), tmp_path_factory.mktemp("voila-root")
    if (ROOT / "notebooks").is_dir():
        shutil.copytree(ROOT / "notebooks", lab_root, dirs_exist_ok=True)
    for root, notebooks in ((lab_root, LAB_NOTEBOOKS), (voila_root, VOILA_NOTEBOOKS)):
        for name, content in notebooks.items():
            (root / name).write_text(json.dumps(content) if isinstance(content, dict) else content.read_text())
    logs = tmp_path_factory.mktemp("logs")
    procs: list[subprocess.Popen[bytes]] = []
    files = []
    try:
        for attempt in range(3):  # a port taken between free_port() and the server's bind (a shared machine): again
            lab_port, voila_port, token = free_port(), free_port(), secrets.token_hex(16)
            commands = {
                "lab": [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={lab_port}",
                        f"--IdentityProvider.token={token}", "--ServerApp.open_browser=False", "--allow-root",
                        f"--ServerApp.root_dir={lab_root}", "--ServerApp.port_retries=0"],
                "voila": [sys.executable, "-m", "voila", str(voila_root), "--no-browser", f"--port={voila_port}",
                          "--Voila.ip=127.0.0.1", "--preheat_kernel=True", "--pool_size=1", "--Voila.port_retries=0",
                          "--VoilaKernelManager.fill_delay=3600",  # each page opened once: no second kernel each
                          # A kernel busy at start-up (seven notebooks run at once) sends a cell's output after
                          # nbclient's 4 s: Voilà then dropped it ("Timeout waiting for IOPub output").
                          "--VoilaExecutor.iopub_timeout=120"],
            }  # fmt: skip
            for name, command in commands.items():
                files.append(open(logs / f"{name}-{attempt}.log", "wb"))  # noqa: SIM115
                # Voilà reads ./voila.json: run it in its own root, not under the repository's (the app's pool only).
                where = voila_root if name == "voila" else None
                procs.append(subprocess.Popen(command, env=jupyter_env, cwd=where, stdout=files[-1],
                                              stderr=subprocess.STDOUT))  # fmt: skip
            lab = Lab(f"http://127.0.0.1:{lab_port}", token, lab_root)
            voila = Voila(f"http://127.0.0.1:{voila_port}", voila_root)
            try:
                wait_for(f"{lab.url}/api/status?token={token}", procs[-2])
                wait_for(f"{voila.url}/voila/static/voila.js", procs[-1])
                break
            except RuntimeError:
                if attempt == 2:
                    raise
                stop_all(procs[-2:])
        for name in LAB_OPENED:  # kernels start (and warm up) while the browser loads Lab
            lab.start_session(name)
        yield Servers(lab, voila)
    finally:
        stop_all(procs)
        for file in files:
            file.close()


@pytest.fixture(scope="session")
def lab(servers: Servers) -> Lab:
    return servers.lab


@pytest.fixture(scope="session")
def voila(servers: Servers) -> Voila:
    return servers.voila


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright."""
    require_tools()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def lab_board(browser: Any, lab: Lab) -> Iterator[Any]:
    """One Lab page with ``board.ipynb`` (harness.LAB_NOTEBOOKS) run once, shared by the tests that read it."""
    from harness import open_and_run

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    pg.set_default_timeout(120_000)  # a safety net against a hang (harness.SAFETY_NET)
    open_and_run(lab, pg, "board.ipynb")
    yield pg
    context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    pg.set_default_timeout(120_000)  # a safety net against a hang (harness.SAFETY_NET)
    yield pg
    context.close()
