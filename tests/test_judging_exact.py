"""Exact tests of the class report's judge (:mod:`duel_lessons.teaching.judging`), fast enough for mutation testing.

``tests/test_judging.py`` measures the real CPU limits (seconds of CPU each); here the judging
process is a short script that follows the protocol (one JSON line in, one out), the CPU time the
judge reads is scripted, and the judging process's own loop (:func:`judging.main`) runs in this
process with its signals and resource limits recorded instead of set.  Every expected value is
written out by hand.
"""

from __future__ import annotations

import io
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from duel_lessons.play.isolation import CPU_MARGIN, worker_environment
from duel_lessons.teaching import judging
from duel_lessons.teaching.bounded_json import Unreadable
from duel_lessons.teaching.declared import FOLDER_VARIABLE
from duel_lessons.teaching.judging import Judge, Overtime, refused

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="CPU-time alarms and resource limits: POSIX")


def test_refused_says_the_limit_in_seconds() -> None:
    assert refused(5.0) == {"refused": "took more than 5 s of CPU time to check"}
    assert refused(0.3) == {"refused": "took more than 0.3 s of CPU time to check"}
    assert refused(2.5) == {"refused": "took more than 2.5 s of CPU time to check"}


def test_the_alarm_raises_overtime_which_no_check_can_swallow() -> None:
    with pytest.raises(Overtime):
        judging._alarm(signal.SIGPROF, None)
    assert not issubclass(Overtime, Exception)


# -- inside the judging process: _lesson, answer ----------------------------------------------------


class FakeLesson:
    """A lesson as answer() uses it: its number, params and ``_judge``; records what it was asked."""

    made: ClassVar[list[FakeLesson]] = []

    def __init__(self, number: str, **params: object) -> None:
        self.number, self.params = number, params
        self.judged: list[tuple[object, object]] = []
        FakeLesson.made.append(self)

    def _judge(self, name: object, answer: object) -> SimpleNamespace:
        self.judged.append((name, answer))
        return SimpleNamespace(kind="partial", message="3 of 4", hint="try 2", key="partial:[2]")


@pytest.fixture
def fake_lessons(monkeypatch: pytest.MonkeyPatch) -> list[FakeLesson]:
    import duel_lessons.teaching.lesson

    monkeypatch.setattr(duel_lessons.teaching.lesson, "Lesson", FakeLesson)
    monkeypatch.setattr(judging, "_lessons", {})
    monkeypatch.setattr(FakeLesson, "made", [])
    return FakeLesson.made


PARAMS = {"dict": [["start", 60], ["small", 12]]}


def test_a_lesson_is_made_once_per_number_and_parameters(fake_lessons: list[FakeLesson]) -> None:
    first = judging._lesson("04", PARAMS)
    assert (first.number, first.params) == ("04", {"start": 60, "small": 12})
    assert judging._lesson("04", {"dict": [["start", 60], ["small", 12]]}) is first
    other = judging._lesson("05", PARAMS)
    assert other is not first and other.number == "05"
    assert judging._lesson("04", {"dict": [["start", 61], ["small", 12]]}).params == {"start": 61, "small": 12}
    assert len(fake_lessons) == 3


def test_a_lessons_number_and_parameter_names_are_text(fake_lessons: list[FakeLesson]) -> None:
    made = judging._lesson(4, {"dict": [[1, {"set": [2]}]]})  # type: ignore[arg-type]
    assert made.number == "4" and made.params == {"1": {2}}


@pytest.mark.parametrize("params", [[1, 2], {"set": [1]}, 5])
def test_parameters_that_are_not_a_dict_are_unreadable(fake_lessons: list[FakeLesson], params: object) -> None:
    with pytest.raises(Unreadable, match=r"^the parameters are not a dict$"):
        judging._lesson("04", params)
    assert fake_lessons == []


def test_a_check_request_gets_the_verdict_of_the_lessons_check(fake_lessons: list[FakeLesson]) -> None:
    reply = judging.answer({"lesson": 4, "params": PARAMS, "check": 2, "answer": {"set": [1, {"tuple": [2, 3]}]}})
    assert reply == {"kind": "partial", "message": "3 of 4", "hint": "try 2", "key": "partial:[2]"}
    (lesson,) = fake_lessons
    assert lesson.number == "4" and lesson.judged == [("2", {1, (2, 3)})]


