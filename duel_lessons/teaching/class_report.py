"""The class report: handed-in notebooks re-run in isolation, judged, and summed up for the teacher.

``duel-lessons class-report SUBMISSIONS [--lesson 04] [--teacher-copy PATH] [-o report.html]``
reads every ``*.ipynb`` in a folder of handed-in notebooks, never writing there, and for each:

1. reads and validates it (a malformed file, a link, a FIFO, another lesson: a row saying why);
2. re-executes its code cells in the tournament's sandbox
   (:func:`duel_lessons.play.sandbox.run_isolated`: its own interpreter and user, CPU, memory and
   output limits, nothing of the teacher's or the other submissions readable or writable), and
   reads back the values of the answer variables as plain data (:mod:`.grade_worker`);
3. judges those values here, with the lesson's own checks and the **teacher's** parameters (read
   from the teacher's copy of the lesson), so a notebook that patched ``check``, printed a ✅ by
   hand or edited its saved attempts earns nothing it did not compute;
4. reads the attempts saved in the file (:mod:`.record`) for the history: the tries before the
   answer was right, the mistakes named on the way, what the student guessed first and the first
   counterexamples they met.  A saved "right" that the re-run answer does not bear out is
   reported as not borne out, and counts for nothing.

The result, a :class:`ClassReport`, shows itself in a notebook and writes a CSV for a gradebook
and an HTML page with charts (:meth:`ClassReport.html`); what is read from the teacher's copy
is in :mod:`.notebook_plan`.

No hand-in can stop the report: a file that cannot be read, a re-run that sends back what the
worker never writes (read by :mod:`.bounded_json`, with limits on size, depth and types) or an
answer too costly to judge (each is judged under a CPU limit by :mod:`.judging`) gets a row
saying why, and the rest of the class is reported.

>>> Limits().cpu, Limits().judge
(90.0, 5.0)
"""

from __future__ import annotations

import json
import os
import queue
import re
import stat
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duel_lessons.play.unisolated import INSTALL_ISOLATION, UNISOLATED_FLAG
from duel_lessons.teaching import record as records_module
from duel_lessons.teaching.bounded_json import Reply, Unreadable, loads, parse_reply
from duel_lessons.teaching.judging import Judge
from duel_lessons.teaching.notebook_plan import Plan, ReportError, code_cells, lesson_of, plan_of
from duel_lessons.teaching.report_page import ClassReport, Row

#: A handed-in notebook larger than this is not read, nor one whose JSON nests deeper than this.
MAX_BYTES = 20 * 2**20
MAX_NOTEBOOK_DEPTH = 100


@dataclass(frozen=True)
class Limits:
    """Limits for re-running one notebook: CPU seconds over its whole process tree, wall-clock seconds,
    bytes of memory (for the whole tree), processes at once, CPU seconds for one cell (or one evaluation
    of a student's function), and CPU seconds to judge one answer."""

    cpu: float = 90.0
    wall: float = 180.0
    memory: int = 2 * 2**30
    cell: float = 30.0
    processes: int = 64
    judge: float = 5.0


# -- one submission ---------------------------------------------------------------------------------


def _outcome(kind: str) -> str:
    return {"right": "right", "partial": "partial", "unanswered": "blank"}.get(kind, "wrong")


#: The longest mistake shown in the report (the words the student saw, in short).
MAX_WORDS = 140


def in_words(kind: str, message: str, hint: str) -> str:
    """A mistake as the student saw it, in short: a misconception by its hint, anything else by its message.

    >>> in_words("misconception", "Your answer was [1, 2].", "Is 1 allowed in this game? Read the rule again.")
    'Is 1 allowed in this game? Read the rule again.'
    >>> in_words("partial", "2 of the 3 winning moves: some are missing.", "Try 2.")
    '2 of the 3 winning moves: some are missing.'
    """
    text = " ".join((hint if kind == "misconception" and hint else message or hint).split())
    return text if len(text) <= MAX_WORDS else text[: MAX_WORDS - 1] + "…"


