"""Copy the lessons out of the package: ``duel-lessons lessons`` and ``student-repo``.

The work is done by :mod:`duel_lessons.teaching.editions`; registered in
:data:`duel_lessons.cli.app.COMMANDS`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from duel_lessons.cli.console import Console
from duel_lessons.cli.options import Subparsers
from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.editions import (
    PROJECT_URL,
    STUDENT_BRANCH,
    binder_link,
    write_edition,
    write_student_repo,
)

LESSONS_EXAMPLES = """\
examples:
  duel-lessons lessons my-lessons             the teacher edition: lessons with solutions, guide, answer key
  duel-lessons lessons my-class --student     the student edition: no solutions, teacher notes or answers"""

STUDENT_REPO_EXAMPLES = f"""\
examples:
  duel-lessons student-repo duel-class --url https://github.com/my-school/duel-class
  duel-lessons student-repo student-edition --url {PROJECT_URL} --branch {STUDENT_BRANCH}
  duel-lessons student-repo duel-class --url https://github.com/my-school/duel-class --from my-lessons

Then, in DEST: git init -b main && git add . && git commit -m "Student edition"
and push it to the repository at URL. Students open the printed link."""


def configure_lessons(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``lessons``."""
    parser.epilog = LESSONS_EXAMPLES
    parser.add_argument("dest", metavar="DEST", help="the folder to copy into (no file in it is overwritten)")
    parser.add_argument(
        "--student", action="store_true", help="the student edition: no solutions, teacher notes, guide or answer key"
    )


def run_lessons(args: argparse.Namespace, io: Console) -> int:
    """Copy an edition of the lessons out of the package."""
    dest = Path(args.dest)
    try:
        written = write_edition(dest, student=args.student)
    except OSError as error:
        raise DuelError(f"Cannot write the lessons to {dest}: {error}") from None
    edition = "student" if args.student else "teacher"
    lessons = sum(1 for path in written if path.suffix == ".ipynb")
    io.say(f"Wrote the {edition} edition to {dest}: {lessons} notebooks and {len(written) - lessons} documents.")
    io.say(f"Open it with: jupyter lab {dest}  (then notebooks/00-start-here.ipynb)")
    return 0


def configure_student_repo(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``student-repo``."""
    parser.epilog = STUDENT_REPO_EXAMPLES
    parser.add_argument("dest", metavar="DEST", help="the folder to write the repository into (nothing is overwritten)")
    parser.add_argument("--url", help="the address students' copies are pulled from, e.g. https://github.com/you/class")
    parser.add_argument("--branch", default="main", help="the branch of URL holding the lessons (default: main)")
    parser.add_argument(
        "--from",
        dest="source",
        metavar="FOLDER",
        help="your adapted lessons: a folder holding notebooks/ and docs/ (default: the packaged lessons)",
    )


def run_student_repo(args: argparse.Namespace, io: Console) -> int:
    """Write a student content repository and print its nbgitpuller Binder link."""
    try:
        written, link = write_student_repo(args.dest, args.url, args.branch, args.source)
    except OSError as error:
        raise DuelError(f"Cannot write the student repository to {args.dest}: {error}") from None
    lessons = sum(1 for path in written if path.suffix == ".ipynb")
    io.say(f"Wrote a student repository to {args.dest}: {lessons} student copies, the rule books and a README.")
    io.say("No solutions, teacher notes, answer key or teacher guide.")
    if link is None:
        io.say(
            "Push it to a repository of your own and run this again with --url to get its link.",
            f"This project's own student edition (branch {STUDENT_BRANCH}) opens with:",
            binder_link(PROJECT_URL, STUDENT_BRANCH),
        )
    else:
        io.say(
            f"Push it to {args.url} (branch {args.branch}); students then open:",
            link,
        )
    return 0


def add_parser(subparsers: Subparsers) -> None:
    """Add ``lessons`` and ``student-repo``."""
    summary = "copy the lessons out of the package: the teacher edition, or --student"
    lessons = subparsers.add_parser(
        "lessons", help=summary, description=summary, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    configure_lessons(lessons)
    lessons.set_defaults(func=run_lessons)
    summary = "write a content repository of student copies, and print its Binder link"
    repo = subparsers.add_parser(
        "student-repo", help=summary, description=summary, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    configure_student_repo(repo)
    repo.set_defaults(func=run_student_repo)