def test_a_check_request_without_params_or_answer(fake_lessons: list[FakeLesson]) -> None:
    judging.answer({"lesson": "00", "check": "1"})
    (lesson,) = fake_lessons
    assert lesson.params == {} and lesson.judged == [("1", None)]


@pytest.fixture
def fake_truth(monkeypatch: pytest.MonkeyPatch, fake_lessons: list[FakeLesson]) -> list[tuple[object, ...]]:
    """truth_of for every lesson: "n is odd"; records its arguments."""
    import duel_lessons.teaching.checks

    asked: list[tuple[object, ...]] = []

    def truth_of(number: str, params: object, name: str) -> tuple[str, Any]:
        asked.append((number, params, name))
        return name, lambda n: n % 2 == 1

    monkeypatch.setattr(duel_lessons.teaching.checks, "truth_of", truth_of)
    return asked


T, F = {"bool": True}, {"bool": False}


def test_a_test_request_says_where_the_rule_first_fails(fake_truth: list[tuple[object, ...]]) -> None:
    reply = judging.answer({"lesson": "08", "params": PARAMS, "test": 7, "values": [T, F, F, T], "upto": 4})
    assert reply == {"result": "fails at 3"}
    assert fake_truth == [("08", {"start": 60, "small": 12}, "7")]
    assert judging.answer({"lesson": "08", "params": PARAMS, "test": "x", "values": [F], "upto": 1}) == {
        "result": "fails at 1"
    }


def test_a_test_request_says_how_far_the_rule_holds(fake_truth: list[tuple[object, ...]]) -> None:
    request = {"lesson": "08", "params": PARAMS, "test": "misere", "values": [T, F, T], "upto": 100}
    assert judging.answer(request) == {"result": "holds to 100"}


def test_values_that_are_not_a_list_contradict_nothing(fake_truth: list[tuple[object, ...]]) -> None:
    """The class report sends only lists (it checks first); anything else is read as no values."""
    request = {"lesson": "08", "params": PARAMS, "test": "misere", "values": {"tuple": [F]}, "upto": 5}
    assert judging.answer(request) == {"result": "holds to 5"}


def test_a_real_lessons_check_through_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lesson 00's first check with its notebook's parameters, as the Judge's doctest asks it."""
    monkeypatch.setattr(judging, "_lessons", {})
    params = {"dict": [["rules", "divisor-duel"], ["start", 60], ["small", 12], ["candidates", [2, 9, 11, 15, 21, 23]]]}
    right = judging.answer({"lesson": "00", "params": params, "check": "1", "answer": [2, 3, 4, 6]})
    assert right == {"kind": "right", "message": "", "hint": "", "key": ""}
    partial = judging.answer({"lesson": "00", "params": params, "check": 1, "answer": {"tuple": [2, 3, 4]}})
    assert partial["kind"] == "partial" and partial["key"] == "partial:[2, 3, 4]"  # 6 also divides 12


# -- inside the judging process: main --------------------------------------------------------------


