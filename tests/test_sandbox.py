"""The bot sandbox: one worker per bot, CPU-time limits, restarts, bot files, and nothing left running."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import duel_lessons.play.sandbox as sandbox
from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState, new_game
from duel_lessons.play.players import make_player
from duel_lessons.play.sandbox import BotFile, Forfeit, Sandbox, check_time_limit, decode_state, encode_state
from duel_lessons.play.tournament import bot_files, round_robin

from processes import bot_processes

RULES = new_game().rules
RULES_NF = new_game("number-factor").rules


def first(state: GameState) -> int:
    return state.legal_moves[0]


@pytest.fixture(autouse=True)
def starts_judged_by_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's start is judged by its CPU time (``LOAD_LIMIT``); its clock limit becomes a safety net only.

    At load 19 a spawned interpreter (which imports this test module to unpickle the bot) took over the
    30 s of ``LOAD_WALL_LIMIT`` on the clock while well within its CPU limit.
    """
    monkeypatch.setattr(sandbox, "LOAD_WALL_LIMIT", 600.0)


def no_children() -> bool:
    deadline = time.monotonic() + 5
    while bot_processes() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not bot_processes()


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 0, -1, "1", None, True])
def test_time_limits_must_be_finite_and_positive(bad: object) -> None:
    with pytest.raises(DuelError, match="time limit"):
        check_time_limit(bad)
    assert check_time_limit(0.25) == 0.25


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 400).filter(lambda n: RULES_NF.start_problem(n) is None), st.integers(0, 2**32))
def test_the_state_travels_as_plain_data(start: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(RULES_NF, start)
    for _ in range(100):
        if state.is_over:
            break
        lose_turn = not state.must_pass and rng.random() < 0.2  # Number Factor: an invalid number costs the turn
        state = state.attempt(10**6 + 1) if lose_turn else state.random_move(rng)
        copy = decode_state(state.rules, encode_state(state))
        assert copy == state and copy is not state


def test_one_worker_answers_many_moves_and_is_gone_after_close() -> None:
    state = new_game("divisor-duel", 60)
    with Sandbox(first, RULES, 0.5) as box:
        answers = {box.ask(state) for _ in range(50)}
        assert answers == {2} and box.starts == 1
        pid = box._process.pid
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert no_children()


def test_the_limit_counts_cpu_time_not_waiting() -> None:
    """A bot that waits (a busy machine, or sleep) is not over a CPU-time limit; one that computes is."""

    def waits(state: GameState) -> int:
        time.sleep(0.5)
        return first(state)

    def computes(state: GameState) -> int:
        end = time.process_time() + 0.5
        while time.process_time() < end:
            pass
        return first(state)

    state = new_game("divisor-duel", 12)
    with Sandbox(waits, RULES, 0.2, wall_limit=10) as box:
        assert box.ask(state) == 2
    with Sandbox(computes, RULES, 0.2, wall_limit=10) as box, pytest.raises(Forfeit, match="CPU time"):
        box.ask(state)


def test_a_crashed_bot_is_restarted_and_a_repeat_offender_disqualified() -> None:
    import os

    calls = {"n": 0}
    referee = os.getpid()

    def crashes_on_twelve_counted(state: GameState) -> int:
        calls["n"] += 1  # in the worker's copy of `calls`: the referee's stays 0
        if state.number == 12:
            os._exit(1)
        return first(state) if os.getpid() != referee else 3  # 3 (a legal move, not the first) if run here

    with Sandbox(crashes_on_twelve_counted, RULES, 0.5, max_strikes=2) as box:
        with pytest.raises(Forfeit, match="exit code 1"):
            box.ask(new_game("divisor-duel", 12))
        assert box.ask(new_game("divisor-duel", 60)) == 2  # a fresh worker
        assert box.starts == 2
        for _ in range(2):
            with pytest.raises(Forfeit):
                box.ask(new_game("divisor-duel", 12))
        started = box.starts
        with pytest.raises(Forfeit, match="disqualified after being stopped 2 times"):
            box.ask(new_game("divisor-duel", 60))
        assert box.starts == started  # not even started again
    assert calls["n"] == 0  # the bot ran (5 times) in its worker, never here
    assert no_children()


def test_bot_files_are_read_here_and_run_only_in_the_worker(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text("def move(state):\n    print('hi')\n    return state.legal_moves[-1]\n")
    (tmp_path / "other.py").write_text("def strategy(state):\n    return state.legal_moves[0]\n")
    (tmp_path / "none.py").write_text("x = 1\n")
    (tmp_path / "broken.py").write_text("def move(state)\n")
    (tmp_path / "latin.py").write_bytes("# caf\xe9\ndef move(state):\n    return 2\n".encode("latin-1"))
    (tmp_path / "marker.py").write_text(f"open({str(tmp_path / 'ran-here')!r}, 'w').close()\ndef move(s): return 2\n")
    (tmp_path / "top.py").write_text("print('top level ran')\ndef move(s): return 2\n")
    (tmp_path / "_helper.py").write_text("raise SystemExit\n")
    files = bot_files(tmp_path)
    assert [f.name for f in files] == ["broken", "good", "latin", "marker", "none", "other", "top"]
    state = new_game("divisor-duel", 12)
    results = {}
    for bot in files:
        with Sandbox(bot, RULES, 0.5) as box:
            try:
                results[bot.name] = box.ask(state)
            except Forfeit as forfeit:
                results[bot.name] = forfeit.reason
            if bot.name == "good":
                assert box.output == "hi\n"
            if bot.name == "top":
                assert box.output == "top level ran\n"  # the file's top-level code ran, in the worker
    assert results["good"] == 6 and results["other"] == 2
    assert "no function named move or strategy" in str(results["none"])
    assert "SyntaxError" in str(results["broken"])
    assert str(results["broken"]).endswith("(broken.py, line 1)")  # the file is named to the student
    assert "could not be loaded" in str(results["latin"])
    # the file's top-level code ran in the worker, where a bot file has no open(): nothing was written here
    assert "NameError" in str(results["marker"]) and "open" in str(results["marker"])
    assert not (tmp_path / "ran-here").exists()
    assert results["top"] == 2
    with pytest.raises(DuelError, match="not a folder"):
        bot_files(tmp_path / "missing")


def test_the_cli_tournament(tmp_path: Path) -> None:
    from duel_lessons.cli import tournament as command

    (tmp_path / "small.py").write_text("def move(state):\n    return state.legal_moves[0]\n")
    (tmp_path / "loops.py").write_text("def move(state):\n    while True:\n        pass\n")
    parser = argparse.ArgumentParser()
    command.add_parser(parser.add_subparsers())
    printed: list[str] = []

    class Out:
        def say(self, *lines: str) -> None:
            printed.extend(lines)

    args = parser.parse_args(["tournament", str(tmp_path), "--starts", "2", "--seed", "3", "--time-limit", "0.2"])
    assert args.func(args, Out()) == 0
    text = "\n".join(printed)
    assert "small" in text and "loops: 4 forfeits" in text and "time limit of 0.2 s" in text
    for bad in (["--time-limit", "nan"], ["--starts", "0"], ["--with", "genius"], ["--starts", "two"]):
        args = parser.parse_args(["tournament", str(tmp_path), *bad])
        with pytest.raises(DuelError):
            args.func(args, Out())
    (tmp_path / "loops.py").unlink()
    args = parser.parse_args(["tournament", str(tmp_path)])
    with pytest.raises(DuelError, match="needs two entrants"):
        args.func(args, Out())
    assert no_children()


def test_spawn_works_where_fork_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "start_method", lambda: "spawn")
    with Sandbox(make_player("greedy"), RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 12)) == 6


