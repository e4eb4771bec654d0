"""How a sandbox starts its worker, checked exactly without starting one (milliseconds).

``tests/test_sandbox_protocol.py`` scripts a worker's answers; here the start itself is scripted:
``Sandbox._start`` runs for real with ``_exec`` / ``_fork`` replaced by a worker that has already
written its first message, and ``Sandbox._exec`` runs for real with ``subprocess.Popen`` replaced by
a recorder (the command, its environment and file descriptors, and the spec sent over the socket).
Real workers in bubblewrap are ``tests/test_sandbox.py``'s (seconds each).
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_sandbox_protocol import STATE, FakeWorker, Scripted, with_fake_clock

import duel_lessons.play.sandbox as sandbox
from duel_lessons.engine.errors import DuelError
from duel_lessons.play.isolation import worker_environment
from duel_lessons.play.sandbox import BotFile, Forfeit, Sandbox

RULES = STATE.rules
real_private_copy = sandbox.private_copy
NO_PID = 2**30  # above any pid_max: no process has it


def first(state: Any) -> int:
    return 2


# -- a new sandbox ---------------------------------------------------------------------------


def test_a_new_sandbox_has_the_documented_defaults_and_has_spent_nothing() -> None:
    bot = Sandbox(first, RULES)
    assert (bot.bot, bot.rules) == (first, RULES)
    assert (bot.time_limit, bot.wall_limit, bot.game_budget, bot.total_budget) == (1.0, 5.0, None, None)
    assert (bot.memory_limit, bot.output_limit, bot.max_strikes, bot.restricted) == (536_870_912, 10_000, 3, True)
    assert (bot.output, bot.starts, bot.spent_game, bot.spent_total) == ("", 0, 0.0, 0.0)
    assert (bot.not_root, bot.hidden, bot.forked, bot._process) == (None, None, False, None)
    bot.close()  # nothing started: nothing to close, and no error
    bot.close()


def test_a_sandbox_keeps_the_limits_it_is_given() -> None:
    bot = Sandbox(first, RULES, 2, wall_limit=7, memory_limit=123, output_limit=45, max_strikes=6,
                  game_budget=30, total_budget=300, restricted=False)  # fmt: skip
    assert (bot.time_limit, bot.wall_limit, bot.game_budget, bot.total_budget) == (2.0, 7.0, 30.0, 300.0)
    assert all(type(t) is float for t in (bot.time_limit, bot.wall_limit, bot.game_budget, bot.total_budget))
    assert (bot.memory_limit, bot.output_limit, bot.max_strikes, bot.restricted) == (123, 45, 6, False)
    assert Sandbox(first, RULES, 0.5).wall_limit == 3.5  # 2 + 3 x 0.5 by default


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time_limit": 0}, "The time limit must be a finite number of seconds above 0, not 0."),
        ({"wall_limit": -1}, "The time limit must be a finite number of seconds above 0, not -1."),
        ({"game_budget": 0}, "The time limit must be a finite number of seconds above 0, not 0."),
        ({"total_budget": "60"}, "The time limit must be a number of seconds, not '60'."),
    ],
)
def test_a_bad_limit_or_budget_is_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(DuelError) as caught:
        Sandbox(first, RULES, **options)
    assert str(caught.value) == message


def test_the_first_start_is_not_charged_and_strikes_start_at_none() -> None:
    bot = Scripted(max_strikes=2, wall_limit=0.05)
    bot.forfeit()  # one stop: not yet disqualified with two strikes allowed
    assert bot._broken is None
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    bot.close()


# -- the start: a scripted first message ------------------------------------------------------


class Started(Sandbox):
    """A sandbox whose worker is a socket with the first message already written, and a fake process."""

    def __init__(self, bot: Any, hello: Any = None, **options: Any) -> None:
        super().__init__(bot, RULES, **options)
        self.hello = {"seq": 0} if hello is None else hello
        self.calls: list[tuple[Any, ...]] = []
        self.received: list[tuple[Any, ...]] = []
        self.worker = FakeWorker()
        self.kept: list[socket.socket] = []

    def _reply(self, theirs: socket.socket) -> FakeWorker:
        self.theirs = theirs
        if self.hello != b"":  # b"": the worker ends at once
            self.kept.append(socket.socket(fileno=os.dup(theirs.fileno())))  # its end, for later answers
        if self.hello != "silent":
            hello = self.hello if isinstance(self.hello, bytes) else json.dumps({"seq": 0, **self.hello}).encode()
            theirs.sendall(hello + b"\n" if hello else b"")
        return self.worker

    def close(self) -> None:
        super().close()
        for kept in self.kept:
            kept.close()
        self.kept.clear()

    def _exec(self, spec: Any, extra: Any, uid: Any, theirs: socket.socket, ours: socket.socket) -> Any:
        self.calls.append(("exec", spec, extra, uid))
        self.ours = ours  # the referee's end: _exec sends the spec down it
        return self._reply(theirs)

    def _fork(self, uid: Any, theirs: socket.socket, bot: Any) -> Any:
        self.calls.append(("fork", uid, bot))
        return self._reply(theirs)

    def _receive(self, seq: int, cpu_limit: float, wall_limit: float) -> dict[str, Any]:
        self.received.append((seq, cpu_limit, wall_limit, self._cpu, self._seq, self._buffer))
        return super()._receive(seq, cpu_limit, wall_limit)


@pytest.fixture
def bot_file(tmp_path: Path) -> BotFile:
    path = tmp_path / "alice.py"
    path.write_text("def move(state):\n    return 2\n")
    return BotFile(path)


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sandbox, "can_change_user", lambda: True)
    monkeypatch.setattr(sandbox, "next_uid", lambda: 4242)
    return 4242


def ticking(monkeypatch: pytest.MonkeyPatch, step: float) -> None:
    """The sandbox's clock moves on ``step`` seconds at every reading."""
    now = [1000.0]

    def monotonic() -> float:
        now[0] += step
        return now[0]

    monkeypatch.setattr(sandbox, "time", SimpleNamespace(monotonic=monotonic))


