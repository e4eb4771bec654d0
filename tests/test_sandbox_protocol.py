"""The referee's side of the sandbox's protocol, against a scripted worker (no process, no clock).

``tests/test_sandbox.py`` runs real workers in bubblewrap, which takes about a second a test. Here
the worker is a socket the test writes to *before* it asks (the replies to request 1, 2, ... are
known in advance), and the worker's CPU time is a number the test sets. So every rule of
``Sandbox.ask`` (matching replies, malformed answers, output caps, CPU limits, strikes, budgets
and how a stopped worker is described) is checked exactly, in milliseconds: fast enough for
mutation testing to run these first.
"""

from __future__ import annotations

import json
import math
import socket
import threading
from types import SimpleNamespace
from typing import Any

import pytest

import duel_lessons.play.sandbox as sandbox
from duel_lessons.engine.game import new_game
from duel_lessons.play.sandbox import Forfeit, Sandbox

STATE = new_game("divisor-duel", 12)
RULES = STATE.rules


class FakeWorker:
    """What the referee asks of a worker: its CPU time, how it ended, and to be killed."""

    def __init__(self) -> None:
        self.pid = 0
        self.uid = None
        self.popen: Any = None
        self.cpu_seconds: float | None = 0.0
        self.code: int | None = None
        self.killed = False
        self.swept = 0

    def cpu(self) -> float | None:
        return self.cpu_seconds

    def exit_code(self) -> int | None:
        return self.code

    def kill(self) -> None:
        self.killed = True

    def strays(self) -> None:
        self.swept += 1