class Recorder:
    """The judging process's signal module and resource limits, recorded instead of set."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []
        self.timer = 0.0
        self.SIGPROF, self.ITIMER_PROF = signal.SIGPROF, signal.ITIMER_PROF

    def signal(self, signum: int, handler: object) -> None:
        self.calls.append(("signal", signum, handler))

    def setitimer(self, which: int, seconds: float) -> None:
        self.calls.append(("setitimer", which, seconds))
        self.timer = seconds

    def setrlimit(self, which: int, limits: tuple[int, int]) -> None:
        self.calls.append(("setrlimit", which, limits))


def scripted_answer(recorder: Recorder) -> Any:
    def answer(request: dict[str, Any]) -> dict[str, Any]:
        what = request.get("do")
        if what == "overtime":
            raise Overtime
        if what == "memory":
            raise MemoryError
        if what == "break":
            raise KeyError("x")
        return {"echo": request, "timer": recorder.timer}

    return answer


def run_main(monkeypatch: pytest.MonkeyPatch, argv: list[str], lines: str) -> tuple[Recorder, str]:
    recorder = Recorder()
    monkeypatch.setattr(judging, "signal", recorder)
    monkeypatch.setattr(resource, "setrlimit", recorder.setrlimit)
    monkeypatch.setattr(judging, "answer", scripted_answer(recorder))
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    judging.main()
    return recorder, out.getvalue()


def test_main_answers_each_line_under_the_limits_given(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = '{"do": "echo", "n": 1}\n{"do": "overtime"}\n{"do": "memory"}\n{"do": "break"}\nnot json\n{"n": 2}\n'
    recorder, out = run_main(monkeypatch, ["judging", "0.5", "1000"], lines)
    assert out == (
        '{"echo": {"do": "echo", "n": 1}, "timer": 0.5}\n'
        '{"refused": "took more than 0.5 s of CPU time to check"}\n'
        '{"refused": "needed more memory than the judge may use"}\n'
        '{"refused": "could not be checked (KeyError)"}\n'
        '{"refused": "could not be checked (Unreadable)"}\n'
        '{"echo": {"n": 2}, "timer": 0.5}\n'
    )
    timer = [("setitimer", signal.ITIMER_PROF, 0.5), ("setitimer", signal.ITIMER_PROF, 0)]  # set, then cleared
    assert recorder.calls == [
        ("setrlimit", resource.RLIMIT_AS, (1000, 1000)),
        ("setrlimit", resource.RLIMIT_CORE, (0, 0)),
        ("signal", signal.SIGPROF, judging._alarm),
        *timer * 6,
    ]


def test_main_takes_the_default_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder, out = run_main(monkeypatch, ["judging"], '{"n": 1}\n')
    assert out == '{"echo": {"n": 1}, "timer": 5.0}\n'
    assert recorder.calls[:2] == [
        ("setrlimit", resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30)),
        ("setrlimit", resource.RLIMIT_CORE, (0, 0)),
    ]


def test_main_with_a_cpu_limit_only(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder, out = run_main(monkeypatch, ["judging", "2.5"], '{"do": "overtime"}\n')
    assert out == '{"refused": "took more than 2.5 s of CPU time to check"}\n'
    assert recorder.calls[0] == ("setrlimit", resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


def test_main_without_requests_answers_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder, out = run_main(monkeypatch, ["judging"], "")
    assert out == "" and len(recorder.calls) == 3


# -- in the report's process: Judge, with scripted judging processes -----------------------------------


def script(source: str) -> list[str]:
    return [sys.executable, "-I", "-S", "-c", source]


ECHO = script(
    "import json, os, sys\n"
    "for line in sys.stdin:\n"
    "    sys.stdout.write(json.dumps({'pid': os.getpid(), 'got': json.loads(line)}) + '\\n')\n"
    "    sys.stdout.flush()\n"
)
#: Writes the text it is sent, as its reply line.
SAYS = script(
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    sys.stdout.write(json.loads(line)['text'] + '\\n')\n"
    "    sys.stdout.flush()\n"
)
SETUP = script(
    "import json, os, sys\n"
    "sys.stdin.readline()\n"
    "print(json.dumps({'cwd': os.getcwd(), 'env': dict(os.environ), 'own_session': os.getsid(0) == os.getpid(),\n"
    "                  'stderr': os.readlink('/proc/self/fd/2')}), flush=True)\n"
    "sys.stdin.readline()\n"
)


@pytest.fixture
def judges() -> Iterator[list[Judge]]:
    made: list[Judge] = []
    yield made
    for judge in made:
        judge.close()


def judge_of(judges: list[Judge], command: list[str], **options: Any) -> Judge:
    judge = Judge(command=command, **options)
    judges.append(judge)
    return judge


def test_a_judges_command_and_limits() -> None:
    judge = Judge()
    assert judge.command == [sys.executable, "-m", "duel_lessons.teaching.judging", "5.0", "2147483648"]
    assert (judge.cpu_limit, judge.memory_limit, judge.lessons, judge._popen) == (5.0, 2 * 2**30, "", None)
    judge = Judge(cpu_limit=0.3, memory_limit=1000, lessons="/teacher")
    assert judge.command == [sys.executable, "-m", "duel_lessons.teaching.judging", "0.3", "1000"]
    assert (judge.cpu_limit, judge.memory_limit, judge.lessons) == (0.3, 1000, "/teacher")
    assert Judge(command=("a", "b")).command == ["a", "b"]


def test_one_process_answers_every_request_until_closed(judges: list[Judge]) -> None:
    judge = judge_of(judges, ECHO)
    first = judge.ask({"n": 1})
    assert first["got"] == {"n": 1}
    assert judge.ask({"n": 2}) == {"pid": first["pid"], "got": {"n": 2}}
    popen = judge._popen
    assert popen is not None and popen.stdin is not None and popen.stdout is not None
    judge.close()
    assert judge._popen is None and popen.returncode == -signal.SIGKILL
    assert popen.stdin.closed and popen.stdout.closed
    again = judge.ask({"n": 3})
    assert again["got"] == {"n": 3} and again["pid"] != first["pid"]
    judge.close()
    judge.close()  # closing twice, or before any question, does nothing
    Judge().close()


def test_the_judging_process_runs_in_a_clean_environment_in_its_own_session(judges: list[Judge]) -> None:
    seen = judge_of(judges, SETUP).ask({})
    assert seen == {"cwd": "/", "env": worker_environment(), "own_session": True, "stderr": "/dev/null"}
    with_lessons = judge_of(judges, SETUP, lessons="/the/teachers/copy").ask({})
    assert with_lessons["env"] == {**worker_environment(), FOLDER_VARIABLE: "/the/teachers/copy"}


def test_a_new_process_never_answers_with_the_last_ones_leftover_line(judges: list[Judge]) -> None:
    judge = judge_of(judges, SAYS)
    assert judge.ask({"text": '{"a": 1}\n{"b": 2}'}) == {"a": 1}
    assert judge.ask({"text": '{"c": 3}'}) == {"b": 2}  # one line each: the line already sent comes first
    judge.close()
    judge._buffer = b'{"old": 1}\n'
    assert judge.ask({"text": '{"d": 4}'}) == {"d": 4}


def test_a_reply_that_comes_in_pieces_is_read_whole(judges: list[Judge]) -> None:
    pieces = script(
        "import sys, time\nsys.stdin.readline()\n"
        "sys.stdout.write('{\"a\": '); sys.stdout.flush(); time.sleep(0.2)\n"
        "sys.stdout.write('[1, 2]}\\n'); sys.stdout.flush(); sys.stdin.readline()\n"
    )
    assert judge_of(judges, pieces).ask({}) == {"a": [1, 2]}


def test_replies_are_read_up_to_a_mebibyte_and_four_levels(judges: list[Judge]) -> None:
    judge = judge_of(judges, SAYS)
    popen = judge._start()
    unreadable = {"refused": "could not be checked (the judge's reply was unreadable)"}
    big = '{"s": "' + "x" * (2**20 - 9) + '"}'  # 2**20 bytes
    assert judge.ask({"text": big}) == {"s": "x" * (2**20 - 9)}
    assert judge.ask({"text": big[:-2] + 'x"}'}) == unreadable
    assert judge.ask({"text": '{"a": [[[1]]]}'}) == {"a": [[[1]]]}
    assert judge.ask({"text": '{"a": [[[[1]]]]}'}) == unreadable
    assert judge.ask({"text": "not json"}) == unreadable
    assert judge.ask({"text": "[1]"}) == {"refused": "could not be checked"}
    assert judge._popen is popen  # an unreadable reply is refused; the process goes on


def test_a_process_that_ends_without_a_reply_refuses_that_answer(judges: list[Judge]) -> None:
    judge = judge_of(judges, script("import sys\nsys.stdin.readline()\n"))
    assert judge.ask({}) == {"refused": "could not be checked (the judge stopped: out of memory?)"}
    assert judge._popen is None


def test_a_process_that_stops_reading_refuses_the_next_answer(judges: list[Judge]) -> None:
    deaf = script("import os, sys, time\nsys.stdin.readline()\nos.close(0)\nprint('{\"ok\": 1}', flush=True)\n"
                  "time.sleep(60)\n")  # fmt: skip
    judge = judge_of(judges, deaf)
    assert judge.ask({}) == {"ok": 1}
    popen = judge._popen
    assert judge.ask({}) == {"refused": "could not be checked (the judge stopped)"}
    assert judge._popen is None and popen is not None and popen.returncode == -signal.SIGKILL


SILENT = script("import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n")


def scripted_cpu(judge: Judge, monkeypatch: pytest.MonkeyPatch, *seconds: float) -> list[float]:
    """The judging process's CPU time, as the judge reads it, one value a reading (none left: an error)."""
    read: list[float] = []
    values = iter(seconds)

    def cpu() -> float:
        read.append(next(values))
        return read[-1]

    monkeypatch.setattr(judge, "_cpu", cpu)
    return read


