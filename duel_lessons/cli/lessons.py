"""Commands that copy the lessons out of the package: ``lessons``, ``student-repo``.

They also let ``student-copies`` and ``answer-key`` run without a source folder:
the lessons installed with the package are then used (see
:mod:`duel_lessons.teaching.editions`).  :func:`add_lesson_commands` registers
all this in the command table of :mod:`duel_lessons.cli.main`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.editions import (
    PROJECT_URL,
    STUDENT_BRANCH,
    EditionError,
    binder_link,
    lesson_files,
    write_edition,
    write_student_repo,
)


class Says(Protocol):
    """Where a command prints (the terminal's Console)."""

    def say(self, *lines: str) -> None: ...


IO = TypeVar("IO", bound=Says)
Configure = Callable[[argparse.ArgumentParser], None]

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


def run_lessons(args: argparse.Namespace, io: Says) -> int:
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


def run_student_repo(args: argparse.Namespace, io: Says) -> int:
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


def _packaged_notebooks() -> str:
    folder = lesson_files() / "notebooks"
    if not isinstance(folder, Path):
        raise EditionError("The installed lessons are zipped; copy them out first with: duel-lessons lessons DEST")
    return str(folder)


def _source_optional(configure: Configure) -> Configure:
    """``configure`` with its SRC argument made optional (default: the lessons installed with the package)."""

    def configure_with_default(parser: argparse.ArgumentParser) -> None:
        configure(parser)
        for action in parser._actions:  # argparse has no public way to change an argument once added
            if action.dest == "src":
                action.nargs = "?"
                action.default = None
                action.help = f"{action.help} (default: the lessons installed with duel-lessons)"

    return configure_with_default


def _source_default(run: Callable[[argparse.Namespace, IO], int]) -> Callable[[argparse.Namespace, IO], int]:
    def run_with_default(args: argparse.Namespace, io: IO) -> int:
        if getattr(args, "src", "") is None:
            args.src = _packaged_notebooks()
        return run(args, io)

    return run_with_default


def add_lesson_commands(commands: dict[str, tuple[str, Configure, Callable[[argparse.Namespace, IO], int]]]) -> None:
    """Register ``lessons`` and ``student-repo`` in ``commands``; give ``student-copies`` and ``answer-key``
    a default source (the packaged lessons)."""
    for name in ("student-copies", "answer-key"):
        if name in commands:
            summary, configure, run = commands[name]
            commands[name] = (summary, _source_optional(configure), _source_default(run))
    commands["lessons"] = (
        "copy the lessons out of the package: the teacher edition, or --student",
        configure_lessons,
        run_lessons,
    )
    commands["student-repo"] = (
        "write a content repository of student copies, and print its Binder link",
        configure_student_repo,
        run_student_repo,
    )