def test_round_robin_with_bots_is_reproducible() -> None:
    bots = {"first": first, "perfect": make_player("perfect"), "greedy": "greedy"}
    a = round_robin(bots, starts=3, seed=4, time_limit=0.5)
    b = round_robin(bots, starts=3, seed=4, time_limit=0.5)
    assert a.games == b.games and not a.forfeits()
    assert no_children()


def test_botfile_name() -> None:
    assert BotFile(Path("bots/alice.py")).name == "alice"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux only")
def test_a_worker_dies_with_its_referee(tmp_path: Path) -> None:
    """A referee killed mid-move (a crashed kernel) leaves no looping bot behind."""
    script = tmp_path / "referee.py"
    script.write_text(
        "import os, threading, time\n"
        "from duel_lessons.engine.game import new_game\n"
        "from duel_lessons.play.sandbox import Sandbox\n"
        "def loop(state):\n"
        "    while True:\n"
        "        pass\n"
        "box = Sandbox(loop, new_game().rules, 100.0)\n"
        "threading.Thread(target=lambda: box.ask(new_game('divisor-duel', 12)), daemon=True).start()\n"
        "while box._process is None:\n"
        "    time.sleep(0.05)\n"
        "time.sleep(1)\n"
        "print(box._process.pid, flush=True)\n"
        "os._exit(0)\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=True)
    pid = int(out.stdout.split()[-1])
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.1)
    else:
        psutil.Process(pid).kill()
        pytest.fail("the bot kept running after its referee died")


