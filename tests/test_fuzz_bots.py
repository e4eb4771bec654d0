"""Hostile bots against the sandbox and the referee: every attack forfeits or is contained, nothing is left running.

Each attack is one bot; ``ATTACKS`` maps its name to (bot, what the referee must see): a whole
number (the bot's answer, read safely), or a piece of the forfeit reason.  After every attack the
referee's process has no child process and no extra thread left, and its modules are untouched.
Run with ``-v`` to see the count of attacks and their results.
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import socket
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import duel_lessons.engine.game as game_module
import duel_lessons.play.bot_worker as worker_module
import duel_lessons.play.sandbox as sandbox_module
import duel_lessons.play.tournament as tournament_module
from duel_lessons.engine.game import PASS, GameState, new_game
from duel_lessons.play.sandbox import OUTPUT_LIMIT, Forfeit, Sandbox
from duel_lessons.play.tournament import round_robin

from processes import bot_processes

LIMIT = 1.0  # CPU seconds per move: short, but room for a worker forked from a large test process
WALL = 2.0  # wall-clock limit for the bots that sleep or stop themselves (they use no CPU, so no load delays them)
BACKSTOP = 300.0  # wall-clock backstop for every other attack: they are judged by CPU time or outcome, never the clock
START = 12  # legal moves 2, 3, 4, 6
#: A file in a folder of the teacher's that bots must not create (set per test, inherited by the forked worker).
TARGET = Path("/nonexistent/duel-fuzz")

ISOLATED = hasattr(os, "fork") and sys.platform.startswith("linux")


@pytest.fixture(autouse=True)
def starts_judged_by_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's start is judged by its CPU time (``LOAD_LIMIT``); its clock limit becomes a safety net only.

    At load 19 a spawned interpreter (which imports this test module to unpickle the bot) took over the
    30 s of ``LOAD_WALL_LIMIT`` on the clock while well within its CPU limit.
    """
    monkeypatch.setattr(sandbox_module, "LOAD_WALL_LIMIT", 600.0)


# -- the attacks -------------------------------------------------------------------------------


def spin() -> None:
    while True:
        pass


class LoopingIndex:
    def __index__(self) -> int:
        spin()
        return 2


class RaisingIndex:
    def __index__(self) -> int:
        raise ValueError("no index for you")


class StrIndex:
    def __index__(self) -> str:
        return "2"


class InterruptingIndex:
    def __index__(self) -> int:
        raise KeyboardInterrupt


class EvilEquality:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")


class LoopingRepr:
    def __repr__(self) -> str:
        spin()
        return ""


class SneakyInt(int):
    """An int whose comparisons lie: the referee must get a plain 2."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __index__(self) -> int:
        return 2


class EvilBase(BaseException):
    def __str__(self) -> str:
        raise RuntimeError("cannot even print me")


def monkeypatch_referee(state: GameState) -> object:
    """Patch the engine and the referee so that any move is legal, then play an illegal one."""
    game_module.GameState.check = lambda self, divisor: None  # type: ignore[method-assign]
    game_module.play_out = lambda *a, **k: None  # type: ignore[assignment,misc]
    tournament_module._checked = lambda ask: ask  # type: ignore[assignment]
    sandbox_module.Sandbox.ask = lambda self, s: 1  # type: ignore[method-assign]
    return 1


def rewrite_frames(state: GameState) -> object:
    """Walk up the frames and rewrite whatever is there (the worker's own frames, not the referee's)."""
    frame = sys._getframe()
    while frame is not None:
        frame.f_globals["decode_state"] = lambda rules, data: None
        frame.f_globals["_answer"] = lambda function, s: {"move": 1}
        for name in ("state", "rules", "reply", "request"):
            if name in frame.f_locals:
                frame.f_locals[name] = None
        frame = frame.f_back  # type: ignore[assignment]
    return state.legal_moves[0]


def sabotage_by_gc(state: GameState) -> object:
    """Find every function object and make it return 1 (in the referee this would break everything)."""
    bad = (lambda *a, **k: 1).__code__
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and not obj.__code__.co_freevars and obj is not sabotage_by_gc:
            obj.__code__ = bad
    return 2


def mutate_state(state: GameState) -> object:
    object.__setattr__(state, "number", 4)
    object.__setattr__(state, "history", ())
    return 2


def sockets() -> list[socket.socket]:
    """The worker's open sockets (objects inherited from the referee have closed descriptors)."""
    return [s for s in gc.get_objects() if isinstance(s, socket.socket) and s.fileno() >= 0 and _open(s)]