def test_a_bot_file_starts_a_fresh_interpreter_given_its_text(bot_file: BotFile, user: int) -> None:
    bot = Started(bot_file, memory_limit=99, output_limit=77)
    bot._start(10.0)
    spec = {"bot": (str(bot_file.path), "def move(state):\n    return 2\n"), "rules": RULES, "memory": 99,
            "output_limit": 77}  # fmt: skip
    assert bot.calls == [("exec", spec, [], 4242)]
    assert bot.ours is bot._sock  # the end _exec sends the spec down is the one the referee then reads
    assert bot.theirs.fileno() == -1  # the worker's end is closed here once the worker has it
    assert (bot._worker, bot.starts, bot.forked) == (bot.worker, 1, False)
    bot.close()


def test_every_start_is_counted_and_close_ends_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Started(first)
    with bot as entered:
        assert entered is bot
        bot._start(10.0)
        assert bot._process is bot.worker
        bot.close()
        bot.close()  # twice: nothing left to close
        assert (bot._worker, bot._sock, bot.worker.killed) == (None, None, True)
        bot.worker = FakeWorker()
        bot._start(10.0)
        assert bot.starts == 2
    assert bot.worker.killed and bot._worker is None  # leaving the with block closes it


def test_a_fresh_worker_reads_from_a_clean_buffer_and_counts_requests_from_one() -> None:
    bot = Started(first)
    bot._buffer, bot._seq = b'{"seq": 1, "move": 9}\n', 7  # what the last worker left unread
    bot._start(10.0)
    bot.kept[0].sendall(b'{"seq": 1, "move": 4}\n')
    assert bot.ask(STATE) == 4
    assert json.loads(bot.kept[0].recv(65536))["seq"] == 1
    bot.close()


