"""Run one handed-in notebook and hand back its answers as plain values (runs inside the sandbox).

``duel-lessons class-report`` starts ``python -m duel_lessons.teaching.grade_worker`` through
:func:`duel_lessons.play.sandbox.run_isolated` (its own interpreter, user and namespaces, CPU,
memory and output limits, nothing of the teacher's writable) and writes one JSON request to its
standard input::

    {"cells": ["code of cell 1", ...],            # the submission's code cells, in order
     "answers": {"check:1": "answer_1", ...},     # what to read afterwards: an expression each
     "rules": {"test:loses": ["my_rule", 100]},   # conjecture functions, evaluated for n = 1..upto
     "cell_seconds": 20}

It executes the cells one after another in a plain IPython shell (no kernel, no network), each
with a CPU-time alarm, going on after a cell that fails (as a grader does), with the
student's printing sent nowhere.  Then it reads each expression and turns its value into plain
JSON (:func:`plain`: whole numbers, text, lists, tuples, sets, dicts and fractions; anything
else, such as an object that claims to equal everything, becomes the text ``<not a plain
value>``).  The one line of JSON it prints on the standard output it kept for itself is all the
teacher's process reads: no object of the student's ever leaves the sandbox, and the verdicts
are made outside it, by the teacher's own checks.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from fractions import Fraction
from typing import Any

#: The longest list or text a value may have to be handed back.
MAX_ITEMS = 10_000
#: How deep nested lists may go.
MAX_DEPTH = 6
NOT_PLAIN = "<not a plain value>"
#: The files a request may place beside the re-run: a lesson's declarations, by a plain name.
FILE_NAME = re.compile(r"\d\d-[\w-]{1,80}\.lesson\.toml")


class CellTimeout(BaseException):
    """A cell, or a student's function, used up its CPU time."""


def _alarm(signum: int, frame: object) -> None:
    raise CellTimeout


def plain(value: object, depth: int = 0) -> object:
    """``value`` as JSON built from exact built-in types only (subclasses and look-alikes refused).

    >>> plain([1, "P", (2, 3), {4}, Fraction(1, 3)])
    [1, 'P', {'tuple': [2, 3]}, {'set': [4]}, {'fraction': [1, 3]}]
    >>> class Liar(int):
    ...     def __eq__(self, other): return True
    >>> plain(Liar(3)), plain(True), plain(None)
    (3, {'bool': True}, None)
    """
    if depth > MAX_DEPTH:
        return NOT_PLAIN
    kind = type(value)
    if value is None:
        return None
    if kind is bool:
        return {"bool": value}
    if isinstance(value, int):  # an int subclass is read through int's own slot, never its methods
        return int.__index__(value)
    if kind is float:
        return {"float": repr(value)}
    if isinstance(value, str):
        text = str.__str__(value)
        return text if len(text) <= MAX_ITEMS else NOT_PLAIN
    if isinstance(value, Fraction) and kind is Fraction:
        return {"fraction": [int(value.numerator), int(value.denominator)]}
    if kind in (list, tuple, set, frozenset):
        items = list(value)  # type: ignore[call-overload]
        if len(items) > MAX_ITEMS:
            return NOT_PLAIN
        if kind in (set, frozenset):
            with contextlib.suppress(TypeError):
                items = sorted(items)
        inner = [plain(v, depth + 1) for v in items]
        return inner if kind is list else {"tuple" if kind is tuple else "set": inner}
    if kind is dict:
        pairs = list(value.items())  # type: ignore[attr-defined]
        if len(pairs) > MAX_ITEMS:
            return NOT_PLAIN
        return {"dict": [[plain(k, depth + 1), plain(v, depth + 1)] for k, v in pairs]}
    if value is Ellipsis:
        return {"ellipsis": True}
    if callable(value):
        name = getattr(value, "__name__", None)  # read once: a property may answer differently the second time
        return {"function": str.__str__(name) if isinstance(name, str) else "?"}
    try:  # numpy integers and booleans, by their exact type name
        import numpy as np

        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, np.bool_):
            return {"bool": bool(value)}
    except ImportError:  # pragma: no cover
        pass
    return NOT_PLAIN


def _limited(seconds: float, action: Any) -> tuple[bool, Any]:
    """Run ``action()`` with a CPU-time alarm: (finished, result)."""
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return True, action()
    except CellTimeout:
        return False, None
    except BaseException:  # the student's code: any failure is just "no answer"
        return False, None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def place_files(files: object, folder: str) -> None:
    """Write the request's ``files`` (name -> text) into ``folder``: only a lesson's declarations, by a plain
    name (:data:`FILE_NAME`), each under 1 MiB of text; anything else is skipped.

    >>> folder = tempfile.mkdtemp()
    >>> place_files({"04-proof.lesson.toml": "x = 1", "../04-a.lesson.toml": "", "notes.txt": ""}, folder)
    >>> os.listdir(folder)
    ['04-proof.lesson.toml']
    >>> shutil.rmtree(folder)
    """
    for name, text in dict(files or {}).items():  # type: ignore[call-overload]
        if isinstance(name, str) and isinstance(text, str) and FILE_NAME.fullmatch(name) and len(text) < 2**20:
            with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
                file.write(text)