def _open(sock: socket.socket) -> bool:
    try:
        os.fstat(sock.fileno())
    except OSError:
        return False
    return True


def forge_replies(state: GameState) -> object:
    """Send forged answers for the next requests down the worker's socket."""
    for sock in sockets():
        for seq in range(200):
            sock.sendall(b'{"seq": %d, "move": 1, "output": "forged"}\n' % seq)
    return 2


def flood_stale_answers(state: GameState) -> object:
    """Loop for ever, sending answers to old requests: the referee must still stop it."""
    (sock,) = sockets()
    while True:
        sock.sendall(b'{"seq": 0, "ready": true, "output": ""}\n')


def send_garbage(state: GameState) -> object:
    for sock in sockets():
        sock.sendall(b"{not json at all\n")
    spin()
    return 2


def send_flood(state: GameState) -> object:
    for sock in sockets():
        sock.sendall(b"x" * 400_000)
    spin()
    return 2


def close_everything(state: GameState) -> object:
    os.closerange(0, 1024)
    return 2


def fork_bomb(state: GameState) -> object:
    for _ in range(20):  # bounded: RLIMIT_NPROC must stop the first one
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
    return 2


def spinning_thread(state: GameState) -> object:
    threading.Thread(target=spin, daemon=True).start()
    return 2


def signal_referee(state: GameState) -> object:
    try:
        os.kill(os.getppid(), 0)  # signal 0 checks the permission and changes nothing
    except PermissionError:
        return 2
    return "I could signal the referee"


def write_teachers_file(state: GameState) -> object:
    try:
        TARGET.write_text("pwned")
    except OSError:
        return 2
    return "I wrote a file"


def ignore_signals_and_loop(state: GameState) -> object:
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGXCPU, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    spin()
    return 2


def grow_memory(state: GameState) -> object:
    hoard = []
    while True:
        hoard.append(bytes(50 * 2**20))


def deep_recursion(state: GameState) -> object:
    sys.setrecursionlimit(10**7)

    def down(n: int) -> int:
        return down(n + 1) + 1

    return down(0)


def print_flood(state: GameState) -> object:
    for _ in range(100_000):
        print("x" * 99)
    sys.stderr.write("y" * 1_000_000)
    return 2


def fd_flood(state: GameState) -> object:
    os.write(1, b"x" * 1_000_000)
    os.write(2, b"y" * 1_000_000)
    return 2


def replace_stdout(state: GameState) -> object:
    sys.stdout = None  # type: ignore[assignment]
    print("lost")
    return 2


def huge_message(state: GameState) -> object:
    raise ValueError("x" * 10_000_000)


def const(value: object) -> Callable[[GameState], object]:
    return lambda state: value


def raiser(error: BaseException) -> Callable[[GameState], object]:
    def bot(state: GameState) -> object:
        raise error

    return bot


def call(action: Callable[[], object], then: object = 2) -> Callable[[GameState], object]:
    def bot(state: GameState) -> object:
        action()
        return then

    return bot