def test_a_copy_already_removed_is_no_error_on_close() -> None:
    bot = Sandbox(first, RULES)
    bot._copy = Path("/nonexistent/duel-copy")  # as a cleaner of /tmp might leave it
    bot.close()
    assert bot._copy is None


def test_a_bot_file_already_read_is_not_read_again(tmp_path: Path, user: int) -> None:
    bot = Started(BotFile(tmp_path / "gone.py", "def move(state):\n    return 3\n"))
    bot._start(10.0)
    assert bot.calls[0][1]["bot"] == (str(tmp_path / "gone.py"), "def move(state):\n    return 3\n")
    bot.close()


def test_without_fork_a_bot_file_is_spawned_with_its_text(
    bot_file: BotFile, user: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(sandbox.os, "fork")
    bot = Started(bot_file)
    bot._start(10.0)
    assert bot.calls == [("fork", 4242, (str(bot_file.path), "def move(state):\n    return 2\n"))]
    bot.close()


def test_a_function_is_run_in_a_forked_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "can_change_user", lambda: False)
    monkeypatch.setattr(sandbox, "next_uid", lambda: 4242)
    bot = Started(first)
    bot._start(10.0)
    assert bot.calls == [("fork", None, first)]  # no user of its own where the referee cannot change user
    bot.close()


@pytest.mark.parametrize(
    ("problem", "reason"),
    [("it was a FIFO", "could not be loaded: alice.py: it was a FIFO"), (None, None)],
)
def test_a_bot_file_that_cannot_be_read_forfeits_for_good(tmp_path: Path, problem: str | None, reason: Any) -> None:
    path = tmp_path / "alice.py"
    bot = Started(BotFile(path, None, problem))  # without a problem: the file does not exist
    with pytest.raises(Forfeit) as caught:
        bot._start(10.0)
    expected = reason or f"could not be loaded: alice.py: [Errno 2] No such file or directory: '{path}'"
    assert caught.value.reason == expected
    assert bot.calls == []  # no worker started
    with pytest.raises(Forfeit) as again:
        bot.ask(STATE)
    assert again.value.reason == expected


def test_a_bot_file_that_is_not_utf8_forfeits(tmp_path: Path) -> None:
    path = tmp_path / "latin.py"
    path.write_bytes(b"\xff")
    with pytest.raises(Forfeit, match=r"^could not be loaded: latin\.py: 'utf-8' codec can't decode"):
        Started(BotFile(path))._start(10.0)


@pytest.mark.parametrize(
    ("time_limit", "wall", "cpu_limit", "wall_left"),
    [
        (1.0, 10.0, 5.0, 8.0),  # the load limits: 5 s of CPU, the clock's wall less the 2 s already gone
        (8.0, 10.0, 8.0, 8.0),  # a CPU limit over the load limit is the bot's own
        (1.0, 100.0, 5.0, 28.0),  # never over LOAD_WALL_LIMIT (30 s)
        (1.0, 1.0, 5.0, 0.0),  # never below 0
    ],
)
def test_a_start_waits_for_the_first_message_within_the_load_limits(
    monkeypatch: pytest.MonkeyPatch, time_limit: float, wall: float, cpu_limit: float, wall_left: float
) -> None:
    ticking(monkeypatch, 2.0)
    bot = Started(first, time_limit=time_limit, wall_limit=50.0)
    bot._cpu, bot._seq, bot._buffer = 3.0, 9, b"old"  # what a previous worker left
    bot._start(wall)
    assert bot.received == [(0, cpu_limit, wall_left, 0.0, 0, b"")]
    assert bot._sock is not None and bot._sock.gettimeout() == 50.0  # a request that cannot be sent gives up
    bot.close()