def crashes_on_twelve(state: GameState) -> int:
    if state.number == 12:
        import os

        os._exit(3)
    return first(state)


def test_strikes_count_only_stops_in_a_row() -> None:
    """Two stops, a good move, two stops: not disqualified (the good move reset the count); three in a row are."""
    twelve, sixty = new_game("divisor-duel", 12), new_game("divisor-duel", 60)
    with Sandbox(crashes_on_twelve, RULES, 0.5, max_strikes=3) as box:
        for _ in range(3):
            for _ in range(2):
                with pytest.raises(Forfeit, match="exit code 3"):
                    box.ask(twelve)
            assert box.ask(sixty) == 2  # still allowed: never three stops in a row
        for _ in range(3):
            with pytest.raises(Forfeit, match="exit code 3"):
                box.ask(twelve)
        with pytest.raises(Forfeit, match="disqualified after being stopped 3 times in a row"):
            box.ask(sixty)


def test_a_good_answer_between_two_stops_resets_the_count() -> None:
    """max_strikes=2: stop, answer, stop, answer, stop is never two stops in a row, so never disqualified;
    a bot whose count never reset would be struck out at its second stop."""
    twelve, sixty = new_game("divisor-duel", 12), new_game("divisor-duel", 60)
    with Sandbox(crashes_on_twelve, RULES, 0.5, max_strikes=2) as box:
        for _ in range(3):
            with pytest.raises(Forfeit, match="exit code 3"):
                box.ask(twelve)
            assert box.ask(sixty) == 2
        with pytest.raises(Forfeit, match="exit code 3"):
            box.ask(twelve)
        with pytest.raises(Forfeit, match="exit code 3"):  # the second in a row: stopped, and now struck out
            box.ask(twelve)
        with pytest.raises(Forfeit, match="disqualified after being stopped 2 times in a row"):
            box.ask(sixty)


def test_one_stop_strikes_out_a_bot_allowed_one() -> None:
    with Sandbox(crashes_on_twelve, RULES, 0.5, max_strikes=1) as box:
        with pytest.raises(Forfeit, match="exit code 3"):
            box.ask(new_game("divisor-duel", 12))
        with pytest.raises(Forfeit, match="disqualified after being stopped 1 times in a row"):
            box.ask(new_game("divisor-duel", 60))


def loops_on_twelve(state: GameState) -> int:
    while state.number == 12:
        pass
    return first(state)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="RUSAGE_CHILDREN needs POSIX")