#: name -> (bot, expected): an int answer, a piece of the forfeit reason, or a tuple of such (any one of them)
ATTACKS: dict[str, tuple[Callable[[GameState], object], object]] = {
    # time
    "infinite loop": (lambda s: spin(), "time limit"),
    "loop ignoring SIGTERM/SIGXCPU": (ignore_signals_and_loop, "time limit"),
    "sleep for ever": (call(lambda: time.sleep(1000)), "no answer within"),
    "SIGSTOP itself": (call(lambda: os.kill(os.getpid(), signal.SIGSTOP)), "no answer within"),
    # answers
    "__index__ loops": (const(LoopingIndex()), "time limit"),
    "__index__ raises": (const(RaisingIndex()), "raised ValueError"),
    "__index__ returns str": (const(StrIndex()), "raised TypeError"),
    "__index__ raises KeyboardInterrupt": (const(InterruptingIndex()), "raised KeyboardInterrupt"),
    "evil __eq__/__hash__": (const(EvilEquality()), "not a whole number"),
    "__repr__ loops": (const(LoopingRepr()), "time limit"),
    "int subclass that lies": (const(SneakyInt(7)), 7),
    "returns True": (const(True), "True (bool)"),
    "returns 2.0": (const(2.0), "(float)"),
    "returns '2'": (const("2"), "(str)"),
    "returns None": (const(None), "None (NoneType)"),
    "returns PASS": (const(PASS), "not a whole number"),
    "returns [2]": (const([2]), "(list)"),
    "returns 10**100000": (const(10**100_000), "bits"),
    "returns numpy int64": (const(np.int64(3)), 3),
    "returns -2": (const(-2), -2),
    # exceptions
    "raises ZeroDivisionError": (raiser(ZeroDivisionError("x")), "raised ZeroDivisionError"),
    "raises SystemExit": (raiser(SystemExit(3)), "raised SystemExit"),
    "raises KeyboardInterrupt": (raiser(KeyboardInterrupt()), "raised KeyboardInterrupt"),
    "raises GeneratorExit": (raiser(GeneratorExit()), "raised GeneratorExit"),
    "raises BaseException with evil __str__": (raiser(EvilBase()), "raised EvilBase"),
    "10 MB exception message": (huge_message, "raised ValueError"),
    # the process
    "os._exit": (call(lambda: os._exit(0)), "process ended"),
    "SIGKILL itself": (call(lambda: os.kill(os.getpid(), signal.SIGKILL)), "SIGKILL"),
    "SIGSEGV itself": (call(lambda: os.kill(os.getpid(), signal.SIGSEGV)), "SIGSEGV"),
    "segfault via ctypes": (call(lambda: ctypes.string_at(0)), "SIGSEGV"),
    "os.abort": (call(os.abort), "SIGABRT"),
    "close every file descriptor": (close_everything, "process ended"),
    "allocate 10 GB": (call(lambda: bytearray(10 * 2**30)), "MemoryError"),
    "grow memory without end": (grow_memory, "MemoryError"),
    "deep recursion": (deep_recursion, ("raised RecursionError", "raised MemoryError", "SIGSEGV", "time limit")),
    # output
    "print 10 MB": (print_flood, 2),
    "write 2 MB to file descriptors 1 and 2": (fd_flood, 2),
    "replace sys.stdout": (replace_stdout, 2),
    # cheating and escaping
    "monkeypatch the engine and referee": (monkeypatch_referee, 1),
    "rewrite frames via sys._getframe": (rewrite_frames, 2),
    # Its answer is 2, or its rewritten worker breaks down on the way: either way the referee is unharmed.
    "rewrite every function via gc": (sabotage_by_gc, (2, "process ended", "malformed", "raised")),
    "mutate the state it is given": (mutate_state, 2),
    "forge answers on the socket": (forge_replies, 1),  # its own answer, still checked by the referee
    "send malformed JSON": (send_garbage, "malformed"),
    "loop sending stale answers": (flood_stale_answers, "(stopped)"),
    # Stopped by the answer-size cap, or (on a busy machine) by the CPU limit while writing: both forfeit.
    "send 400 kB without a newline": (send_flood, ("more than", "time limit")),
    "fork bomb": (fork_bomb, "raised BlockingIOError"),
    "start a spinning thread": (spinning_thread, "raised RuntimeError"),
    "signal the referee": (signal_referee, 2),
    "write a file of the teacher": (write_teachers_file, 2),
}

NEEDS_ISOLATION = {"fork bomb", "start a spinning thread", "signal the referee", "write a file of the teacher"}
#: The attacks that use no CPU: judged by the wall-clock limit (nothing else can stop them).
SLEEPERS = {"sleep for ever", "SIGSTOP itself"}


def _originals() -> dict[str, object]:
    return {
        "check": game_module.GameState.check,
        "play_out": game_module.play_out,
        "_checked": tournament_module._checked,
        "ask": sandbox_module.Sandbox.ask,
        "decode_state": sandbox_module.decode_state,
        "_answer": worker_module._answer,
    }


@pytest.fixture()
def referee_is_unharmed(tmp_path: Path) -> Iterator[None]:
    global TARGET
    tmp_path.chmod(0o755)  # like a teacher's home folder: others may read, not write
    TARGET = tmp_path / "pwned"
    before = _originals()
    threads = threading.active_count()
    yield
    assert _originals() == before, "a bot reached the referee's modules"
    assert threading.active_count() == threads, "a thread was left running"
    deadline = time.monotonic() + 5
    while bot_processes() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert bot_processes() == [], "a process was left running"
    assert not TARGET.exists()


