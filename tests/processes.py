"""The sandbox's worker processes among this test process's children.

Other children may be running too (the browser tests' JupyterLab and Voila servers live for the
whole session), so a worker is recognised by its command line: a forked worker has this process's
own command line, a spawned one runs multiprocessing's spawn entry point.
"""

from __future__ import annotations

import contextlib

import psutil


def bot_processes() -> list[psutil.Process]:
    """Running sandbox workers (and anything they forked), not multiprocessing's resource tracker."""
    me = psutil.Process()
    own = me.cmdline()
    found = []
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            line = child.cmdline()
            text = " ".join(line)
            if "resource_tracker" in text or child.status() == psutil.STATUS_ZOMBIE:
                continue
            if line == own or "multiprocessing" in text or "bot_worker" in text or "bwrap" in text or not line:
                found.append(child)
    return found