def test_a_looping_bot_gets_its_cpu_limit_and_a_small_margin_no_more() -> None:
    """Judged by CPU time, counted by the kernel for the worker once it is reaped (not by the referee's clock)."""
    import resource

    limit = 0.5
    with Sandbox(loops_on_twelve, RULES, limit, wall_limit=600) as box:
        assert box.ask(new_game("divisor-duel", 60)) == 2
        worker = psutil.Process(box._process.pid)
        before = sum(worker.cpu_times()[:4])
        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
        with pytest.raises(Forfeit, match="time limit"):
            box.ask(new_game("divisor-duel", 12))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = after.ru_utime + after.ru_stime - reaped.ru_utime - reaped.ru_stime
    looped = total - before
    assert limit <= looped <= limit + sandbox.CPU_MARGIN, f"the bot used {looped:.2f} s of CPU time"


def stalls(state: GameState) -> int:
    time.sleep(1000)
    return first(state)


def test_a_tournament_with_a_staller_ends_within_its_stated_bound() -> None:
    """Ten bots, one that sleeps on every move: it forfeits once its budget is spent, and the whole ends in time."""
    from duel_lessons.play.tournament import longest_time

    bots: dict[str, object] = {f"honest{i}": first for i in range(9)}
    bots["staller"] = stalls
    # The budget is on the clock, and honest bots spend it too: at load 20 an honest bot waited longer than 4 s
    # over its 18 games and forfeited to the staller.  20 s is five times that; the staller still spends it all,
    # since two stops at the 8 s wall limit of a 2 s time limit are not yet three strikes.
    budget, limit = 20.0, 2.0
    bound = longest_time(10, 10, 1, limit, budget)  # budgets, starts of workers and the referee, all at their longest
    began = time.monotonic()
    result = round_robin(bots, starts=[60], time_limit=limit, budget=budget)  # type: ignore[arg-type]
    took = time.monotonic() - began
    assert took <= bound, f"took {took:.0f} s, over the stated {bound:.0f} s"
    mine = [g for g in result.games if "staller" in g.players]
    assert len(mine) == 18
    assert all(g.loser == "staller" and g.forfeit for g in mine), [g for g in mine if g.loser != "staller"]
    assert any("budget" in (g.forfeit or "") for g in mine)
    assert no_children()


def leaves_files(state: GameState) -> int:
    import os

    for folder in ("/tmp", "/dev/shm"):
        try:
            with open(os.path.join(folder, f"duel-left-{os.getppid()}-{state.number}"), "wb") as file:
                file.write(b"x" * 100_000)
        except OSError:
            pass
    return first(state)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/shm is Linux's")
def test_nothing_is_left_in_tmp_or_shm_and_no_bot_alive(tmp_path: Path) -> None:
    """A bot that writes to /tmp and /dev/shm, a bot file, a looping bot: afterwards nothing of theirs remains."""
    import os

    if os.geteuid() != 0 and sandbox.bubblewrap()[0] is None:
        pytest.skip("as an ordinary user without bubblewrap, a bot's files are the teacher's (isolation_notes says so)")
    (tmp_path / "filebot.py").write_text("def move(state):\n    return state.legal_moves[0]\n")
    bots = {"writer": leaves_files, "file": BotFile.snapshot(tmp_path / "filebot.py"), "loops": loops_on_twelve}
    round_robin(bots, starts=[12, 60], time_limit=0.3)  # type: ignore[arg-type]
    left = [p for folder in ("/tmp", "/dev/shm") for p in Path(folder).glob(f"duel-left-{os.getpid()}-*")]
    assert left == []
    assert no_children()


def test_many_bots_never_have_more_live_workers_than_the_cap() -> None:
    """Six bots with room for two live workers: after every game at most two workers are alive, and all games count."""
    most = [0]

    def count(_: float) -> None:
        most[0] = max(most[0], len([p for p in bot_processes() if p.ppid() == __import__("os").getpid()]))

    bots = {f"bot{i}": first for i in range(6)}
    result = round_robin(bots, starts=[12], time_limit=0.5, max_workers=2, progress=count)  # type: ignore[arg-type]
    assert len(result.games) == 30 and not result.forfeits()
    assert 1 <= most[0] <= 2
    assert no_children()