class Scripted(Sandbox):
    """A sandbox whose every start makes a fresh :class:`FakeWorker` and a socket the test writes to."""

    def __init__(self, time_limit: float = 1.0, **options: Any) -> None:
        options.setdefault("wall_limit", 600.0)  # a safety net: every reply is written before the bot is asked
        super().__init__(lambda state: 0, RULES, time_limit, **options)
        self.workers: list[FakeWorker] = []
        self.peers: list[socket.socket] = []
        self.pending: list[bytes] = []
        self.start_walls: list[float] = []  # the clock limit each start was given
        self.clock: list[float] | None = None  # a fake clock (see with_fake_clock), moved on by each start
        self.start_seconds = 0.0

    def _start(self, wall: float) -> None:
        self.start_walls.append(wall)
        if self.clock is not None:
            self.clock[0] += self.start_seconds
        ours, theirs = socket.socketpair()
        worker = FakeWorker()
        self._worker, self._sock, self._buffer, self._seq = worker, ours, b"", 0  # type: ignore[assignment]
        self.starts += 1
        self._cpu = 0.0
        self.workers.append(worker)
        self.peers.append(theirs)
        for data in self.pending:
            self._write(data)
        self.pending = []

    def send(self, *messages: dict[str, Any] | bytes) -> None:
        """Queue what the worker sends: to the worker running now, or to the next one started."""
        data = b"".join(m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n" for m in messages)
        if self._worker is None:
            self.pending.append(data)
        else:
            self._write(data)

    def _write(self, data: bytes) -> None:
        if len(data) < 100_000:
            self.peers[-1].sendall(data)  # fits in the socket's buffer: there before the bot is asked
        else:  # more than the buffer holds: written while the referee reads
            threading.Thread(target=self.peers[-1].sendall, args=(data,), daemon=True).start()

    def forfeit(self) -> str:
        with pytest.raises(Forfeit) as caught:
            self.ask(STATE)
        return caught.value.reason


def scripted(**options: Any) -> Any:
    bot = Scripted(**options)
    yield bot
    bot.close()
    for peer in bot.peers:
        peer.close()


@pytest.fixture
def bot() -> Any:
    """A bot whose worker answers what the test sends."""
    yield from scripted()


@pytest.fixture
def quick() -> Any:
    """A bot stopped after 0.05 s on the clock: every ask the test sends no answer to is a stop."""
    yield from scripted(wall_limit=0.05)


def test_the_reply_to_this_request_is_the_move(bot: Scripted) -> None:
    bot.send({"seq": 1, "move": 4}, {"seq": 2, "move": 6})
    assert bot.ask(STATE) == 4
    assert bot.ask(STATE) == 6
    assert bot.starts == 1  # one worker answers many moves
    request = json.loads(bot.peers[0].recv(65536).split(b"\n")[0])
    assert request == {"seq": 1, "state": {"number": 12, "to_move": 1, "passes": 0, "history": []}}


def test_stale_and_invented_replies_are_skipped(bot: Scripted) -> None:
    stale = [{"seq": 0, "move": 1}, {"seq": 7, "move": 2}, {"move": 3}, {"seq": "1", "move": 5}]
    bot.send(*stale, {"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4


def test_thousands_of_stale_lines_are_skipped_within_one_answer(bot: Scripted) -> None:
    bot.send(b'{"seq": 0}\n' * (sandbox.STALE_PER_PASS * 2 + 5), {"seq": 1, "move": 6})
    assert bot.ask(STATE) == 6


def test_a_reply_split_over_many_reads_is_put_together(bot: Scripted) -> None:
    long = "x" * 200_000  # over three reads of 64 KiB; the output limit keeps 10,000 of it
    bot.send({"seq": 1, "move": 3, "output": long})
    assert bot.ask(STATE) == 3
    assert bot.output == "x" * sandbox.OUTPUT_LIMIT + "\n[output cut]\n"


def test_the_next_reply_waits_in_the_buffer(bot: Scripted) -> None:
    bot.send(b'{"seq": 1, "move": 2}\n{"seq": 2, "mo', b've": 3}\n')
    assert bot.ask(STATE) == 2
    assert bot.ask(STATE) == 3


@pytest.mark.parametrize("move", [2.0, True, "4", None, [4]])
def test_a_move_that_is_not_a_whole_number_is_malformed_and_the_worker_is_stopped(bot: Scripted, move: Any) -> None:
    bot.send({"seq": 1, "move": move})
    assert bot.forfeit() == "sent a malformed answer"
    assert bot.workers[0].killed


@pytest.mark.parametrize(
    "line",
    [b"not json\n", b"[1, 2]\n", b'"move"\n', b"[" * 100_000 + b"\n", b'{"seq": 1, "move": 4\n'],
    ids=["text", "a list", "a string", "nested too deep", "cut short"],
)
def test_a_line_that_is_not_a_json_object_is_malformed(bot: Scripted, line: bytes) -> None:
    bot.send(line)
    assert bot.forfeit() == "sent a malformed answer"


def test_a_reply_without_a_move_is_malformed(bot: Scripted) -> None:
    bot.send({"seq": 1})
    assert bot.forfeit() == "sent a malformed answer"


def test_an_exception_in_the_bot_is_its_message_and_traceback(bot: Scripted) -> None:
    bot.send({"seq": 1, "raised": "ZeroDivisionError: \x1b[31m" + "y" * 600, "traceback": "T\x07" + "t" * 5000})
    with pytest.raises(Forfeit) as caught:
        bot.ask(STATE)
    reason = caught.value.reason
    assert reason.startswith("ZeroDivisionError: \\x1b[31m")  # escape codes made harmless
    assert len(reason) == 500 + len("\\x1b") - 1  # cut at 500 characters before the escape is written out
    assert caught.value.trace == "T\\x07" + "t" * 3998  # cut at 4000
    assert not bot.workers[0].killed  # an exception is a bad answer, not a stop: the worker goes on
    bot.send({"seq": 2, "move": 4})
    assert bot.ask(STATE) == 4


def test_an_empty_traceback_is_none(bot: Scripted) -> None:
    bot.send({"seq": 1, "raised": "ValueError: no", "traceback": ""})
    with pytest.raises(Forfeit) as caught:
        bot.ask(STATE)
    assert caught.value.trace is None


def test_a_refusal_is_passed_on(bot: Scripted) -> None:
    bot.send({"seq": 1, "refused": "returned 2.5, not a whole number"})
    assert bot.forfeit() == "returned 2.5, not a whole number"


def test_output_is_kept_across_answers_up_to_the_limit_and_cut_once() -> None:
    bot = Scripted(output_limit=10)
    bot.send({"seq": 1, "move": 2, "output": "abcd"}, {"seq": 2, "move": 2, "output": "\x1befgh"})
    bot.send({"seq": 3, "move": 2, "output": "ijklmnop"}, {"seq": 4, "move": 2, "output": "more"})
    for _ in range(4):
        assert bot.ask(STATE) == 2
    # the answer that reaches the limit is kept whole, then the output is cut, once
    assert bot.output == "abcd\\x1befgh\n[output cut]\n"
    bot.close()


def test_output_from_stale_replies_is_kept_too(bot: Scripted) -> None:
    bot.send({"seq": 0, "output": "hello "}, {"seq": 1, "move": 2, "output": "world"})
    assert bot.ask(STATE) == 2
    assert bot.output == "hello world"


def test_output_that_is_not_text_is_ignored(bot: Scripted) -> None:
    bot.send({"seq": 1, "move": 2, "output": 42}, {"seq": 2, "move": 2, "output": ""})
    bot.ask(STATE)
    bot.ask(STATE)
    assert bot.output == ""


def test_an_answer_over_the_size_limit_stops_the_worker(bot: Scripted) -> None:
    bot.send(b"9" * (sandbox.MAX_MESSAGE + 70_000))
    assert bot.forfeit() == "sent more than 256,000 bytes in one answer"
    assert bot.workers[0].killed


def test_a_long_answer_with_its_newline_is_not_over_the_limit(bot: Scripted) -> None:
    bot.send(json.dumps({"seq": 1, "move": 4, "output": "z" * (sandbox.MAX_MESSAGE - 100)}).encode() + b"\n")
    assert bot.ask(STATE) == 4


@pytest.mark.parametrize(
    ("code", "description"),
    [
        (None, "it closed its connection"),
        (0, "exit code 0"),
        (3, "exit code 3"),
        (-9, "killed by signal SIGKILL"),
        (-11, "killed by signal SIGSEGV"),
        (-200, "killed by signal 200"),
    ],
)
def test_a_worker_that_ends_is_described_by_how_it_ended(bot: Scripted, code: int | None, description: str) -> None:
    bot._start(1.0)
    bot.workers[0].code = code
    bot.peers[0].shutdown(socket.SHUT_WR)  # the worker's end: nothing more comes
    assert bot.forfeit() == f"its process ended ({description})"


@pytest.mark.parametrize(
    ("command", "code", "description"),
    [
        ("bwrap", 137, "killed by signal SIGKILL"),
        ("bwrap", 129, "killed by signal SIGHUP"),
        ("bwrap", 128, "exit code 128"),
        ("bwrap", 1, "exit code 1"),
        ("python3", 137, "exit code 137"),
    ],
)
def test_bubblewrap_reports_a_signal_as_128_plus_its_number(
    bot: Scripted, command: str, code: int, description: str
) -> None:
    bot._start(1.0)
    worker = bot.workers[0]
    worker.code = code
    worker.popen = SimpleNamespace(args=[command, "--die-with-parent", "python3"])
    bot.peers[0].shutdown(socket.SHUT_WR)
    assert bot.forfeit() == f"its process ended ({description})"


def test_only_bubblewrap_itself_is_read_as_bubblewrap(bot: Scripted) -> None:
    """A command that merely mentions bwrap later (an argument) reports its own exit code."""
    bot._start(1.0)
    worker = bot.workers[0]
    worker.code = 137
    worker.popen = SimpleNamespace(args=["python3", "bwrap"])
    bot.peers[0].shutdown(socket.SHUT_WR)
    assert bot.forfeit() == "its process ended (exit code 137)"


def test_a_worker_gone_before_the_answer_is_described_as_stopped(bot: Scripted) -> None:
    bot._start(1.0)
    assert bot._exit_description() == "it closed its connection"
    bot.close()
    assert bot._exit_description() == "it was stopped"


def test_cpu_time_over_the_limit_at_the_answer_forfeits_it() -> None:
    bot = Scripted(time_limit=0.5)
    bot._start(1.0)
    bot.workers[0].cpu_seconds = 0.75
    bot.send({"seq": 1, "move": 4})
    assert bot.forfeit() == "used 0.75 s of CPU time, over the time limit of 0.5 s"
    bot.close()


def test_cpu_time_counts_from_the_last_answer() -> None:
    bot = Scripted(time_limit=0.5)
    bot._start(1.0)
    worker = bot.workers[0]
    for seq, cpu in [(1, 0.4), (2, 0.8), (3, 1.25)]:  # 0.4 s each time: within the limit
        worker.cpu_seconds = cpu
        bot.send({"seq": seq, "move": 4})
        assert bot.ask(STATE) == 4
    worker.cpu_seconds = 1.9
    bot.send({"seq": 4, "move": 4})
    assert bot.forfeit() == "used 0.65 s of CPU time, over the time limit of 0.5 s"
    bot.close()


def test_cpu_time_of_exactly_the_limit_is_allowed() -> None:
    bot = Scripted(time_limit=0.5)
    bot._start(1.0)
    bot.workers[0].cpu_seconds = 0.5
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    bot.close()


def test_a_worker_whose_cpu_time_cannot_be_read_keeps_the_last_reading() -> None:
    bot = Scripted(time_limit=0.5)
    bot._start(1.0)
    worker = bot.workers[0]
    worker.cpu_seconds = 0.3
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    worker.cpu_seconds = None  # the process is gone: the last reading stands
    bot.send({"seq": 2, "move": 4})
    assert bot.ask(STATE) == 4
    worker.cpu_seconds = 0.9  # then 0.6 s since the last reading
    bot.send({"seq": 3, "move": 4})
    assert bot.forfeit() == "used 0.60 s of CPU time, over the time limit of 0.5 s"
    bot.close()


def test_a_bot_over_its_cpu_limit_without_an_answer_is_stopped() -> None:
    bot = Scripted(time_limit=0.5, wall_limit=600.0)  # the clock is no limit here: the CPU time stops it
    bot._start(1.0)
    bot.workers[0].cpu_seconds = 0.51
    assert bot.forfeit() == "took longer than the time limit of 0.5 s of CPU time (stopped)"
    assert bot.workers[0].killed
    bot.close()


def test_a_silent_bot_is_stopped_by_the_clock(quick: Scripted) -> None:
    assert quick.forfeit() == "gave no answer within 0.05 s (stopped)"
    assert quick.workers[0].killed
    assert quick._worker is None  # a fresh worker for the next move
    quick.send({"seq": 1, "move": 4})
    assert quick.ask(STATE) == 4
    assert quick.starts == 2


def test_three_stops_in_a_row_disqualify_and_the_last_reason_is_kept(quick: Scripted) -> None:
    assert quick.forfeit() == "gave no answer within 0.05 s (stopped)"
    assert quick.forfeit() == "gave no answer within 0.05 s (stopped)"
    assert quick.forfeit() == "gave no answer within 0.05 s (stopped)"
    assert quick.starts == 3
    reason = "disqualified after being stopped 3 times in a row (last: gave no answer within 0.05 s (stopped))"
    quick.send({"seq": 1, "move": 4})
    assert quick.forfeit() == reason  # at once: no fourth worker
    assert quick.forfeit() == reason
    assert quick.starts == 3


def test_a_good_answer_between_stops_starts_the_count_again(quick: Scripted) -> None:
    for _ in range(3):
        quick.forfeit()
        quick.forfeit()
        quick.send({"seq": 1, "move": 4})
        assert quick.ask(STATE) == 4
    assert quick.starts == 7  # a fresh worker after each stop (3 in the first round, then 2 a round)
    quick.close()


def test_a_bad_answer_is_not_a_stop(quick: Scripted) -> None:
    quick.forfeit()
    quick.forfeit()
    quick.send({"seq": 1, "refused": "no"})
    quick.forfeit()  # a refusal resets the count like any answer
    quick.forfeit()
    quick.forfeit()
    quick.send({"seq": 1, "move": 2})
    assert quick.ask(STATE) == 2


def test_max_strikes_one_disqualifies_at_the_first_stop() -> None:
    bot = Scripted(max_strikes=1, wall_limit=0.05)
    bot.forfeit()
    assert bot.forfeit().startswith("disqualified after being stopped 1 times in a row")
    bot.close()


def test_a_broken_bot_keeps_its_trace() -> None:
    bot = Scripted()
    bot._broken = Forfeit("could not be loaded: x.py", "Traceback: boom")
    with pytest.raises(Forfeit) as caught:
        bot.ask(STATE)
    assert (caught.value.reason, caught.value.trace) == ("could not be loaded: x.py", "Traceback: boom")
    assert bot.starts == 0


def test_a_spent_game_budget_forfeits_this_game_only() -> None:
    bot = Scripted(game_budget=1.0, wall_limit=600.0)
    bot.spent_game = 1.0
    assert bot.forfeit() == "spent its time budget of 1 s for this game"
    assert bot.starts == 0  # no worker was asked
    bot.new_game()
    assert bot.spent_game == 0.0
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    bot.new_game()
    assert bot.workers[0].swept == 1  # a new game kills what the bot left running
    bot.close()


def test_a_spent_total_budget_disqualifies_for_good() -> None:
    bot = Scripted(total_budget=2.0, game_budget=1.0)
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    bot.spent_total = 2.0
    reason = "spent its whole time budget of 2 s for the tournament"
    assert bot.forfeit() == reason
    assert bot.workers[0].killed
    bot.new_game()
    assert bot.forfeit() == reason


def test_the_wait_is_cut_to_what_is_left_of_the_game_budget() -> None:
    bot = Scripted(game_budget=10.0, wall_limit=600.0)
    bot.spent_game = 9.97  # 0.03 s left: the budget, not the 600 s, stops the wait
    assert bot.forfeit() == "gave no answer before it spent the game time budget of 10 s (stopped)"
    assert bot.spent_game >= 10.0
    assert bot._strikes == 0  # a budget is not a strike
    bot.close()


def test_the_wait_is_cut_to_what_is_left_of_the_total_budget() -> None:
    bot = Scripted(total_budget=100.0, wall_limit=5.0)
    bot.send({"seq": 1, "move": 4})
    bot.ask(STATE)  # a first start is not charged
    bot.spent_total = 99.97
    assert bot.forfeit() == "gave no answer before it spent the tournament time budget of 100 s (stopped)"
    bot.close()


def test_time_waiting_for_answers_is_charged_to_both_budgets() -> None:
    bot = Scripted(game_budget=50.0, total_budget=100.0, wall_limit=0.05)
    # the wall limit stops it, not a budget (both have far more left)
    assert bot.forfeit() == "gave no answer within 0.05 s (stopped)"
    assert 0.05 <= bot.spent_game == bot.spent_total
    bot.new_game()
    assert bot.spent_game == 0.0
    assert bot.spent_total >= 0.05
    bot.close()


def test_a_worker_that_stops_reading_forfeits(bot: Scripted) -> None:
    bot._start(1.0)
    assert bot._sock is not None
    bot._sock.shutdown(socket.SHUT_WR)
    assert bot.forfeit() == "its process stopped reading the referee's requests"


@pytest.mark.parametrize(
    ("spent", "reason"),
    [
        (95.0, "the tournament time budget of 100 s"),  # exactly one wall limit left: the tournament's budget
        (94.9, "the game time budget of 30 s"),
        (0.0, "the game time budget of 30 s"),
    ],
)
def test_a_stop_by_budget_names_the_tournament_once_less_than_a_wall_limit_is_left(spent: float, reason: str) -> None:
    bot = Scripted(total_budget=100.0, game_budget=30.0, wall_limit=5.0)
    bot.spent_total = spent
    assert bot._budget_reason() == reason


@pytest.mark.parametrize(("platform", "method"), [("linux", "fork"), ("darwin", "spawn"), ("win32", "spawn")])
def test_a_function_bot_is_forked_on_linux_and_spawned_elsewhere(
    monkeypatch: pytest.MonkeyPatch, platform: str, method: str
) -> None:
    monkeypatch.setattr(sandbox.sys, "platform", platform)
    assert sandbox.start_method() == method


def test_a_stale_reply_and_then_silence_is_stopped_by_the_clock(quick: Scripted) -> None:
    """After a stale line the referee only looks for more (it never blocks), so the wall limit still applies."""
    quick.send({"seq": 0, "move": 4})
    assert quick.forfeit() == "gave no answer within 0.05 s (stopped)"


def test_while_waiting_cpu_time_counts_from_the_last_answer_too() -> None:
    bot = Scripted(time_limit=0.5, wall_limit=0.05)
    bot._start(1.0)
    bot.workers[0].cpu_seconds = 0.4
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    # silent now, its CPU time unchanged: 0 s used for this move, so the clock stops it, not the CPU limit
    assert bot.forfeit() == "gave no answer within 0.05 s (stopped)"
    bot.close()


def test_while_waiting_cpu_time_of_exactly_the_limit_is_allowed() -> None:
    bot = Scripted(time_limit=0.5, wall_limit=0.05)
    bot._start(1.0)
    bot.workers[0].cpu_seconds = 0.5
    assert bot.forfeit() == "gave no answer within 0.05 s (stopped)"
    bot.close()


def test_half_a_line_and_then_silence_is_stopped_by_the_clock(quick: Scripted) -> None:
    """Part of a reply is kept, and the referee goes back to its clock: it never waits for the rest."""
    quick.send(b'{"seq": 1, "mo')
    assert quick.forfeit() == "gave no answer within 0.05 s (stopped)"


def test_a_long_reply_and_the_next_one_read_together_are_not_over_the_limit(bot: Scripted) -> None:
    """The limit is on one reply: a read that holds the end of a long one and the start of the next is fine."""
    first = json.dumps({"seq": 1, "move": 4, "output": "x" * (sandbox.MAX_MESSAGE - 100)}).encode() + b"\n"
    second = json.dumps({"seq": 2, "move": 6, "output": "y" * 60_000}).encode() + b"\n"
    bot.send(first + second)
    assert bot.ask(STATE) == 4
    assert bot.ask(STATE) == 6


def test_a_restart_after_a_stop_may_take_only_what_is_left_of_the_total_budget() -> None:
    """A first start has the load limit; a restart after a stop is the bot's own time, out of its budget."""
    bot = Scripted(total_budget=10.0, wall_limit=0.05)
    bot.forfeit()  # silent: stopped
    left = 10.0 - bot.spent_total
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    assert bot.start_walls == [sandbox.LOAD_WALL_LIMIT, left]
    bot.close()


def test_without_a_total_budget_a_restart_is_not_limited_by_one() -> None:
    bot = Scripted(wall_limit=0.05)
    bot.forfeit()
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    assert bot.start_walls == [sandbox.LOAD_WALL_LIMIT, math.inf]
    bot.close()


def test_every_second_of_waiting_is_charged_to_the_game_and_the_total_alike(bot: Scripted) -> None:
    bot.game_budget, bot.total_budget = 50.0, 100.0
    bot.send({"seq": 1, "move": 4}, {"seq": 2, "move": 6})
    assert bot.ask(STATE) == 4  # starts the worker (not charged)
    assert bot.ask(STATE) == 6  # the worker is running: no start at all
    assert bot.spent_game == bot.spent_total


def with_fake_clock(bot: Scripted, monkeypatch: pytest.MonkeyPatch, start_seconds: float) -> list[float]:
    """The sandbox's clock stands still but for each start, which takes ``start_seconds``."""
    clock = [1000.0]
    monkeypatch.setattr(sandbox, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    bot.clock, bot.start_seconds = clock, start_seconds
    return clock


def test_a_first_start_is_charged_to_no_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Scripted(game_budget=50.0, total_budget=100.0)
    with_fake_clock(bot, monkeypatch, start_seconds=5.0)
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4
    assert (bot.spent_game, bot.spent_total) == (0.0, 0.0)  # the 5 s start is the schedule's, not the bot's
    bot.close()


def test_a_restart_after_a_stop_is_charged_to_the_total_but_not_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Scripted(time_limit=0.5, game_budget=50.0, total_budget=100.0)
    with_fake_clock(bot, monkeypatch, start_seconds=5.0)
    bot._start(1.0)
    bot.workers[0].cpu_seconds = 0.6  # over its CPU limit while waiting: stopped
    assert bot.forfeit() == "took longer than the time limit of 0.5 s of CPU time (stopped)"
    bot.send({"seq": 1, "move": 4})
    assert bot.ask(STATE) == 4  # on a fresh worker, after a 5 s restart
    assert (bot.spent_game, bot.spent_total) == (0.0, 5.0)
    bot.close()
