"""The command line ``duel-lessons``: the parser, the list of subcommands, and ``main``.

Each subcommand lives in a module of its own with a function
``add_parser(subparsers) -> None`` that adds one or more subcommands and sets
``func=run`` on each, where ``run(args, io: Console) -> int`` returns the exit
status.  :data:`COMMANDS` lists those modules with the one-line summary of each
of their subcommands: to add a subcommand, write such a module and add it there.

Only the module of the command being run is imported (numpy, sympy, nbformat and
numba come in only with the commands that use them), so every command starts in
a small fraction of a second; ``duel-lessons --help`` lists the others from
:data:`COMMANDS` alone (``tests/test_startup.py`` checks the summaries match and
measures the start-up's CPU time).

Exit status: 0 done; 1 input ended during a game, or the output was closed
(``| head``); 2 a usage error or bad input (the message says why); 74 the output
could not be written (a full disk, ``/dev/full``); 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from contextlib import redirect_stderr, redirect_stdout, suppress
from io import StringIO
from typing import TYPE_CHECKING, TextIO, cast

from duel_lessons.cli.console import Console, OutputError, make_safe
from duel_lessons.engine.errors import DuelError

if TYPE_CHECKING:
    from duel_lessons.cli.terminal import GameAbandoned

#: The subcommand modules, in the order ``duel-lessons --help`` lists them, each with the summary
#: of every subcommand it adds (the same words as its own ``help=``: tests/test_startup.py checks).
COMMANDS: dict[str, dict[str, str]] = {
    "duel_lessons.cli.terminal": {"play": "play a game at the terminal (two people, or against the computer)"},
    "duel_lessons.cli.tools": {
        "rules": "print the rules of one book or all of them",
        "solve": "who wins from N: winning moves, remoteness, Grundy value and why",
        "table": "a table of outcomes for n up to N, as text, CSV or JSON",
    },
    "duel_lessons.cli.copies": {
        "student-copies": "copy the lessons without solutions and teacher notes",
        "answer-key": "print every exercise of the teacher notebooks with its solution (markdown)",
        "check-lessons": "check the declared exercises (NN-topic.lesson.toml) of a folder of lessons",
    },
    "duel_lessons.cli.lessons": {
        "lessons": "copy the lessons out of a clone: the teacher edition, or --student",
        "student-repo": "write a content repository of student copies, and print its Binder link",
        "student-branch": "write a self-contained student branch with its own Binder environment",
        "student-lite": "build a JupyterLite site of the student copies (Python in the browser, no server)",
    },
    "duel_lessons.teaching.printables": {"printables": "write classroom PDFs: grids, rule cards, exit tickets"},
    "duel_lessons.cli.tournament": {
        "tournament": "a round-robin tournament of the bot files in a folder, each bot in its own sandbox"
    },
    "duel_lessons.cli.class_report": {
        "class-report": "re-run and grade handed-in notebooks in a sandbox; report the class's answers and mistakes"
    },
}

#: Exit statuses (see the module docstring).
OK, INPUT_ENDED, USAGE, OUTPUT_FAILED, INTERRUPTED = 0, 1, 2, 74, 130

EPILOG = """\
examples:
  duel-lessons play                         play Divisor Duel from 60
  duel-lessons play number-factor           play book 004's Number Factor
  duel-lessons play --vs computer --level coach
  duel-lessons play --help                  all the options of play
  duel-lessons rules                        the rules of every book
  duel-lessons solve divisor-duel 60        who wins from 60, and why
  duel-lessons table factor-duel --upto 50 --format csv
  python -m duel_lessons rules factor-duel
  duel-lessons student-copies notebooks/ student-notebooks/

Custom variants: every command takes RULES and flags that change them, such as
--divisors even, --misere or --allow-one (see duel-lessons play --help).