def test_a_process_past_its_cpu_limit_and_margin_is_killed(
    judges: list[Judge], monkeypatch: pytest.MonkeyPatch
) -> None:
    judge = judge_of(judges, SILENT, cpu_limit=1.0)
    judge._start()
    popen = judge._popen
    # 10 s when asked; then exactly the limit and margin (not past it), then past it
    read = scripted_cpu(judge, monkeypatch, 10.0, 10.0 + 1.0 + CPU_MARGIN, 10.0 + 1.0 + CPU_MARGIN + 0.25)
    assert judge.ask({}) == {"refused": "took more than 1 s of CPU time to check"}
    assert len(read) == 3
    assert judge._popen is None and popen is not None and popen.returncode == -signal.SIGKILL


def test_a_process_within_its_cpu_time_is_waited_for(judges: list[Judge], monkeypatch: pytest.MonkeyPatch) -> None:
    slow = script("import sys, time\nsys.stdin.readline()\ntime.sleep(0.3)\nprint('{\"late\": 1}', flush=True)\n"
                  "sys.stdin.readline()\n")  # fmt: skip
    judge = judge_of(judges, slow, cpu_limit=1.0)
    judge._start()
    read = scripted_cpu(judge, monkeypatch, *[5.0] * 1000)
    assert judge.ask({}) == {"late": 1}
    assert len(read) > 1