def test_a_bot_file_may_use_the_installed_libraries(tmp_path: Path) -> None:
    """sympy and numpy come from site-packages: the worker leaves out only the user's own site folder."""
    (tmp_path / "primes.py").write_text(
        "import numpy, sympy\n"
        "def move(state):\n"
        "    return int(numpy.int64(max(d for d in state.legal_moves if sympy.isprime(d))))\n"
    )
    with Sandbox(BotFile.snapshot(tmp_path / "primes.py"), RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 60)) == 5  # the largest prime among 2, 3, 4, 5, 6, 10, 12, 15, 20, 30


@pytest.mark.parametrize("layer", ["bubblewrap", "own namespaces"])
def test_a_bot_file_does_not_see_the_teachers_files(
    tmp_path: Path, layer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In bubblewrap, or without it in a root of the worker's own, even an unrestricted bot (it may import os)
    sees Python and the package, not other files.

    The file is readable by everyone, so only the view of files hides it (a worker's user of its own would not).
    """
    import os
    import shutil
    import tempfile

    if layer == "own namespaces":
        monkeypatch.setattr(sandbox, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
        if not sandbox.own_namespaces_here():
            pytest.skip("this kernel allows this process no namespaces (the tournament refuses bot files here)")
    elif sandbox.bubblewrap()[0] is None:
        pytest.skip("bubblewrap does not run here")
    folder = Path(tempfile.mkdtemp(prefix="duel-teacher-"))
    try:
        os.chmod(folder, 0o755)
        secret = folder / "answers.txt"
        secret.write_text("the teacher's answers")
        os.chmod(secret, 0o644)
        (tmp_path / "peek.py").write_text(
            "import os\n"
            f"SECRETS = [{str(secret)!r}, {__file__!r}]\n"  # in /tmp, and in the teacher's checkout (not /tmp)
            "def move(state):\n"
            "    return state.legal_moves[-1] if any(map(os.path.exists, SECRETS)) else state.legal_moves[0]\n"
        )
        with Sandbox(BotFile.snapshot(tmp_path / "peek.py"), RULES, 5.0, restricted=False) as box:
            assert box.ask(new_game("divisor-duel", 12)) == 2  # 6 would mean it found the file
    finally:
        shutil.rmtree(folder)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sessions and /dev/shm as on Linux")
def test_without_bubblewrap_a_bot_file_still_starts_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where bubblewrap is missing, the worker starts in / in a session of its own; under root, as a user of its
    own whose files are removed when it ends. (In bubblewrap, ``--chdir`` and ``--new-session`` do the first two.)"""
    import os

    monkeypatch.setattr(sandbox, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    monkeypatch.chdir(tmp_path)
    left = Path(f"/dev/shm/duel-left-{os.getpid()}")
    (tmp_path / "where.py").write_text(
        "import os\n"
        "def move(state):\n"
        f"    open({str(left)!r}, 'w').close()\n"
        "    return state.legal_moves[-1] if os.getcwd() == '/' else state.legal_moves[0]\n"
    )
    try:
        with Sandbox(BotFile.snapshot(tmp_path / "where.py"), RULES, 5.0, restricted=False) as box:
            assert box.ask(new_game("divisor-duel", 12)) == 6  # 2: it started in the teacher's folder
            # Its session, read from here: inside a pid namespace (the worker's, or the one this test may run in)
            # getsid answers 0 for a session led from outside, so neither side can judge it alone.
            started = box._process.pid
            assert os.getsid(started) == started != os.getsid(0)
            # In namespaces of its own, its /dev/shm is private: what it wrote there is never seen here.
            assert left.exists() != bool(box.hidden)
        if os.geteuid() == 0 and sandbox.can_change_user():
            assert not left.exists()  # the worker's user's file, removed with it
    finally:
        left.unlink(missing_ok=True)


def test_a_bot_file_where_there_is_no_fork(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on Windows: no os.fork, so a bot file runs in a spawned worker, still read here and run there."""
    import os

    (tmp_path / "last.py").write_text("def move(state):\n    return state.legal_moves[-1]\n")
    bot = BotFile.snapshot(tmp_path / "last.py")
    monkeypatch.setattr(sandbox, "start_method", lambda: "spawn")
    monkeypatch.delattr(os, "fork")
    with Sandbox(bot, RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 12)) == 6 and box.forked


# -- limits and budgets, each expected value written by hand ---------------------------------------


def test_the_default_limits_follow_the_time_limit() -> None:
    box = Sandbox(first, RULES, 0.5)
    assert (box.time_limit, box.wall_limit, box.game_budget, box.total_budget) == (0.5, 3.5, None, None)
    assert sandbox.default_game_budget(0.5) == 12.5
    assert Sandbox(first, RULES, 0.5, wall_limit=7, game_budget=2, total_budget=9).wall_limit == 7


def prints_fifteen(state: GameState) -> int:
    print("x" * 14)
    return first(state)


def test_the_output_is_capped_across_answers() -> None:
    with Sandbox(prints_fifteen, RULES, 0.5, output_limit=20) as box:
        for _ in range(3):
            assert box.ask(new_game("divisor-duel", 12)) == 2
        assert box.output == "x" * 14 + "\n" + "x" * 5 + "\n[output cut]\n"


def sleeps_on_twelve(state: GameState) -> int:
    if state.number == 12:
        time.sleep(1000)
    return first(state)


def test_a_game_budget_stops_a_sleeper_and_is_full_again_next_game() -> None:
    """A sleeping bot uses no CPU: only the clock can stop it (its verdict, not a time, is what is checked)."""
    twelve, sixty = new_game("divisor-duel", 12), new_game("divisor-duel", 60)
    with Sandbox(sleeps_on_twelve, RULES, 0.5, wall_limit=600, game_budget=1.0, max_strikes=1) as box:
        with pytest.raises(Forfeit, match=r"^gave no answer before it spent the game time budget of 1 s \(stopped\)$"):
            box.ask(twelve)
        assert box.spent_game >= 1.0
        with pytest.raises(Forfeit, match=r"^spent its time budget of 1 s for this game$"):
            box.ask(sixty)  # not asked: the budget is spent
        box.new_game()
        assert box.spent_game == 0.0
        assert box.ask(sixty) == 2  # a budget stop is no strike: max_strikes=1 did not disqualify it
        with pytest.raises(Forfeit, match="game time budget of 1 s"):
            box.ask(twelve)


def test_a_spent_tournament_budget_disqualifies_for_good() -> None:
    sixty = new_game("divisor-duel", 60)
    with Sandbox(sleeps_on_twelve, RULES, 0.5, wall_limit=600, total_budget=1.0) as box:
        with pytest.raises(Forfeit, match=r"^gave no answer before it spent the tournament time budget of 1 s"):
            box.ask(new_game("divisor-duel", 12))
        assert box.spent_total >= 1.0
        for _ in range(2):
            box.new_game()
            with pytest.raises(Forfeit, match=r"^spent its whole time budget of 1 s for the tournament$"):
                box.ask(sixty)


def test_a_bot_file_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    path.write_bytes(b"#" * sandbox.MAX_BOT_FILE)
    assert len(sandbox.read_bot_source(path)) == 1_000_000
    path.write_bytes(b"#" * (sandbox.MAX_BOT_FILE + 1))
    with pytest.raises(DuelError, match=r"big.py is 1,000,001 bytes, over the limit of 1,000,000"):
        sandbox.read_bot_source(path)
    bot = BotFile.snapshot(path)
    assert bot.source is None and "1,000,001 bytes" in str(bot.problem)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_not_a_bot_file(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "pipe.py")
    bot = BotFile.snapshot(tmp_path / "pipe.py")
    assert (bot.source, bot.problem) == (None, "pipe.py is not a regular file")
    with (
        Sandbox(bot, RULES, 0.5) as box,
        pytest.raises(Forfeit, match=r"^could not be loaded: pipe\.py: pipe\.py is not a"),
    ):
        box.ask(new_game("divisor-duel", 12))
    assert BotFile(tmp_path / "two\nlines.py").name == "two\\nlines"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals as exit codes: POSIX")
def test_a_bot_file_killed_by_a_signal_is_reported_by_its_name(tmp_path: Path) -> None:
    """In bubblewrap too (which reports a signal as 128 + its number)."""
    (tmp_path / "kills.py").write_text(
        "import os, signal\ndef move(state):\n    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    (tmp_path / "exits.py").write_text("import os\ndef move(state):\n    os._exit(7)\n")
    for name, reason in (("kills", "its process ended (killed by signal SIGKILL)"), ("exits", "(exit code 7)")):
        with Sandbox(BotFile.snapshot(tmp_path / f"{name}.py"), RULES, 0.5, restricted=False) as box:
            with pytest.raises(Forfeit) as caught:
                box.ask(new_game("divisor-duel", 12))
            assert caught.value.reason.endswith(reason), caught.value.reason


@pytest.mark.skipif(not hasattr(__import__("os"), "O_NOFOLLOW"), reason="O_NOFOLLOW is POSIX")
def test_a_bot_file_that_is_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    """A link could point at a teacher's file (the answers) or a device: the bot file itself must be a file."""
    (tmp_path / "real.py").write_text("def move(state):\n    return 2\n")
    (tmp_path / "link.py").symlink_to(tmp_path / "real.py")
    assert sandbox.read_bot_source(tmp_path / "real.py") == "def move(state):\n    return 2\n"
    with pytest.raises(OSError):
        sandbox.read_bot_source(tmp_path / "link.py")
    bot = BotFile.snapshot(tmp_path / "link.py")
    assert bot.source is None and bot.problem is not None and "link.py" in bot.problem


def test_a_snapshot_is_what_runs_even_if_the_file_changes_and_a_plain_botfile_is_read_when_started(
    tmp_path: Path,
) -> None:
    """A bot that rewrites another bot's file mid-tournament changes nothing; BotFile(path) reads it at its start."""
    path = tmp_path / "last.py"
    path.write_text("def move(state):\n    return state.legal_moves[-1]\n")
    snapshot, plain = BotFile.snapshot(path), BotFile(path)
    path.write_text("def move(state):\n    return state.legal_moves[0]\n")
    with Sandbox(snapshot, RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 12)) == 6  # the text read at the snapshot
    with Sandbox(plain, RULES, 5.0) as box:
        assert box.ask(new_game("divisor-duel", 12)) == 2  # the text when the worker started


def test_a_referee_that_forgets_to_close_still_ends() -> None:
    """A teacher's script that never calls close(): the forked worker is a daemon, so Python's exit ends it.

    (A worker that was not a daemon would be waited for at exit, and the script would hang: the safety
    net below is for that, not a time limit.)
    """
    script = (
        "from duel_lessons.engine.game import new_game\n"
        "from duel_lessons.play.sandbox import Sandbox\n"
        "def first(state):\n"
        "    return state.legal_moves[0]\n"
        "box = Sandbox(first, new_game().rules, 5.0)\n"
        "print(box.ask(new_game('divisor-duel', 12)), box.forked)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (0, "2 True\n"), done.stderr


def test_a_worker_that_does_not_start_in_time_is_named_by_the_clock_not_a_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without budgets, a start that takes too long says so; it does not blame a budget the sandbox does not have."""
    # its top-level code waits (no CPU time), so it never answers the start, however fast the machine
    (tmp_path / "slow.py").write_text("import time\ntime.sleep(600)\ndef move(state):\n    return 2\n")
    monkeypatch.setattr(sandbox, "LOAD_WALL_LIMIT", 0.001)
    bot = BotFile.snapshot(tmp_path / "slow.py")
    with Sandbox(bot, RULES, 5.0, restricted=False) as box, pytest.raises(Forfeit) as failure:
        box.ask(new_game("divisor-duel", 12))
    assert failure.value.reason.startswith("could not be loaded: gave no answer within ")
    assert failure.value.reason.endswith(" s (stopped)") and "budget" not in failure.value.reason
