"""The class report's checks, each answer judged under a CPU limit in a process of its own.

A handed-in answer can be expensive to judge: the proof step ``(N+d+1)^64*(N+2*d+3)^64`` keeps
sympy busy for minutes.  So the report never judges in its own process: a :class:`Judge` starts
``python -m duel_lessons.teaching.judging`` (the teacher's own code, on the plain values the
sandbox sent back, never the student's objects) and asks it one answer at a time.  The process
stops an answer at its CPU limit with a CPU-time alarm; if the alarm cannot fire (a long step in
C), the judge kills the process when its CPU time passes the limit, and starts a new one for the
next answer.  Either way the answer is *refused*, in words, and the report goes on.

Requests and replies are one JSON line each::

    {"lesson": "04", "params": {...}, "check": "proof-1", "answer": <plain value>}
    {"kind": "miss", "message": "...", "hint": "...", "key": "..."}
    {"lesson": "04", "params": {...}, "test": "loses", "values": [<plain value>, ...], "upto": 100}
    {"result": "fails at 7"}
    {"refused": "took more than 5 s of CPU time to check"}

>>> CPU_LIMIT
5.0
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from duel_lessons.teaching.bounded_json import Unreadable, decode, loads

#: CPU seconds to judge one answer, and bytes of memory for the judging process.
CPU_LIMIT = 5.0
MEMORY_LIMIT = 2 * 2**30
#: How often the judge reads the process's CPU time while it waits, in seconds.
TICK = 0.05


class Overtime(BaseException):
    """An answer used up its CPU time (a BaseException, so no ``except Exception`` of a check swallows it)."""


def _alarm(signum: int, frame: object) -> None:
    raise Overtime


def refused(limit: float) -> dict[str, str]:
    return {"refused": f"took more than {limit:g} s of CPU time to check"}


# -- inside the judging process ---------------------------------------------------------------------

_lessons: dict[str, Any] = {}


def _lesson(number: str, params: object) -> Any:
    from duel_lessons.teaching.lesson import Lesson

    key = json.dumps([number, params], sort_keys=True)
    if key not in _lessons:
        values = decode(params)
        if not isinstance(values, dict):
            raise Unreadable("the parameters are not a dict")
        _lessons[key] = Lesson(str(number), **{str(k): v for k, v in values.items()})
    return _lessons[key]


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one request (no limit here: :func:`main` sets it)."""
    from duel_lessons.teaching.checks import truth_of
    from duel_lessons.teaching.feedback import first_difference

    lesson = _lesson(str(request["lesson"]), request.get("params", {"dict": []}))
    if "check" in request:
        verdict = lesson._judge(str(request["check"]), decode(request.get("answer")))
        return {"kind": verdict.kind, "message": verdict.message, "hint": verdict.hint, "key": verdict.key}
    raw = request.get("values")
    values = [decode(v) for v in raw] if isinstance(raw, list) else []
    _, truth = truth_of(lesson.number, lesson.params, str(request["test"]))
    found = first_difference(lambda n: values[n - 1], truth, len(values))
    return {"result": f"holds to {request.get('upto')}" if found is None else f"fails at {found[0]}"}


def main() -> None:
    """Answer requests from the standard input, one line each, each under the CPU limit given as argument."""
    import resource  # POSIX only, as the CPU-time alarm

    limit = float(sys.argv[1]) if len(sys.argv) > 1 else CPU_LIMIT
    memory = int(sys.argv[2]) if len(sys.argv) > 2 else MEMORY_LIMIT
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGPROF, _alarm)
    out = sys.stdout
    for line in sys.stdin:
        try:
            signal.setitimer(signal.ITIMER_PROF, limit)
            try:
                reply = answer(loads(line))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        except Overtime:
            reply = refused(limit)
        except MemoryError:
            reply = {"refused": "needed more memory than the judge may use"}
        except Exception as error:  # a check that breaks on a strange answer: that answer is refused
            reply = {"refused": f"could not be checked ({type(error).__name__})"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


# -- in the report's process -------------------------------------------------------------------------


class Judge:
    """A judging process and its CPU limit per answer; :meth:`ask` never waits past the limit.

    >>> judge = Judge()
    >>> params = {"dict": [["rules", "divisor-duel"], ["start", 60], ["small", 12]]}
    >>> params["dict"].append(["candidates", [2, 9, 11, 15, 21, 23]])
    >>> judge.ask({"lesson": "00", "params": params, "check": "1", "answer": [2, 3, 4, 6]})["kind"]
    'right'
    >>> judge.ask({"lesson": "00", "params": params, "check": "1", "answer": {"set": [[1]]}})
    {'refused': 'could not be checked (Unreadable)'}
    >>> judge.close()
    """

    def __init__(
        self,
        cpu_limit: float = CPU_LIMIT,
        memory_limit: int = MEMORY_LIMIT,
        command: Sequence[str] = (),
        lessons: str = "",
    ) -> None:
        self.cpu_limit, self.memory_limit = cpu_limit, memory_limit
        #: The folder of the teacher's copy: the lesson's declared exercises are read from there.
        self.lessons = lessons
        #: The judging process's command line (tests give another).
        self.command = list(command) or [
            sys.executable,
            "-m",
            "duel_lessons.teaching.judging",
            str(cpu_limit),
            str(memory_limit),
        ]
        self._popen: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        from duel_lessons.play.isolation import worker_environment
        from duel_lessons.teaching.declared import FOLDER_VARIABLE

        self.close()
        self._popen = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**worker_environment(), **({FOLDER_VARIABLE: self.lessons} if self.lessons else {})},
            cwd="/",
            start_new_session=True,
        )
        self._buffer = b""
        return self._popen

    def _cpu(self) -> float:
        import psutil  # type: ignore[import-untyped]

        assert self._popen is not None
        try:
            times = psutil.Process(self._popen.pid).cpu_times()
        except psutil.Error:
            return 0.0
        return float(times.user + times.system)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The judging process's reply to ``request``, or ``{"refused": why}`` (past the CPU limit, or it died)."""
        from duel_lessons.play.isolation import CPU_MARGIN

        popen = self._popen if self._popen is not None and self._popen.poll() is None else self._start()
        assert popen.stdin is not None and popen.stdout is not None
        began = self._cpu()
        try:
            popen.stdin.write(json.dumps(request).encode() + b"\n")
            popen.stdin.flush()
        except OSError:
            self.close()
            return {"refused": "could not be checked (the judge stopped)"}
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([popen.stdout], [], [], TICK)
            if ready:
                chunk = os.read(popen.stdout.fileno(), 65536)
                if not chunk:
                    self.close()
                    return {"refused": "could not be checked (the judge stopped: out of memory?)"}
                self._buffer += chunk
            elif self._cpu() - began > self.cpu_limit + CPU_MARGIN:  # the alarm did not fire: a long step in C
                self.close()
                return refused(self.cpu_limit)
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            reply = loads(line, max_bytes=2**20, max_depth=4)
        except Unreadable:
            return {"refused": "could not be checked (the judge's reply was unreadable)"}
        return reply if isinstance(reply, dict) else {"refused": "could not be checked"}

    def close(self) -> None:
        """End the judging process (the next :meth:`ask` starts another)."""
        popen, self._popen = self._popen, None
        if popen is None:
            return
        with contextlib.suppress(OSError):
            popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(5)
        for stream in (popen.stdin, popen.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


if __name__ == "__main__":
    main()
