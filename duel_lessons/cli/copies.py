"""The teacher's copies: ``duel-lessons student-copies``, ``answer-key`` and ``check-lessons``
(the work is done by :mod:`duel_lessons.teaching.student_copies` and :mod:`duel_lessons.teaching.declared`).

Both read teacher notebooks, which are not installed with the package (so that a
student's environment holds no answers): SRC, or the ``notebooks/`` of a clone
of the repository (see :func:`duel_lessons.teaching.editions.lesson_files`).
nbformat, which reads them, is imported only when one of these commands runs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from duel_lessons.cli.console import Console
from duel_lessons.cli.options import Subparsers
from duel_lessons.engine.errors import DuelError


def _lessons(src: str | None) -> Path:
    """SRC, or the teacher edition's notebooks/ (an EditionError saying where to get them when there are none)."""
    from duel_lessons.teaching.editions import teacher_notebooks

    return Path(src) if src else teacher_notebooks(how="as SRC (its notebooks/ folder)")


def holds_solutions(src: Path) -> bool:
    """Whether SRC (a notebook, or a folder of them) has a cell that student copies leave out: a teacher notebook."""
    from duel_lessons.teaching.markers import is_removed

    for path in [src] if src.is_file() else sorted(src.glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError, AttributeError):
            continue  # a broken notebook: answer_key names it
        if any(isinstance(cell, dict) and is_removed(cell) for cell in cells):
            return True
    return False


def run_student_copies(args: argparse.Namespace, io: Console) -> int:
    """Write copies of the lessons without solutions and teacher notes."""
    from duel_lessons.teaching.student_copies import write_student_copies

    try:
        written = write_student_copies(_lessons(args.src), args.dest, force=args.force)
    except (OSError, ValueError) as error:
        raise DuelError(str(error)) from None
    for path in written:
        io.say(f"Wrote {path}")
    io.say(
        f"{len(written)} student copies: solutions and teacher notes removed (nbgrader's solution regions "
        "replaced by its stub), exercises and checks kept."
    )
    return 0


def run_answer_key(args: argparse.Namespace, io: Console) -> int:
    """Print every exercise with its solution, as markdown (or write it to ``--output``)."""
    from duel_lessons.teaching.keys import answer_key, write_answer_key

    src = _lessons(args.src)
    if not src.exists():
        raise DuelError(f"{src} does not exist.")
    if not holds_solutions(src):
        raise DuelError(
            f"{src} holds no teacher notebooks (no solution cells): the answer key is made from the teacher "
            "edition, which is in the repository, not in the installed package. Give its notebooks/ folder as SRC."
        )
    if args.output is not None:
        try:
            io.say(f"Wrote {write_answer_key(src, args.output, force=args.force)}")
        except OSError as error:
            raise DuelError(str(error)) from None
        return 0
    io.write(answer_key(src))
    return 0


def run_check_lessons(args: argparse.Namespace, io: Console) -> int:
    """Check every declarations file in a folder of lessons: one line per problem, naming the file, exercise, field."""
    from duel_lessons.teaching.declared import SUFFIX, check_folder

    folder = _lessons(args.src)
    problems = check_folder(folder)
    if problems:
        raise DuelError("\n".join(problems))
    count = len(list(folder.glob(f"*{SUFFIX}")))
    io.say(f"{count} declarations file{'' if count == 1 else 's'} in {folder}: all well formed.")
    return 0


def add_parser(subparsers: Subparsers) -> None:
    """Add ``student-copies``, ``answer-key`` and ``check-lessons``."""
    summary = "copy the lessons without solutions and teacher notes"
    description = (
        f"{summary}. Recognises tags, # SOLUTION comments, teacher-note openings and nbgrader's markers "
        "(### BEGIN SOLUTION ... ### END SOLUTION becomes its stub; hidden tests go); refuses, naming the "
        "notebook and the cell, a marker that matches no rule. See Markers in docs/teacher-guide.md."
    )
    copies = subparsers.add_parser("student-copies", help=summary, description=description)
    source = "a folder of teacher notebooks or one notebook (default: notebooks/ of the clone you are in)"
    copies.add_argument("src", metavar="SRC", nargs="?", help=source)
    copies.add_argument("dest", metavar="DEST", help="the folder to write the student copies into")
    copies.add_argument(
        "--force",
        action="store_true",
        help="replace edited copies and files this command did not make (a backup of each is kept)",
    )
    copies.set_defaults(func=run_student_copies)
    summary = "print every exercise of the teacher notebooks with its solution (markdown)"
    key = subparsers.add_parser("answer-key", help=summary, description=summary)
    key.add_argument("src", metavar="SRC", nargs="?", help=source)
    key.add_argument("-o", "--output", metavar="FILE", help="write the key to FILE (atomically) instead of printing it")
    key.add_argument("--force", action="store_true", help="with --output: replace a file this command did not make")
    key.set_defaults(func=run_answer_key)
    summary = "check the declared exercises (NN-topic.lesson.toml) of a folder of lessons"
    check = subparsers.add_parser("check-lessons", help=summary, description=summary)
    check.add_argument("src", metavar="SRC", nargs="?", help="a folder of lessons (default: notebooks/ of the clone)")
    check.set_defaults(func=run_check_lessons)