def test_what_the_first_message_says_is_kept(bot_file: BotFile, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Started(bot_file, hello={"ready": True, "not_root": 1, "nested": "yes", "hidden": True})
    bot.worker.cpu_seconds = 0.25
    bot._copy = Path("/nonexistent-copy")  # as _exec leaves it
    bot._start(10.0)
    assert (bot.not_root, bot.worker.nested, bot.hidden, bot._cpu) == (True, True, True, 0.25)  # type: ignore[attr-defined]
    bot._copy = None
    bot.close()


def test_a_first_message_that_says_nothing_is_not_root_and_not_nested() -> None:
    bot = Started(first, hello={"ready": True, "hidden": True})
    bot.worker.cpu_seconds = None  # CPU time not readable: 0
    bot._cpu = 4.0
    bot._start(10.0)
    assert (bot.not_root, bot.worker.nested, bot._cpu) == (False, False, 0.0)  # type: ignore[attr-defined]
    assert bot.hidden is None  # a forked function has no private copy: not asked
    bot.close()


def test_a_worker_that_failed_to_start_forfeits_for_good_with_its_traceback() -> None:
    bot = Started(first, hello={"failed": "ImportError: \x1b[1m" + "n" * 600, "traceback": "Trace\x07"})
    with pytest.raises(Forfeit) as caught:
        bot._start(10.0)
    assert caught.value.reason == "ImportError: \\x1b[1m" + "n" * 483  # 13 + 1 + 3 + 483 = 500 characters, then escaped
    assert caught.value.trace == "Trace\\x07"
    assert bot.worker.killed and bot._worker is None
    assert bot._broken is caught.value
    with pytest.raises(Forfeit) as again:
        bot.ask(STATE)
    assert (again.value.reason, again.value.trace) == (caught.value.reason, "Trace\\x07")
    assert bot.starts == 1


def test_a_worker_that_fails_without_a_traceback() -> None:
    bot = Started(first, hello={"failed": 42})
    with pytest.raises(Forfeit) as caught:
        bot._start(10.0)
    assert (caught.value.reason, caught.value.trace) == ("42", None)


def test_a_worker_that_ends_before_its_first_message_could_not_be_loaded() -> None:
    bot = Started(first, hello=b"")
    bot.worker.code = 3
    with pytest.raises(Forfeit) as caught:
        bot._start(10.0)
    assert caught.value.reason == "could not be loaded: its process ended (exit code 3)"
    assert bot.worker.killed and bot._worker is None and bot._broken is caught.value


def test_a_silent_start_is_stopped_by_its_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Started(first, hello="silent", wall_limit=50.0)
    with pytest.raises(Forfeit) as caught:
        bot._start(0.02)  # the time the clock allows, a little less by the time the wait starts
    assert caught.value.reason.startswith("could not be loaded: gave no answer within 0.0")


# -- a fresh interpreter: the command, its environment, and the spec it is sent ----------------------


class Recorder:
    """Stands for ``subprocess.Popen``: records the command and its options, starts nothing."""

    calls: list[tuple[list[str], dict[str, Any]]]

    def __init__(self, command: list[str], **options: Any) -> None:
        Recorder.calls.append((command, options))
        self.pid = NO_PID
        self.args = command


@pytest.fixture
def popen(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    Recorder.calls = []
    monkeypatch.setattr(sandbox.subprocess, "Popen", Recorder)
    return Recorder


def exec_worker(
    monkeypatch: pytest.MonkeyPatch,
    *,
    user_namespace: bool | None,
    namespaces: bool,
    uid: int | None = None,
    restricted: bool = True,
) -> tuple[Sandbox, Any, dict[str, Any], socket.socket]:
    """Run the real ``_exec``; the worker it made, the spec the worker was sent, and the referee's socket."""
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: (user_namespace, ""))
    monkeypatch.setattr(sandbox, "own_namespaces_here", lambda: namespaces)
    monkeypatch.setattr(sandbox, "folders_to_hide", lambda: ["/bots", "/copies"])
    monkeypatch.setattr(sandbox, "bwrap_command", lambda extra, user_ns: ["BWRAP", repr(extra), repr(user_ns)])
    copies: list[tuple[str, str, int | None]] = []

    def private_copy(name: str, source: str, uid: int | None) -> Path:  # owned by the referee: no root needed
        copies.append((name, source, uid))
        return real_private_copy(name, source, None)

    monkeypatch.setattr(sandbox, "private_copy", private_copy)
    bot = Sandbox(BotFile(Path("/somewhere/alice.py")), RULES, restricted=restricted)
    ours, theirs = socket.socketpair()
    spec = {"bot": ("/somewhere/alice.py", "def move(state):\n    return 2\n"), "rules": RULES, "memory": 5}
    worker = bot._exec(spec, ["/extra"], uid, theirs, ours)
    line = theirs.recv(1 << 20)
    theirs.close()
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    sent = pickle.loads(base64.b64decode(json.loads(line)["spec"]))
    assert copies == [("alice.py", "def move(state):\n    return 2\n", uid)]  # the copy is the worker user's
    return bot, worker, sent, ours


def test_without_bubblewrap_the_worker_is_a_fresh_python_with_its_own_namespaces(
    monkeypatch: pytest.MonkeyPatch, popen: type[Recorder]
) -> None:
    bot, worker, sent, ours = exec_worker(monkeypatch, user_namespace=None, namespaces=True)
    assert bot._copy is not None
    copy = bot._copy / "alice.py"
    assert copy.read_text() == "def move(state):\n    return 2\n"  # the private copy the worker reads
    [(command, options)] = popen.calls
    assert command == [sys.executable, "-s", "-m", "duel_lessons.play.bot_worker", command[-1]]
    assert options == {
        "stdin": subprocess.DEVNULL,
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
        "pass_fds": (int(command[-1]),),  # its socket, and no other file descriptor
        "env": worker_environment(["/extra"]),
        "cwd": "/",
        "start_new_session": True,  # no terminal
    }
    assert sent == {"bot": (str(copy), None), "rules": RULES, "memory": 5, "hide": ["/bots", "/copies"],
                    "uid": None, "restricted": True, "namespaces": True}  # fmt: skip
    assert (worker.pid, worker.uid, worker.popen) == (NO_PID, None, bot._process or worker.popen)
    assert isinstance(worker.popen, Recorder)
    assert ours.gettimeout() == 30.0  # the spec is sent within LOAD_WALL_LIMIT
    bot.close()
    assert not copy.parent.exists()  # the copy goes with the sandbox
    ours.close()


def test_without_namespaces_nothing_is_hidden(monkeypatch: pytest.MonkeyPatch, popen: type[Recorder]) -> None:
    bot, worker, sent, ours = exec_worker(monkeypatch, user_namespace=None, namespaces=False, uid=4321,
                                          restricted=False)  # fmt: skip
    assert (sent["hide"], sent["namespaces"], sent["uid"], sent["restricted"]) == ([], False, 4321, False)
    assert worker.uid == 4321
    bot.close()
    ours.close()


@pytest.mark.parametrize("user_namespace", [False, True])
def test_in_bubblewrap_only_the_copys_folder_is_added_and_no_namespaces_are_made(
    monkeypatch: pytest.MonkeyPatch, popen: type[Recorder], user_namespace: bool
) -> None:
    bot, _, sent, ours = exec_worker(monkeypatch, user_namespace=user_namespace, namespaces=True)
    [(command, _)] = popen.calls
    folders = ["/extra", str(bot._copy)]
    assert command[:3] == ["BWRAP", repr(folders), repr(user_namespace)]
    assert command[3:-1] == [sys.executable, "-s", "-m", "duel_lessons.play.bot_worker"]
    assert (sent["hide"], sent["namespaces"]) == ([], False)
    bot.close()
    ours.close()


def test_a_copy_that_cannot_be_made_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, popen: type[Recorder]) -> None:
    def refuse(name: str, source: str, uid: int | None) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sandbox, "private_copy", refuse)
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: (None, ""))
    bot = Sandbox(BotFile(Path("/somewhere/alice.py")), RULES)
    ours, theirs = socket.socketpair()
    with pytest.raises(DuelError) as caught:
        bot._exec({"bot": ("/somewhere/alice.py", "x")}, [], None, theirs, ours)
    reason = "[Errno 28] No space left on device"
    assert str(caught.value) == f"Cannot make a private copy of the bot file alice.py: {reason}."
    assert ours.fileno() == -1 and popen.calls == []
    theirs.close()