def remember(calls: dict[str, object]) -> Callable[[str, str, object], None]:
    """A listener for :func:`duel_lessons.teaching.record.listen` keeping, in ``calls``, the last answer per
    exercise name (its first 80 characters).

    >>> calls = {}
    >>> remember(calls)("04", "order", ["B", "A"]); calls
    {'order': ['B', 'A']}
    """
    return lambda lesson, name, answer: calls.__setitem__(str(name)[:80], answer)


def grade(request: dict[str, Any], shell: Any, calls: dict[str, object]) -> dict[str, object]:
    """Run the request's cells in ``shell`` (IPython's), then read its answers, ``calls`` and rules, as plain values.

    Each cell, expression and rule has ``cell_seconds`` of CPU time (20 by default), under the
    ``SIGPROF`` alarm that :func:`main` points at :class:`CellTimeout`.  Making a value plain runs
    under that alarm too (sorting a set calls the student's ``__lt__``): an answer that fails or
    runs out of time there is ``{"missing": True}``, as one whose expression fails.
    """
    seconds = float(request.get("cell_seconds", 20))
    ran = failed = 0
    for source in request.get("cells", []):
        if not isinstance(source, str):
            continue
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            finished, outcome = _limited(seconds, lambda s=source: shell.run_cell(s, store_history=False, silent=True))
        ran += 1
        if not finished or outcome is None or not outcome.success:
            failed += 1
    namespace = shell.user_ns
    answers: dict[str, object] = {}
    for name, expression in request.get("answers", {}).items():
        # the teacher's expression; made plain under the alarm too (sorting a set runs the student's __lt__)
        finished, value = _limited(seconds, lambda e=expression: plain(eval(e, namespace)))
        answers[name] = value if finished else {"missing": True}
    for name, value in list(calls.items())[:100]:
        finished, plained = _limited(seconds, lambda v=value: plain(v))
        answers[f"call:{name}"] = plained if finished else {"missing": True}
    rules: dict[str, object] = {}
    for name, (expression, upto) in request.get("rules", {}).items():
        finished, rule = _limited(seconds, lambda e=expression: eval(e, namespace))
        if finished and not callable(rule):  # a value, not a function: that value is the answer
            finished, plained = _limited(seconds, lambda r=rule: plain(r))
            rules[name] = plained if finished else {"missing": True}
            continue
        if not finished:
            rules[name] = {"missing": True}
            continue

        def values(rule: Any = rule, upto: int = int(upto)) -> list[object]:
            said = []
            for n in range(1, upto + 1):
                try:
                    said.append(plain(rule(n)))
                except CellTimeout:
                    raise
                except BaseException as error:  # the rule's failure at n is its answer there
                    said.append({"error": type(error).__name__})
            return said

        finished, said = _limited(seconds, values)
        rules[name] = said if finished else {"timeout": True}
    return {"ran": ran, "failed": failed, "answers": answers, "rules": rules}


def main() -> None:
    """Read the request, run the cells, print the answers as one JSON line."""
    request = json.loads(sys.stdin.buffer.read() or b"{}")
    scratch = tempfile.mkdtemp(prefix="duel-grade-")  # IPython's and matplotlib's folders, this run's only
    os.environ.update(MPLBACKEND="Agg", HOME=scratch, IPYTHONDIR=scratch, MPLCONFIGDIR=scratch)
    os.environ.pop("VIRTUAL_ENV", None)  # or IPython adds that venv's packages to this Python's path
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    result_stream = os.fdopen(os.dup(1), "w", encoding="utf-8")
    quiet = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    os.dup2(quiet.fileno(), 1)  # the student's printing goes nowhere
    os.dup2(quiet.fileno(), 2)
    signal.signal(signal.SIGPROF, _alarm)
    work = os.path.join(scratch, "work")
    os.mkdir(work)
    place_files(request.get("files"), work)  # the lesson's declarations, as a student has them
    os.chdir(work)
    calls: dict[str, object] = {}  # the last answer given to lesson.check(NAME, ...) by a call, per exercise
    from duel_lessons.teaching.record import listen

    listen(remember(calls))
    reply = grade(request, shell, calls)
    result_stream.write(json.dumps(reply) + "\n")
    result_stream.flush()
    shutil.rmtree(scratch, ignore_errors=True)
    os._exit(0)  # nothing the student registered (atexit, threads) runs after the answer


if __name__ == "__main__":
    main()