def _history(row: Row, saved: Sequence[Mapping[str, Any]], lesson: str) -> None:
    """Fill the row's history from the attempts saved in the file (the last record of each name wins)."""
    latest: dict[tuple[str, str], Mapping[str, Any]] = {}
    for r in saved:
        if r.get("lesson") != lesson:
            continue
        latest[(r["action"], r["name"])] = r
    for (action, name), r in latest.items():
        keys = [k for k in r.get("history", []) if isinstance(k, str)] if isinstance(r.get("history"), list) else []
        words = r.get("said")  # the words the student saw for each mistake (records before issue 28: keys only)
        if isinstance(words, list) and len(words) == len(keys) and all(isinstance(w, str) for w in words):
            keys = [" ".join(w.split())[:MAX_WORDS] or k for w, k in zip(words, keys, strict=True)]
        if action == "check":
            for key in keys:
                row.history[f"{name}:{key}"] += 1
            tries = r.get("tries")
            right = r.get("kind") == "right"
            row.tries[name] = tries if type(tries) is int and tries > 0 else len(keys) + int(right)
        elif action == "guess":
            first = r.get("first", r.get("shown", ""))
            row.guesses[name] = str(first)
        elif action == "test":
            first_n = r.get("first_counterexample", r.get("n"))
            if isinstance(first_n, int) and not isinstance(first_n, bool):
                row.counterexamples[name] = str(first_n)


def clicked(saved: Sequence[Mapping[str, Any]], lesson: str) -> dict[str, list[str]]:
    """The last order clicked in each Parsons widget, as saved in the notebook: check -> its labels.

    >>> clicked([{"lesson": "04", "action": "check", "name": "order", "via": "widget", "answer": ["B", "A"]}], "04")
    {'order': ['B', 'A']}
    """
    found: dict[str, list[str]] = {}
    for r in saved:
        answer = r.get("answer")
        if r.get("lesson") == lesson and r.get("via") == "widget" and isinstance(answer, list):
            labels = [x for x in answer if isinstance(x, str) and 0 < len(x) <= 8]
            if len(labels) == len(answer) <= 40:
                found[str(r.get("name"))] = labels
    return found


def _judge(row: Row, plan: Plan, reply: Reply, judge: Judge, clicks: Mapping[str, list[str]] | None = None) -> None:
    """Judge the re-run's answers with the lesson's checks, each in the judging process under its CPU limit.

    An order clicked in the widget (``clicks``, saved in the notebook) is judged as an answer variable is,
    where the re-run gives no answer for that check (nobody clicks in a re-run).
    """
    from duel_lessons.teaching.grade_worker import plain

    params = plain(plan.params)
    explained = explanation_names(plan)
    for name in plan.checks:
        key = f"check:{name}"
        if reply.answers.get(key) in (None, ...) and f"call:{name}" in reply.answers:
            key = f"call:{name}"  # answered by lesson.check(name, ...): it counts as an answer variable does
        if reply.answers.get(key) in (None, ...) and clicks and name in clicks:
            key = f"click:{name}"
            reply.answers[key] = reply.raw_answers[key] = clicks[name]
        value = reply.answers.get(key)
        if name in explained and isinstance(value, str) and value.strip():
            row.explanations[name] = " ".join(value.split())[:600]
        if isinstance(value, dict) and ("function" in value or "timeout" in value):
            row.verdicts[name] = "wrong"
            row.mistakes[name] = "no value (a function, or it ran out of time)"
            row.tries.pop(name, None)
            continue
        said = judge.ask({"lesson": plan.lesson, "params": params, "check": name, "answer": reply.raw_answers.get(key)})
        kind = str(said.get("kind", "refused"))
        row.verdicts[name] = _outcome(kind)
        if "refused" in said:
            row.mistakes[name] = f"not judged: it {said['refused']}"
        elif kind in ("misconception", "format", "partial", "miss") and said.get("key"):
            row.mistakes[name] = in_words(kind, str(said.get("message", "")), str(said.get("hint", "")))
    for name in plan.guesses:
        guessed = reply.answers.get(f"guess:{name}")
        if name not in row.guesses and guessed is not None and guessed is not ...:
            row.guesses[name] = repr(guessed)[: records_module.MAX_TEXT]
    for name, (_, upto) in plan.tests.items():
        values = reply.rules.get(f"test:{name}")
        if not isinstance(values, list) or all(v is ... or v is None for v in values):  # `...`: never written
            row.final_tests[name] = "no rule"
            continue
        values_json = reply.raw_rules[f"test:{name}"]
        said = judge.ask({"lesson": plan.lesson, "params": params, "test": name, "values": values_json, "upto": upto})
        row.final_tests[name] = str(said.get("result", f"not judged: it {said.get('refused', 'could not be checked')}"))


def _not_borne_out(row: Row, saved: Sequence[Mapping[str, Any]], lesson: str) -> None:
    claimed = {
        r["name"]
        for r in saved
        if r.get("lesson") == lesson and r.get("action") == "check" and r.get("kind") == "right"
    }
    for name in sorted(claimed):
        if row.verdicts.get(name) != "right":
            row.not_borne_out.append(name)
            row.tries.pop(name, None)
            now = {"wrong": "wrong", "partial": "only partly right", "blank": "not answered"}.get(
                row.verdicts.get(name, "blank"), "not right"
            )
            row.disagreed[name] = f"the record saved in the file says right, but the answer re-run here is {now}"


