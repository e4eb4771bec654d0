"""The terminal game: ``duel-lessons play``, ``duel-lessons rules``.

The game prints the pieces of :mod:`duel_lessons.transcript`, so a session
reads exactly like the rule book's own command-line transcript.  Players are
pluggable: a :data:`Strategy` is any callable ``(GameState) -> int``; ``None``
stands for a human at the console.  Subcommands live in :data:`SUBCOMMANDS`
(name -> (configure, run)), so ``solve`` and ``table`` can be added later, and
the custom-variant flags are shared through :func:`add_variant_arguments` and
:func:`rules_from_args`.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from typing import TextIO, get_args

from .game import GameState, IllegalMoveError, new_game, other
from .rules import (
    MAX_NUMBER,
    RULEBOOKS,
    DuelError,
    Family,
    MoveKind,
    OnInvalid,
    Rules,
    Target,
    WhenStuck,
    get_rules,
)
from .transcript import Names, end_lines, event_lines, opening_lines, prompt, turn_lines

#: A computer player: given the position, return the divisor to play.
Strategy = Callable[[GameState], int]

#: Typed input longer than this is refused without trying to read it as a number.
MAX_INPUT = 1000

#: The largest range ``--random-start`` searches exhaustively; larger ranges are sampled.
_SCAN_LIMIT = 10_000
_SAMPLES = 1_000

NAMES: Names = ("Player 1", "Player 2")

_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)


# -- input and output ---------------------------------------------------------


@dataclass
class Console:
    """Where the game reads typed lines and prints its text.

    When input does not come from a terminal (a pipe or a file), the typed
    value is echoed after the prompt, so the output reads like a session.
    """

    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)

    def say(self, *lines: str) -> None:
        """Print lines of text."""
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def warn(self, message: str) -> None:
        """Print an error message on stderr."""
        self.stderr.write(message + "\n")
        self.stderr.flush()

    def ask(self, question: str) -> str:
        """Print a prompt and return the typed line (EOFError at end of input).

        At most ``MAX_INPUT + 1`` characters are kept; the rest of a longer line
        is read and dropped.
        """
        self.stdout.write(question)
        self.stdout.flush()
        line = self.stdin.readline(MAX_INPUT + 2)
        if not line:
            raise EOFError
        if not line.endswith("\n") and len(line) > MAX_INPUT:
            while True:  # drop the rest of an overlong line
                rest = self.stdin.readline(65536)
                if not rest or rest.endswith("\n"):
                    break
        text = line.rstrip("\r\n")[: MAX_INPUT + 1]
        if not _isatty(self.stdin):
            shown = text if len(text) <= 60 else text[:40] + "..."
            self.stdout.write(shown + "\n")
            self.stdout.flush()
        return text


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def parse_whole(text: str) -> int:
    """Read typed text as a whole number, or raise ValueError with a friendly reason."""
    stripped = text.strip()
    if len(stripped) > MAX_INPUT:
        raise ValueError(f"That is too long to be a divisor (more than {MAX_INPUT} characters).")
    if not stripped:
        raise ValueError("Nothing was typed. Please type a whole number, such as 2.")
    if not _WHOLE.fullmatch(stripped):
        raise ValueError(f"{stripped!r} is not a whole number. Please type digits only, such as 2.")
    return int(stripped)


# -- playing --------------------------------------------------------------------


def ask_human(state: GameState, names: Names, io: Console) -> GameState:
    """Ask the player to move until the answer is a move; return the new state."""
    while True:
        text = io.ask(prompt(state, names))
        try:
            value = parse_whole(text)
        except ValueError as error:
            io.say(str(error))
            continue
        try:
            return state.attempt(value)
        except IllegalMoveError as error:
            io.say(f"{error} Try again.")


def play_game(
    state: GameState,
    players: dict[int, Strategy | None],
    names: Names = NAMES,
    io: Console | None = None,
) -> GameState:
    """Play ``state`` to the end, printing it in the book's words; return the final state.

    ``players[1]`` and ``players[2]`` are strategies, or None for a human at the console.
    A player with no legal move passes automatically when the rules say so.
    """
    io = io or Console()
    rules = state.rules
    opening = opening_lines(rules, state.number)
    if opening:
        io.say(*opening, "")
    while not state.is_over:
        io.say(*turn_lines(state, names))
        if state.must_pass:
            state = state.pass_turn()
        else:
            strategy = players.get(state.to_move)
            if strategy is None:
                state = ask_human(state, names, io)
            else:
                value = strategy(state)
                io.say(prompt(state, names) + str(value))
                state = state.attempt(value)
        io.say(*event_lines(state.history[-1], rules, names), "")
    io.say(*end_lines(state, names))
    return state


# -- starts -------------------------------------------------------------------


def random_start(rules: Rules, lo: int, hi: int, rng: random.Random) -> int:
    """A random legal start for ``rules`` in lo..hi (DuelError if none is found)."""
    if lo > hi:
        raise DuelError(f"The random start range {lo}..{hi} is empty: the first number must not exceed the second.")
    if lo < 1 or hi > MAX_NUMBER:
        raise DuelError(f"The random start range {lo}..{hi} must lie within 1..10**18.")

    def legal(n: int) -> bool:
        try:
            rules.check_start(n)
        except DuelError:
            return False
        return True

    if hi - lo < _SCAN_LIMIT:
        candidates = list(range(lo, hi + 1))
        rng.shuffle(candidates)
        for n in candidates:
            if legal(n):
                return n
        raise DuelError(f"No number from {lo} to {hi} can start {rules.title}. {rules.start_rule}")
    for _ in range(_SAMPLES):
        n = rng.randint(lo, hi)
        if legal(n):
            return n
    raise DuelError(f"Found no legal start for {rules.title} in {_SAMPLES} random tries from {lo} to {hi}.")


def _whole_arg(text: str, what: str) -> int:
    try:
        return parse_whole(text)
    except ValueError:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise DuelError(f"The {what} must be a whole number, not {shown!r}.") from None


# -- shared argument helpers ------------------------------------------------------


def add_variant_arguments(parser: argparse.ArgumentParser, default: str | None = "divisor-duel") -> None:
    """Add RULES and the custom-variant flags (read back with :func:`rules_from_args`)."""
    shown = f"default: {default}" if default else "default: every book"
    parser.add_argument(
        "rules", nargs="?", default=default, metavar="RULES", help=f"rule book: {', '.join(RULEBOOKS)} ({shown})"
    )
    group = parser.add_argument_group("custom variant (changes applied to RULES)")
    group.add_argument("--move", choices=get_args(MoveKind), help="N -> N - d or N -> N / d")
    group.add_argument("--divisors", choices=get_args(Family), help="which divisors d > 1 may be used")
    group.add_argument("--allow-one", action=argparse.BooleanOptionalAction, default=None, help="allow d = 1")
    group.add_argument("--win-on-reaching", choices=get_args(Target), help="moving to this kind of number wins")
    group.add_argument("--lose-on-reaching", choices=get_args(Target), help="moving to this kind of number loses")
    group.add_argument("--misere", action="store_const", const=True, default=None, help="the last player to move loses")
    group.add_argument("--when-stuck", choices=get_args(WhenStuck), help="with no legal move: end the game or pass")
    group.add_argument("--on-invalid", choices=get_args(OnInvalid), help="a wrong divisor: ask again or lose the turn")


_VARIANT_FIELDS = ("move", "divisors", "allow_one", "win_on_reaching", "lose_on_reaching", "when_stuck", "on_invalid")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule book named by ``args.rules``, changed by any custom-variant flags.

    Raises RulesError for an unknown name or an inconsistent combination.
    """
    rules = get_rules(args.rules or "divisor-duel")
    changes: dict[str, object] = {f: getattr(args, f) for f in _VARIANT_FIELDS if getattr(args, f, None) is not None}
    if getattr(args, "misere", None):
        changes["last_mover_wins"] = False
    return rules.variant(None, **changes) if changes else rules