@pytest.mark.parametrize("name", list(ATTACKS))
@pytest.mark.usefixtures("referee_is_unharmed")
def test_attack(name: str, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    if name in NEEDS_ISOLATION and not ISOLATED:
        pytest.skip("process limits (RLIMIT_NPROC) and separate users need Linux")
    if name in NEEDS_ISOLATION and os.geteuid() != 0 and name in ("signal the referee", "write a file of the teacher"):
        pytest.skip("a bot runs as the teacher's own user unless the referee runs as root (then as nobody)")
    bot, expected = ATTACKS[name]
    state = new_game("divisor-duel", START)
    with Sandbox(bot, state.rules, LIMIT, wall_limit=WALL if name in SLEEPERS else BACKSTOP) as box:
        try:
            answer: object = box.ask(state)
        except Forfeit as forfeit:
            answer = forfeit
        output = box.output
    allowed = expected if isinstance(expected, tuple) else (expected,)
    if isinstance(answer, Forfeit):
        reasons = [a for a in allowed if isinstance(a, str)]
        assert any(reason in answer.reason for reason in reasons), f"{name}: {answer.reason}"
    else:
        assert type(answer) is int and answer in allowed, f"{name}: answered {answer!r}"
    assert len(output) <= OUTPUT_LIMIT + 100
    printed = capfd.readouterr()
    assert len(printed.out) + len(printed.err) < 10_000, "bot output reached the referee's terminal"


def test_the_referee_survives_a_tournament_of_hostile_bots() -> None:
    """Hostile bots, a cheater, a perfect player and an honest one: the games are all legal and perfect wins all."""
    hostile = ["infinite loop", "os._exit", "SIGKILL itself", "allocate 10 GB", "__index__ loops"]
    cheaters = [
        "monkeypatch the engine and referee",
        "rewrite frames via sys._getframe",
        "rewrite every function via gc",
    ]
    entrants: dict[str, object] = {name: ATTACKS[name][0] for name in hostile + cheaters}
    entrants["honest"] = lambda s: s.legal_moves[0]
    entrants["perfect"] = "perfect"
    before = _originals()
    result = round_robin(entrants, starts=[START], time_limit=LIMIT)  # type: ignore[arg-type]
    assert _originals() == before
    n = len(entrants)
    assert len(result.games) == n * (n - 1)
    rows = {s.name: s for s in result.table()}
    assert rows["perfect"].won == rows["perfect"].played  # nobody cheated a win against it
    assert rows["honest"].forfeits == 0 and rows["perfect"].forfeits == 0
    for name in [*hostile, "monkeypatch the engine and referee"]:  # each loses every game it must move in
        assert all(g.forfeit is not None for g in result.games if name in g.players), name
    for game in result.games:
        state = new_game("divisor-duel", game.start)
        for move in game.moves:
            state = state.play(move)  # type: ignore[arg-type]
        if game.forfeit is None:
            assert state.is_over and game.winner == game.players[(state.winner or 0) - 1]
    assert bot_processes() == []


def test_terminal_escape_codes_from_a_bot_are_made_harmless() -> None:
    def bot(state: GameState) -> object:
        print("\x1b[2J\x1b[31mI won\x07")
        raise ValueError("\x1b]0;pwned\x07 \r fake line")

    with Sandbox(bot, new_game().rules, LIMIT) as box:
        with pytest.raises(Forfeit) as caught:
            box.ask(new_game("divisor-duel", START))
        shown = caught.value.reason + (caught.value.trace or "") + box.output
    assert "I won" in shown and "pwned" in shown
    assert not any(c in shown for c in "\x1b\x07\r")


def test_a_bot_that_rewrites_other_bot_files_cannot_sabotage_them(tmp_path: Path) -> None:
    """The bot files are read once, when the tournament collects them: rewriting a rival's file
    mid-tournament changes nothing (found by the review: c_honest lost every game)."""
    from duel_lessons.play.tournament import bot_files

    honest = "def move(state):\n    return state.legal_moves[0]\n"
    for name in ("a_honest", "c_honest"):
        (tmp_path / f"{name}.py").write_text(honest)
    (tmp_path / "b_saboteur.py").write_text(
        "import glob, os\n"
        "def move(state):\n"
        "    for f in glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '*honest.py')):\n"
        "        try:\n"
        "            open(f, 'w').write('def move(state):\\n    raise SystemExit(\"sabotaged\")\\n')\n"
        "        except OSError:\n"
        "            pass\n"
        "    return state.legal_moves[-1]\n"
    )
    result = round_robin(bot_files(tmp_path), starts=[START, 117], time_limit=LIMIT)
    rows = {s.name: s for s in result.table()}
    assert rows["a_honest"].forfeits == 0 and rows["c_honest"].forfeits == 0