def _run(notebook: Mapping[str, Any], plan: Plan, limits: Limits) -> tuple[Reply | None, str | None]:
    """Re-execute the submission in the sandbox: (its checked reply, None), or (None, why there is none)."""
    from duel_lessons.play.sandbox import run_isolated

    request = {
        "cells": code_cells(notebook),
        "answers": {
            **{f"check:{k}": v for k, v in plan.checks.items() if v},
            **{f"guess:{k}": v for k, v in plan.guesses.items()},
        },
        "rules": {f"test:{k}": [e, u] for k, (e, u) in plan.tests.items()},
        "cell_seconds": limits.cell,
        "files": plan.files,  # the student edition of the lesson's declarations, as beside a student's copy
    }
    done = run_isolated(
        ["-m", "duel_lessons.teaching.grade_worker"],
        stdin=json.dumps(request).encode(),
        cpu_limit=limits.cpu,
        wall_limit=limits.wall,
        memory_limit=limits.memory,
        max_processes=limits.processes,
        output_limit=8 * 2**20,
        scratch=True,  # a private /tmp: IPython and matplotlib keep caches there
    )
    if done.stopped:
        return None, f"stopped when re-run: it {done.stopped}"
    try:
        return parse_reply(done.stdout, max_rule_values=max((u for _, u in plan.tests.values()), default=0)), None
    except Unreadable as error:
        if str(error) == "the run gave no answers":
            return None, "could not be re-run (the run gave no answers)"
        return None, f"sent back answers that cannot be read when re-run: {error}"


_NAME = re.compile(r"[^\w .-]+")


def student_name(path: Path) -> str:
    """The student's name from the file name: ``ana-04.ipynb`` -> ``ana-04`` (printable characters only)."""
    return _NAME.sub("?", path.stem)[:80] or "?"


