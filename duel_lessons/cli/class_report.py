"""``duel-lessons class-report``: grade a folder of handed-in notebooks and sum up the class.

The work is done by :mod:`duel_lessons.teaching.class_report`; registered in
:data:`duel_lessons.cli.app.COMMANDS`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from duel_lessons.cli.console import Console
from duel_lessons.cli.options import Subparsers
from duel_lessons.engine.errors import DuelError
from duel_lessons.play.unisolated import UNISOLATED_FLAG

EXAMPLES = """\
examples:
  duel-lessons class-report handed-in/ --teacher-copy notebooks/04-which-numbers-lose.ipynb
  duel-lessons class-report handed-in/ --lesson 04 -o lesson04.html      (in a clone of the repository)

Each notebook is re-run in a sandbox and its answers are judged with the teacher's parameters;
the folder of handed-in notebooks is only read. The report is an HTML page with charts and a CSV
beside it (report.html and report.csv by default)."""


def _teacher_copy(args: argparse.Namespace) -> Path:
    """The teacher's copy of the lesson: --teacher-copy, else the lesson in the repository's notebooks/."""
    if args.teacher_copy:
        return Path(args.teacher_copy)
    if not args.lesson:
        raise DuelError("Say which lesson: --lesson 04, or --teacher-copy PATH to the teacher's copy of it.")
    from duel_lessons.teaching.editions import teacher_notebooks

    number = str(args.lesson).zfill(2)
    root = teacher_notebooks("with --teacher-copy PATH")  # DuelError outside a clone, saying what to give
    found = sorted(root.glob(f"{number}-*.ipynb"))
    if not found:
        raise DuelError(f"No lesson {number} in {root}: give --teacher-copy PATH (the lesson as you taught it).")
    return found[0]


def run(args: argparse.Namespace, io: Console) -> int:
    """Grade the folder, write the HTML page and the CSV, print the summary (progress on stderr as it goes)."""
    from duel_lessons.teaching.class_report import class_report
    from duel_lessons.views.files import check_writable, write_atomically

    folder = Path(args.submissions)
    output = Path(args.output)
    if output.resolve().is_relative_to(folder.resolve()):
        raise DuelError(f"Write the report outside {folder}: the folder of handed-in notebooks is never changed.")
    csv_path = output.with_suffix(".csv")
    if csv_path == output:
        raise DuelError(f"Give the report a name ending in .html, not {output}: the CSV is written beside it.")
    for path in (output, csv_path):  # before any grading: a class takes minutes
        check_writable(path, force=args.force)

    def progress(done: int, total: int, name: str) -> None:
        io.warn(f"{done} of {total}: {name}")

    report = class_report(
        folder,
        _teacher_copy(args),
        lesson=args.lesson,
        progress=progress,
        run_untrusted_code_without_isolation=args.run_untrusted_code_without_isolation,
    )
    write_atomically(output, [report.html()], force=args.force)
    write_atomically(csv_path, [report.csv_text()], force=args.force)
    graded = [row for row in report.rows if row.graded]
    io.say(f"{len(report.rows)} notebooks, {len(graded)} graded (lesson {report.plan.lesson}).")
    for row in report.rows:
        if not row.graded:
            io.say(f"  {row.student}: {row.status}")
    for check in report.checks:
        counts = report.counts(check)
        io.say(f"  exercise {check}: " + ", ".join(f"{counts[o]} {o}" for o in ("right", "partial", "wrong", "blank")))
    io.say(f"Wrote {output} and {csv_path}")
    return 0


def add_parser(subparsers: Subparsers) -> None:
    """Add ``class-report``."""
    summary = "re-run and grade handed-in notebooks in a sandbox; report the class's answers and mistakes"
    parser = subparsers.add_parser(
        "class-report",
        help=summary,
        description=summary,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("submissions", metavar="SUBMISSIONS", help="the folder of handed-in notebooks (only read)")
    parser.add_argument("--lesson", metavar="NN", help="the lesson they answer, such as 04")
    parser.add_argument("--teacher-copy", metavar="PATH", help="the teacher's copy of the lesson (its parameters rule)")
    parser.add_argument("-o", "--output", metavar="FILE", default="report.html", help="the HTML page (CSV beside it)")
    parser.add_argument("--force", action="store_true", help="replace an earlier report")
    parser.add_argument(
        UNISOLATED_FLAG,
        action="store_true",
        help="where bubblewrap cannot run, re-run the notebooks anyway, as your own user: a notebook could then "
        "read and change your files and reach your network (only for notebooks you trust)",
    )
    parser.set_defaults(func=run)
