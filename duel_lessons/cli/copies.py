"""The teacher's copies: ``duel-lessons student-copies`` and ``answer-key``
(the work is done by :mod:`duel_lessons.teaching.student_copies`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from duel_lessons.cli.console import Console
from duel_lessons.cli.options import Subparsers
from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.editions import packaged_notebooks
from duel_lessons.teaching.student_copies import answer_key, write_answer_key, write_student_copies


def run_student_copies(args: argparse.Namespace, io: Console) -> int:
    """Write copies of the lessons without solutions and teacher notes."""
    try:
        written = write_student_copies(args.src or packaged_notebooks(), args.dest, force=args.force)
    except (OSError, ValueError) as error:
        raise DuelError(str(error)) from None
    for path in written:
        io.say(f"Wrote {path}")
    io.say(f"{len(written)} student copies: solutions and teacher notes removed, exercises and checks kept.")
    return 0


def run_answer_key(args: argparse.Namespace, io: Console) -> int:
    """Print every exercise with its solution, as markdown (or write it to ``--output``)."""
    args.src = args.src or packaged_notebooks()
    if not Path(args.src).exists():
        raise DuelError(f"{args.src} does not exist.")
    if args.output is not None:
        try:
            io.say(f"Wrote {write_answer_key(args.src, args.output, force=args.force)}")
        except OSError as error:
            raise DuelError(str(error)) from None
        return 0
    io.write(answer_key(args.src))
    return 0


def add_parser(subparsers: Subparsers) -> None:
    """Add ``student-copies`` and ``answer-key``."""
    summary = "copy the lessons without solutions and teacher notes"
    copies = subparsers.add_parser("student-copies", help=summary, description=summary)
    source = "a folder of lessons or one notebook (default: the lessons installed with duel-lessons)"
    copies.add_argument("src", metavar="SRC", nargs="?", help=source)
    copies.add_argument("dest", metavar="DEST", help="the folder to write the student copies into")
    copies.add_argument(
        "--force",
        action="store_true",
        help="replace edited copies and files this command did not make (a backup of each is kept)",
    )
    copies.set_defaults(func=run_student_copies)
    summary = "print every exercise of the lessons with its solution (markdown)"
    key = subparsers.add_parser("answer-key", help=summary, description=summary)
    key.add_argument("src", metavar="SRC", nargs="?", help=source)
    key.add_argument("-o", "--output", metavar="FILE", help="write the key to FILE (atomically) instead of printing it")
    key.add_argument("--force", action="store_true", help="with --output: replace a file this command did not make")
    key.set_defaults(func=run_answer_key)