def _read(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The notebook's JSON, or why it cannot be read (links, FIFOs, devices, huge or malformed files)."""
    try:
        info = path.lstat()
    except OSError as error:
        return None, f"cannot be read ({error.strerror})"
    if stat.S_ISLNK(info.st_mode):
        return None, "is a link, not a notebook file"
    if not stat.S_ISREG(info.st_mode):
        return None, "is not a regular file"
    if info.st_size > MAX_BYTES:
        return None, f"is larger than {MAX_BYTES // 2**20} MB"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        return None, f"cannot be read ({error.strerror})"
    try:
        notebook = loads(data, max_bytes=MAX_BYTES, max_depth=MAX_NOTEBOOK_DEPTH)
    except Unreadable as error:
        why = "malformed JSON" if "well-formed" in str(error) else str(error)
        return None, f"is not a readable notebook ({why})"
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return None, "is not a notebook (no cells)"
    return notebook, None


def grade(path: Path, plan: Plan, limits: Limits = Limits(), judge: Judge | None = None) -> Row:
    """One submission's row (never raises for anything in the file: what cannot be graded says why)."""
    row = Row(student_name(path), path.name)
    own = judge is None
    judge = Judge(limits.judge, limits.memory, lessons=plan.folder) if judge is None else judge
    try:
        _grade(row, path, plan, limits, judge)
    except Exception as error:  # the last net: one hand-in never stops the report
        row.status = f"could not be graded ({type(error).__name__})"
        row.verdicts.clear()
    finally:
        if own:
            judge.close()
    return row


def _grade(row: Row, path: Path, plan: Plan, limits: Limits, judge: Judge) -> None:
    notebook, problem = _read(path)
    if notebook is None:
        row.status = problem or "cannot be read"
        return
    number = lesson_of(notebook)
    if number is None:
        row.status = "makes no Lesson(...): not a duel-lessons lesson"
        return
    if number != plan.lesson:
        row.status = f"is lesson {number}, not lesson {plan.lesson}"
        return
    saved = records_module.records(notebook)
    _history(row, saved, plan.lesson)
    reply, stopped = _run(notebook, plan, limits)
    if reply is None:
        row.status = stopped or "could not be re-run"
        return
    _judge(row, plan, reply, judge, clicked(saved, plan.lesson))
    _not_borne_out(row, saved, plan.lesson)


def submissions(folder: Path) -> list[Path]:
    """The ``*.ipynb`` files of a folder (not its checkpoints), sorted by name."""
    if not folder.is_dir():
        raise ReportError(f"{folder} is not a folder of handed-in notebooks.")
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def isolation_problem() -> str | None:
    """Why hand-ins cannot be isolated here (no bubblewrap, or no namespaces for it), saying what to install;
    None when they can."""
    from duel_lessons.play.isolation import bubblewrap, is_root

    wrap, why = bubblewrap()
    if wrap is not None:
        return None
    who = "root" if is_root() else "your own user"
    return (
        f"The hand-ins cannot be isolated here: {why}. Each notebook would run as {who}, able to read your "
        "files and the other hand-ins, leave files behind, reach your network and signal your processes. "
        f"{INSTALL_ISOLATION}, or, only for notebooks you trust, take that risk with "
        f"{UNISOLATED_FLAG} (run_untrusted_code_without_isolation=True in Python)."
    )


def _lab_progress() -> Callable[[int, int, str], None] | None:
    """A progress bar under the cell when running in a Jupyter kernel (None elsewhere)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency
        return None
    shell = get_ipython()
    if shell is None or not hasattr(shell, "kernel"):
        return None
    from duel_lessons.views.common import count_bar

    return count_bar("Grading")


def class_report(
    folder: Path | str,
    teacher_copy: Path | str,
    *,
    lesson: str | None = None,
    workers: int | None = None,
    limits: Limits = Limits(),
    progress: Callable[[int, int, str], None] | None = None,
    run_untrusted_code_without_isolation: bool = False,
) -> ClassReport:
    """Grade every notebook in ``folder`` against the teacher's copy of the lesson (see the module docstring).

    ``progress(done, total, file)`` is called as each notebook is graded (in a Jupyter kernel, a progress
    bar is shown when none is given). Where nothing can isolate the hand-ins (:func:`isolation_problem`)
    it raises ReportError, unless ``run_untrusted_code_without_isolation``.
    """
    teacher, problem = _read(Path(teacher_copy))
    if teacher is None:
        raise ReportError(f"The teacher's copy {teacher_copy} {problem}.")
    plan = plan_of(teacher, Path(teacher_copy).resolve().parent)
    if lesson is not None and str(lesson).zfill(2) != plan.lesson:
        raise ReportError(f"The teacher's copy is lesson {plan.lesson}, not lesson {str(lesson).zfill(2)}.")
    folder = Path(folder)
    paths = submissions(folder)
    unsafe = isolation_problem()
    if paths and unsafe and not run_untrusted_code_without_isolation:
        raise ReportError(unsafe)
    progress = progress or _lab_progress()
    count = workers or os.cpu_count() or 1
    judges: queue.SimpleQueue[Judge] = queue.SimpleQueue()
    for _ in range(count):
        judges.put(Judge(limits.judge, limits.memory, lessons=plan.folder))

    def graded(path: Path) -> Row:
        judge = judges.get()
        try:
            return grade(path, plan, limits, judge)
        finally:
            judges.put(judge)

    rows: list[Row | None] = [None] * len(paths)
    try:
        with ThreadPoolExecutor(max_workers=count) as pool:
            futures = {pool.submit(graded, p): i for i, p in enumerate(paths)}
            for done, future in enumerate(as_completed(futures), start=1):
                at = futures[future]
                rows[at] = future.result()
                if progress:
                    progress(done, len(paths), str(paths[at].relative_to(folder)))
    finally:
        while not judges.empty():
            judges.get().close()
    names = Counter(row.student.casefold() for row in rows if row is not None)
    for row, path in zip(rows, paths, strict=True):
        assert row is not None
        if names[row.student.casefold()] > 1:  # two files for one name: both kept, told apart by their path
            row.student = f"{row.student} ({path.relative_to(folder)})"
            row.note = "another file has the same student name"
    return ClassReport(plan, [row for row in rows if row is not None], titles=titles_of(plan))


def titles_of(plan: Plan) -> dict[str, str]:
    """Each exercise's title in the notebook (its declared or registered label), where it has one."""
    from duel_lessons.teaching.checks import LessonError, spec

    try:
        return dict(spec(plan.lesson, Path(plan.folder) if plan.folder else None).labels)
    except LessonError:
        return {}


def explanation_names(plan: Plan) -> set[str]:
    """The lesson's declared written explanations (collected for the teacher, never judged)."""
    import duel_lessons.teaching.declared as declared

    path = declared.find(plan.lesson, [Path(plan.folder)] if plan.folder else None)
    try:
        found = declared.load(path) if path is not None else None
    except declared.DeclarationError:
        return set()
    return {name for name, e in found.exercises.items() if e.kind == "explanation"} if found else set()