Exit status: 0 done, 1 input ended (or output closed), 2 bad input or usage,
74 output could not be written, 130 interrupted (Ctrl-C)."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: ``command``'s module adds its subcommands; the others are listed by name and summary.

    ``command=None`` imports no subcommand module (enough for ``--help`` and usage
    errors); ``command="*"`` imports them all.
    """
    parser = argparse.ArgumentParser(
        prog="duel-lessons",
        description="Divisor Duel and its cousins at the terminal.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module, summaries in COMMANDS.items():
        if command == "*" or command in summaries:
            importlib.import_module(module).add_parser(subparsers)
        else:
            for name, summary in summaries.items():
                subparsers.add_parser(name, help=summary, description=summary)
    return parser


class _NotImported(Exception):
    """Stands for GameAbandoned while the terminal game is not imported (and so cannot have raised it)."""


def _game_abandoned() -> type[GameAbandoned]:
    """The terminal game's GameAbandoned, without importing the game for the other commands."""
    terminal = sys.modules.get("duel_lessons.cli.terminal")
    return cast("type[GameAbandoned]", terminal.GameAbandoned if terminal else _NotImported)


def _command(argv: list[str]) -> str | None:
    """The subcommand named on the command line (its first argument), if it is one."""
    known = {name for summaries in COMMANDS.values() for name in summaries}
    return argv[0] if argv and argv[0] in known else None


def _silence(stream: TextIO) -> None:
    """Point a broken or full standard stream at /dev/null, so Python's exit does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; return the exit status (see the module docstring).

    A standard stream that Python started without (``>&-``) is None: reading it is the end of input,
    writing to it an output error (74).  Ctrl-C at any point, the imports a command makes included,
    ends with one line and status 130.
    """
    try:
        io = Console(
            make_safe(stdin or sys.stdin, reading=True),
            make_safe(stdout or sys.stdout),
            make_safe(stderr or sys.stderr),
        )
    except KeyboardInterrupt:
        with suppress(OSError, ValueError, AttributeError):
            sys.stderr.write("Interrupted.\n")
        return INTERRUPTED
    try:
        return _run(argv, io)
    except KeyboardInterrupt:  # during the error handling itself
        io.warn("Interrupted.")
        return INTERRUPTED


def _run(argv: list[str] | None, io: Console) -> int:
    try:
        # argparse prints help and usage errors itself, and ignores errors writing them: capture, then write.
        said, complained = StringIO(), StringIO()
        try:
            with redirect_stdout(said), redirect_stderr(complained):
                arguments = sys.argv[1:] if argv is None else argv
                args = build_parser(_command(arguments)).parse_args(arguments)
        except SystemExit as exit_:
            io.write(said.getvalue())
            if complained.getvalue():
                io.warn(complained.getvalue().rstrip("\n"))
            return exit_.code if isinstance(exit_.code, int) else USAGE
        return int(args.func(args, io))
    except DuelError as error:
        io.warn(f"duel-lessons: error: {error}")
        return USAGE
    except _game_abandoned() as stop:
        _say_quietly(io, "")
        io.warn(str(stop))
        return INTERRUPTED if stop.interrupted else INPUT_ENDED
    except EOFError:
        _say_quietly(io, "")
        io.warn("Input ended; game abandoned.")
        return INPUT_ENDED
    except KeyboardInterrupt:
        _say_quietly(io, "")
        io.warn("Interrupted.")
        return INTERRUPTED
    except (OutputError, OSError) as error:  # OSError: argparse printing --help to a full disk
        cause = error.__cause__ if isinstance(error, OutputError) else error
        if io.stdout is not None:
            _silence(io.stdout)
        if isinstance(cause, BrokenPipeError):  # e.g. `duel-lessons rules | head -3`
            return INPUT_ENDED
        reason = cause.strerror if isinstance(cause, OSError) and cause.strerror else str(cause)
        io.warn(f"duel-lessons: error: cannot write the output: {reason}.")
        return OUTPUT_FAILED


def _say_quietly(io: Console, *lines: str) -> None:
    with suppress(OutputError, OSError, ValueError):
        io.say(*lines)