def test_a_process_that_cannot_start_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(command: list[str], **options: Any) -> None:
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(sandbox.subprocess, "Popen", refuse)
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: (None, ""))
    monkeypatch.setattr(sandbox, "own_namespaces_here", lambda: False)
    bot = Sandbox(BotFile(Path("/somewhere/alice.py")), RULES)
    ours, theirs = socket.socketpair()
    with pytest.raises(DuelError) as caught:
        bot._exec({"bot": ("/somewhere/alice.py", "x")}, [], None, theirs, ours)
    assert str(caught.value) == "Cannot start a process for the bot: [Errno 12] Cannot allocate memory."
    assert ours.fileno() == -1
    bot.close()
    theirs.close()


def test_a_worker_gone_before_its_spec_is_sent_is_left_to_the_reply(
    monkeypatch: pytest.MonkeyPatch, popen: type[Recorder]
) -> None:
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: (None, ""))
    monkeypatch.setattr(sandbox, "own_namespaces_here", lambda: False)
    bot = Sandbox(BotFile(Path("/somewhere/alice.py")), RULES)
    ours, theirs = socket.socketpair()
    theirs.close()  # the worker's end is gone: sending fails, quietly
    worker = bot._exec({"bot": ("/somewhere/alice.py", "x")}, [], None, theirs, ours)
    assert worker.pid == NO_PID
    bot.close()
    ours.close()