# -- play -------------------------------------------------------------------------

#: Opponents for ``--vs``: a factory from the parsed arguments to Player 2's strategy.
OPPONENTS: dict[str, Callable[[argparse.Namespace], Strategy | None]] = {"human": lambda args: None}

PLAY_EXAMPLES = """\
examples:
  duel-lessons play                              Divisor Duel from 60 (book 000)
  duel-lessons play number-factor --start 30     book 004, with passes
  duel-lessons play divisor-duel --random-start 10 50 --seed 7
  duel-lessons play division-duel --best-of 5    match play (book 001)
  duel-lessons play divisor-duel --divisors even --start 24
  printf '15\\n15\\n15\\n5\\n5\\n' | duel-lessons play --start 60

Typed input that is not a whole number is always asked again.  A whole number
that is not an allowed divisor is asked again, except in Number Factor, where
it loses the turn (book 004).  With --best-of, the player who moves first
alternates from game to game (game 1 follows --first), and --random-start draws
a new start for every game.  When input is piped, typed values are echoed."""


def configure_play(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``duel-lessons play``."""
    add_variant_arguments(parser)
    starts = parser.add_mutually_exclusive_group()
    starts.add_argument("--start", metavar="N", help="the starting number (default: the book's)")
    starts.add_argument("--random-start", nargs=2, metavar=("LO", "HI"), help="a random legal start in LO..HI")
    parser.add_argument("--first", choices=("1", "2", "random"), default="1", help="who moves first (default: 1)")
    parser.add_argument(
        "--best-of",
        type=int,
        default=1,
        metavar="K",
        help="match play: first to (K+1)//2 wins; the first mover alternates",
    )
    parser.add_argument("--seed", type=int, help="seed for --random-start and --first random")
    parser.add_argument("--vs", choices=tuple(OPPONENTS), default="human", help="who plays Player 2 (default: human)")


def run_play(args: argparse.Namespace, io: Console) -> int:
    """Play one game or a match; 0 when it is over."""
    rules = rules_from_args(args)
    k = args.best_of
    if k < 1 or k % 2 == 0:
        raise DuelError(f"--best-of needs an odd positive number of games, such as 3 or 5, not {k}.")
    rng = random.Random(args.seed)
    start: int | None = None
    bounds: tuple[int, int] | None = None
    if args.random_start is not None:
        bounds = (_whole_arg(args.random_start[0], "LO"), _whole_arg(args.random_start[1], "HI"))
    elif args.start is not None:
        start = _whole_arg(args.start, "start")
    first = rng.choice((1, 2)) if args.first == "random" else int(args.first)
    players = {1: None, 2: OPPONENTS[args.vs](args)}

    def game(number: int) -> GameState:
        n = random_start(rules, *bounds, rng) if bounds is not None else start
        return new_game(rules, n, first if number % 2 == 1 else other(first))

    if k == 1:
        play_game(game(1), players, NAMES, io)
        return 0
    needed = (k + 1) // 2
    wins = {1: 0, 2: 0}
    number = 0
    while max(wins.values()) < needed:
        number += 1
        state = game(number)
        io.say(f"=== Game {number} (best of {k}): {NAMES[state.to_move - 1]} moves first ===", "")
        final = play_game(state, players, NAMES, io)
        assert final.winner is not None
        wins[final.winner] += 1
        io.say("", f"Score: {NAMES[0]} {wins[1]} – {wins[2]} {NAMES[1]}", "")
    champion = 1 if wins[1] > wins[2] else 2
    io.say(f"{NAMES[champion - 1]} wins the match, {max(wins.values())} – {min(wins.values())}!")
    return 0


# -- rules --------------------------------------------------------------------------


def configure_rules(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``duel-lessons rules``."""
    add_variant_arguments(parser, default=None)


def run_rules(args: argparse.Namespace, io: Console) -> int:
    """Print the rules of one book (or variant), or of every book."""
    if args.rules is None and not any(getattr(args, f) is not None for f in (*_VARIANT_FIELDS, "misere")):
        io.say("\n\n".join(r.describe() for r in RULEBOOKS.values()))
        return 0
    io.say(rules_from_args(args).describe())
    return 0


# -- main ---------------------------------------------------------------------------

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace, Console], int]

