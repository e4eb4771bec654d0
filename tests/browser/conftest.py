"""Fixtures for real-browser tests: JupyterLab and Voila servers, headless Chromium.

See shared/browser-testing.md for why each flag is here. Without Chromium the tests
are skipped with that reason, except under CI=true, where they fail instead.
"""

from __future__ import annotations

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    return env


def wait_for(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"server did not answer {url} within {timeout} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


class Lab:
    """A running JupyterLab server rooted at ``root``."""

    def __init__(self, url: str, token: str, root: Path) -> None:
        self.url, self.token, self.root = url, token, root

    def notebook_url(self, path: str) -> str:
        return f"{self.url}/lab/tree/{path}?token={self.token}&reset"

    def start_session(self, path: str) -> None:
        """Create the kernel session first, so no "Select Kernel" dialog appears."""
        body = json.dumps({"path": path, "name": path, "type": "notebook", "kernel": {"name": "python3"}}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/sessions?token={self.token}", data=body, method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60):
            pass


@pytest.fixture(scope="session")
def lab(jupyter_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab serving a scratch copy of notebooks/ (tests may add notebooks to it)."""
    root = tmp_path_factory.mktemp("lab-root")
    if (ROOT / "notebooks").is_dir():
        shutil.copytree(ROOT / "notebooks", root, dirs_exist_ok=True)
    port, token = free_port(), secrets.token_hex(16)
    log = open(tmp_path_factory.mktemp("logs") / "lab.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", "--ServerApp.open_browser=False", "--allow-root",
         f"--ServerApp.root_dir={root}"],
        env=jupyter_env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for(f"{url}/api/status?token={token}", proc)
        yield Lab(url, token, root)
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="session")
def voila_server(jupyter_env: dict[str, str]) -> Iterator[Any]:
    """Start Voila on a notebook: ``url = voila_server(path)``; stopped at the end."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(notebook: Path) -> str:
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1"],
            env=jupyter_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        procs.append(proc)
        url = f"http://127.0.0.1:{port}"
        wait_for(f"{url}/voila/static/voila.js", proc)
        return url

    yield start
    for proc in procs:
        stop(proc)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright."""
    reason = missing_tools()
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"CI=true, so the browser tests must run, but {reason}")
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()
