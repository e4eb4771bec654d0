"""Each bot reads only itself (issue 30): a bot file runs from a private copy made for its own worker.

The copy is ``NAME.py`` with mode 0600 in a folder of its own with mode 0700, both owned by the
worker's user; bubblewrap binds only that folder into the worker, and without bubblewrap the worker
covers the other bots' folders and every copy in a mount namespace of its own before the bot runs.
The attacking bots here are unrestricted (``restricted=False``: they may ``open`` files), so these
tests judge the file and namespace layers alone.  Each test runs with bubblewrap (where it works)
and without it (``bubblewrap`` replaced, as in tests/test_sandbox.py).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import duel_lessons.play.sandbox as sandbox
from duel_lessons.engine.game import new_game
from duel_lessons.play.sandbox import UID_BASE, BotFile, Forfeit, Sandbox

RULES = new_game().rules
LINUX = hasattr(os, "geteuid") and os.uname().sysname == "Linux"


@pytest.fixture(autouse=True, params=["bubblewrap", "no bubblewrap"])
def setup(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with bubblewrap (skipped where it does not run) and without it."""
    monkeypatch.setattr(sandbox, "LOAD_WALL_LIMIT", 600.0)  # a start is judged by its CPU time
    if not LINUX:
        pytest.skip("private copies and mount namespaces are for Linux")
    if request.param == "bubblewrap":
        if sandbox.bubblewrap()[0] is None:
            pytest.skip("bubblewrap does not run here")
    else:
        monkeypatch.setattr(sandbox, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    return str(request.param)


def _bots(tmp_path: Path, attack: str) -> tuple[BotFile, BotFile]:
    """A rival (its text holds a secret) and an attacker, in one world-readable folder like a class's bots."""
    tmp_path.chmod(0o755)
    (tmp_path / "rival.py").write_text("# RIVAL-SECRET\ndef move(state):\n    return state.legal_moves[0]\n")
    (tmp_path / "attacker.py").write_text(attack)
    return BotFile.snapshot(tmp_path / "rival.py"), BotFile.snapshot(tmp_path / "attacker.py")


def test_the_copy_is_private_to_its_worker(tmp_path: Path) -> None:
    rival, _ = _bots(tmp_path, "")
    with Sandbox(rival, RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 12)) == 2
        assert box._copy is not None
        folder, copy = box._copy, box._copy / "rival.py"
        assert copy.read_text() == (tmp_path / "rival.py").read_text()
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and stat.S_IMODE(copy.stat().st_mode) == 0o600
        owner = copy.stat().st_uid
        assert folder.stat().st_uid == owner
        if os.geteuid() == 0 and sandbox.can_change_user():
            assert owner >= UID_BASE  # the worker's own user, whom no other worker shares
        else:
            assert owner == os.geteuid()
    assert not folder.exists()  # removed with the worker


READ_BY_PATH = (
    "import glob, os\n"
    "RIVAL = {rival!r}\nRIVAL_COPY = {copy!r}\nCOPIES = {copies!r}\n"
    "def move(state):\n"
    "    found = []\n"
    "    for path in [RIVAL, RIVAL_COPY, *glob.glob(os.path.join(COPIES, '*', '*.py'))]:\n"
    "        try:\n"
    "            if 'RIVAL-' + 'SECRET' in open(path).read():\n"
    "                found.append(path)\n"
    "        except OSError:\n"
    "            pass\n"
    "    if found:\n"
    "        raise RuntimeError('ESCAPED: read ' + ', '.join(found))\n"
    "    return state.legal_moves[-1]\n"
)


def test_no_bot_reads_another_bots_file_or_copy_by_path(tmp_path: Path, setup: str) -> None:
    """The rival's file (world-readable) and its live private copy, named by path and found by listing."""
    rival, _ = _bots(tmp_path, "")
    with Sandbox(rival, RULES, 5.0) as other:
        assert other.ask(new_game("divisor-duel", 12)) == 2
        assert other._copy is not None
        attack = READ_BY_PATH.format(
            rival=str(tmp_path / "rival.py"), copy=str(other._copy / "rival.py"), copies=sandbox.copies_folder()
        )
        _, attacker = _bots(tmp_path, attack)
        with Sandbox(attacker, RULES, 5.0, restricted=False) as box:
            try:
                answer: object = box.ask(new_game("divisor-duel", 12))
            except Forfeit as forfeit:
                answer = forfeit.reason
            if setup == "no bubblewrap" and not box.hidden:
                pytest.skip("this kernel allows no namespace to this user: the restricted namespace is the layer")
    assert answer == 6


def test_a_bots_traceback_still_shows_its_own_lines(tmp_path: Path) -> None:
    """The worker keeps the text of its copy for tracebacks, even once the copy is covered."""
    _, bot = _bots(tmp_path, "def move(state):\n    return 1 // 0  # the line of the mistake\n")
    with Sandbox(bot, RULES, 5.0) as box, pytest.raises(Forfeit) as caught:
        box.ask(new_game("divisor-duel", 12))
    assert "ZeroDivisionError" in caught.value.reason
    assert "1 // 0  # the line of the mistake" in (caught.value.trace or "")