# -- one move: what the scripted worker's answers cost ------------------------------------------------


class Recording(Scripted):
    """A scripted worker whose waits are recorded: (request number, CPU limit, clock limit)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.waits: list[tuple[int, float, float]] = []

    def _receive(self, seq: int, cpu_limit: float, wall_limit: float) -> dict[str, Any]:
        self.waits.append((seq, cpu_limit, wall_limit))
        return super()._receive(seq, cpu_limit, wall_limit)


def test_a_restarts_seconds_are_not_taken_off_the_wait_for_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Recording(time_limit=0.5, game_budget=50.0, total_budget=100.0)
    with_fake_clock(bot, monkeypatch, start_seconds=5.0)
    bot._start(1.0)
    bot.workers[0].cpu_seconds = 0.6  # stopped by its CPU time
    bot.forfeit()
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4  # after a restart of 5 s: its answer still has the 50 s the game had before it
    assert bot.waits == [(1, 0.5, 50.0), (1, 0.5, 50.0)]
    assert bot.start_walls == [1.0, 100.0]
    bot.close()


def test_the_wait_is_the_wall_limit_when_the_budgets_have_more(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Recording(time_limit=0.5, wall_limit=7.0, game_budget=50.0, total_budget=100.0)
    with_fake_clock(bot, monkeypatch, start_seconds=0.0)
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    bot.spent_game = 45.5
    bot.send({"seq": 2, "move": 6})
    assert bot.ask(STATE) == 6
    assert bot.waits == [(1, 0.5, 7.0), (2, 0.5, 4.5)]
    bot.close()


def test_every_wait_adds_to_what_was_spent() -> None:
    bot = Scripted(game_budget=50.0, total_budget=100.0, wall_limit=0.05)
    bot.forfeit()
    bot.forfeit()  # two stops: each wait lasted at least its 0.05 s
    assert bot.spent_game >= 0.1 and bot.spent_total >= 0.1
    bot.close()


def test_a_fresh_worker_after_a_malformed_answer_starts_uncharged() -> None:
    bot = Scripted(total_budget=100.0)
    bot.send({"seq": 1, "move": "4"})
    assert bot.forfeit() == "sent a malformed answer"  # a bad answer, not a stop: the worker is closed
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    assert bot.start_walls == [sandbox.LOAD_WALL_LIMIT, sandbox.LOAD_WALL_LIMIT]
    assert bot._strikes == 0
    bot.close()


def test_a_long_refusal_is_cut_and_made_printable() -> None:
    bot = Scripted()
    bot.send({"seq": 1, "refused": "\x1b" + "r" * 600})
    assert bot.forfeit() == "\\x1b" + "r" * 499  # 500 characters, then escaped
    bot.close()


# -- a forked worker, for a function -----------------------------------------------------------------


class FakeContext:
    """Stands for a multiprocessing context: records the process asked for, starts nothing."""

    def __init__(self, method: str, fail: bool = False) -> None:
        self.method, self.fail, self.made = method, fail, []

    def Process(self, **options: Any) -> Any:  # multiprocessing's name
        if self.fail:
            raise TypeError("cannot pickle 'function' object")
        process = SimpleNamespace(pid=NO_PID, options=options, started=False)
        process.start = lambda: setattr(process, "started", True)
        self.made.append(process)
        return process


@pytest.mark.parametrize("uid", [None, 4242])
def test_a_function_runs_in_a_process_of_multiprocessing(monkeypatch: pytest.MonkeyPatch, uid: int | None) -> None:
    contexts: list[FakeContext] = []
    warmed: list[Any] = []
    groups: list[tuple[int, int]] = []
    monkeypatch.setattr(sandbox, "start_method", lambda: "fork-here")
    monkeypatch.setattr(
        sandbox.multiprocessing, "get_context", lambda m: contexts.append(FakeContext(m)) or contexts[-1]
    )
    monkeypatch.setattr(sandbox, "warm_up", warmed.append)
    monkeypatch.setattr(sandbox.os, "setpgid", lambda pid, group: groups.append((pid, group)))
    bot = Sandbox(first, RULES, memory_limit=11, output_limit=22, restricted=False)
    theirs = object()
    worker = bot._fork(uid, theirs, first)  # type: ignore[arg-type]
    [context] = contexts
    [process] = context.made
    assert context.method == "fork-here" and warmed == [RULES] and bot.forked
    assert process.options == {
        "target": sandbox.worker_main,
        "args": (first, RULES, theirs, 11, 22, uid, False),
        "name": "duel-bot",  # what ps shows
        "daemon": True,
    }
    assert process.started and groups == [(NO_PID, NO_PID)]  # a process group of its own, to kill it whole
    assert (worker.pid, worker.uid, worker.popen, worker.mp) == (NO_PID, uid, None, process)


def test_a_function_that_cannot_be_sent_to_a_process_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox.multiprocessing, "get_context", lambda m: FakeContext(m, fail=True))
    monkeypatch.setattr(sandbox, "warm_up", lambda rules: None)
    with pytest.raises(DuelError) as caught:
        Sandbox(first, RULES)._fork(None, object(), first)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "Cannot start a process for the bot: cannot pickle 'function' object. Define the bot in a .py file."
    )


def test_a_process_group_that_cannot_be_set_here_is_left_to_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(pid: int, group: int) -> None:
        raise PermissionError(1, "Operation not permitted")  # the worker already made its own

    monkeypatch.setattr(sandbox.multiprocessing, "get_context", FakeContext)
    monkeypatch.setattr(sandbox, "warm_up", lambda rules: None)
    monkeypatch.setattr(sandbox.os, "setpgid", refuse)
    assert Sandbox(first, RULES)._fork(None, object(), first).pid == NO_PID  # type: ignore[arg-type]
    monkeypatch.delattr(sandbox.os, "setpgid")  # not on Windows
    assert Sandbox(first, RULES)._fork(None, object(), first).pid == NO_PID  # type: ignore[arg-type]


# -- how often the referee looks at the clocks --------------------------------------------------------


class Polled(Scripted):
    """A scripted worker whose socket waits are recorded (select's time-outs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, **options: Any) -> None:
        super().__init__(**options)
        self.timeouts: list[float] = []
        real = sandbox.select.select

        def select(r: Any, w: Any, x: Any, timeout: float) -> Any:
            self.timeouts.append(timeout)
            return real(r, w, x, timeout)

        monkeypatch.setattr(sandbox, "select", SimpleNamespace(select=select))
        self.reads: list[float] = []

    def _read_line(self, timeout: float) -> bytes | None:
        self.reads.append(timeout)
        return super()._read_line(timeout)


@pytest.mark.parametrize(("time_limit", "tick"), [(1.0, 0.05), (0.1, 0.025), (0.01, 0.005), (0.001, 0.005)])
def test_the_cpu_time_is_looked_at_every_quarter_of_the_limit_within_bounds(
    monkeypatch: pytest.MonkeyPatch, time_limit: float, tick: float
) -> None:
    """The wait for an answer is cut into ticks: a quarter of the CPU limit, between 5 ms and CPU_TICK (50 ms)."""
    bot = Polled(monkeypatch, time_limit=time_limit)
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    assert bot.timeouts == [tick]
    bot.close()


def test_after_a_stale_line_the_rest_is_only_looked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Polled(monkeypatch, time_limit=1.0)
    bot.send({"seq": 0, "move": 1})
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    assert bot.reads == [0.05, 0.0]  # the line after a stale one: read without waiting
    bot.close()


def test_the_rest_of_a_split_line_is_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Polled(monkeypatch, time_limit=1.0, wall_limit=0.05)
    bot.send(b'{"seq": 1, "mo')
    assert bot.forfeit() == "gave no answer within 0.05 s (stopped)"
    assert bot.timeouts[:2] == [0.05, 0.0]  # after half a line, the clocks again: not a wait for the rest
    assert set(bot.timeouts[2:]) <= {0.05, 0.0}
    bot.close()


def test_the_seconds_already_spent_on_this_move_are_taken_off_its_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Recording(game_budget=50.0)
    ticking(monkeypatch, 1.0)  # every reading of the clock is a second later
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    # the start (1 s, not charged), then 1 s before the wait: 49 s of the game's 50 are left for it
    assert bot.waits == [(1, 1.0, 49.0)]
    # charged from the end of the start: the wall's reading, the wait's own, the last (1002 to 1005)
    assert (bot.spent_game, bot.spent_total) == (3.0, 3.0)
    bot.close()


def test_output_is_cut_at_exactly_the_limit() -> None:
    bot = Scripted(output_limit=10)
    bot.send({"seq": 1, "move": 2, "output": "abcd"}, {"seq": 2, "move": 2, "output": "efghijklmn"})
    assert bot.ask(STATE) == 2 and bot.ask(STATE) == 2
    assert bot.output == "abcdefghij\n[output cut]\n"  # 4 + the first 6 of the next answer
    bot.close()


def test_a_text_from_the_worker_is_cut_at_4000_characters_and_anything_else_is_none() -> None:
    assert sandbox._text("ab\x1b[2J") == "ab\\x1b[2J"  # made printable (the referee's printable)
    assert sandbox._text("x" * 4001) == "x" * 4000
    assert sandbox._text("x" * 4000) == "x" * 4000
    assert [sandbox._text(v) for v in ("", None, 5, ["a"], {"a": 1}, b"ab")] == [None] * 6