class FakePsutil:
    """psutil as Judge._cpu uses it."""

    class Error(Exception):
        pass

    def __init__(self, user: float, system: float, fails: bool = False) -> None:
        self.user, self.system, self.fails = user, system, fails
        self.pids: list[int] = []

    def Process(self, pid: int) -> Any:
        self.pids.append(pid)
        if self.fails:
            raise FakePsutil.Error
        return SimpleNamespace(cpu_times=lambda: SimpleNamespace(user=self.user, system=self.system))


def test_the_cpu_time_is_user_and_system_time(monkeypatch: pytest.MonkeyPatch) -> None:
    psutil = FakePsutil(1.5, 0.25)
    monkeypatch.setitem(sys.modules, "psutil", psutil)
    judge = Judge()
    judge._popen = SimpleNamespace(pid=4321)  # type: ignore[assignment]
    assert judge._cpu() == 1.75 and psutil.pids == [4321]
    judge._popen = None


def test_a_process_whose_cpu_time_cannot_be_read_has_used_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psutil", FakePsutil(1.5, 0.25, fails=True))
    judge = Judge()
    judge._popen = SimpleNamespace(pid=4321)  # type: ignore[assignment]
    assert judge._cpu() == 0.0
    judge._popen = None


class Stream:
    def __init__(self) -> None:
        self.closing = 0

    def close(self) -> None:
        self.closing += 1
        raise OSError("already gone")


class Unkillable:
    """A judging process that cannot be signalled, does not end, and whose pipes fail to close."""

    def __init__(self) -> None:
        self.stdin, self.stdout = Stream(), Stream()
        self.waits: list[float | None] = []

    def kill(self) -> None:
        raise PermissionError("not yours")

    def wait(self, timeout: float | None = None) -> int:
        self.waits.append(timeout)
        raise subprocess.TimeoutExpired("judge", timeout or 0)


def test_closing_a_process_that_cannot_be_ended_gives_up_quietly() -> None:
    judge, stuck = Judge(), Unkillable()
    judge._popen = stuck  # type: ignore[assignment]
    judge.close()
    assert judge._popen is None
    assert len(stuck.waits) == 1 and stuck.waits[0] is not None  # a bounded wait
    assert (stuck.stdin.closing, stuck.stdout.closing) == (1, 1)