#: Subcommands: name -> (help, configure the parser, run).  Add ``solve`` and ``table`` here.
SUBCOMMANDS: dict[str, tuple[str, Configure, Run]] = {
    "play": ("play a game at the terminal (two people, hot seat)", configure_play, run_play),
    "rules": ("print the rules of one book or all of them", configure_rules, run_rules),
}

EPILOG = """\
examples:
  duel-lessons play                         play Divisor Duel from 60
  duel-lessons play number-factor           play book 004's Number Factor
  duel-lessons play --help                  all the options of play
  duel-lessons rules                        the rules of every book
  python -m duel_lessons rules factor-duel"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand in :data:`SUBCOMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="duel-lessons",
        description="Divisor Duel and its cousins at the terminal.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (summary, configure, _run) in SUBCOMMANDS.items():
        epilog = PLAY_EXAMPLES if name == "play" else None
        child = sub.add_parser(
            name, help=summary, description=summary, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        configure(child)
    return parser


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; return the exit status (0 ok, 1 input ended, 2 usage error, 130 Ctrl-C)."""
    io = Console(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    parser = build_parser()
    try:
        with redirect_stdout(io.stdout), redirect_stderr(io.stderr):
            args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    run = SUBCOMMANDS[args.command][2]
    try:
        return run(args, io)
    except DuelError as error:
        io.warn(f"duel-lessons: error: {error}")
        return 2
    except EOFError:
        io.say("")
        io.warn("Input ended; game abandoned.")
        return 1
    except KeyboardInterrupt:
        io.say("")
        io.warn("Interrupted; game abandoned.")
        return 130
    except BrokenPipeError:  # e.g. `duel-lessons rules | head -3`
        if io.stdout is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
