"""The terminal game and solver: ``duel-lessons play``, ``rules``, ``solve`` and ``table``.

The game prints the pieces of :mod:`duel_lessons.engine.transcript`, so a session
reads exactly like the rule book's own command-line transcript.  Players are
pluggable: a :data:`Strategy` is any callable ``(GameState) -> int``; ``None``
stands for a human at the console.  Subcommands live in :data:`SUBCOMMANDS`
(name -> (help, configure, run)); the custom-variant flags are shared through
:func:`add_variant_arguments` and :func:`rules_from_args`.  Computer opponents
come from :mod:`duel_lessons.play.players`, hints from :mod:`duel_lessons.play.coach` and
``solve`` / ``table`` from :mod:`duel_lessons.play.analysis` and :mod:`duel_lessons.solving.tables`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO, get_args

import numpy as np

from duel_lessons.cli.lessons import add_lesson_commands
from duel_lessons.cli.sum_play import make_sum_player, play_sum
from duel_lessons.engine.game import GameState, IllegalMoveError, new_game, other
from duel_lessons.engine.rules import (
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
from duel_lessons.engine.transcript import Names, end_lines, event_lines, opening_lines, prompt, turn_lines
from duel_lessons.play import coach
from duel_lessons.play.analysis import analyse
from duel_lessons.play.players import LEVELS, make_player
from duel_lessons.play.sums import new_sum
from duel_lessons.solving.tables import TABLE_LIMIT, Table, TableTooLargeError, tabulate
from duel_lessons.teaching import printables
from duel_lessons.teaching.student_copies import answer_key, write_student_copies

#: A computer player: given the position, return the divisor to play.
Strategy = Callable[[GameState], int]

#: Typed input longer than this is refused without trying to read it as a number.
MAX_INPUT = 1000

#: The largest range ``--random-start`` searches exhaustively; larger ranges are sampled.
_SCAN_LIMIT = 10_000
_SAMPLES = 1_000

NAMES: Names = ("Player 1", "Player 2")
#: The names in a game against the computer (the human is Player 1, the computer Player 2).
COMPUTER_NAMES: Names = ("Player 1", "Computer")

#: What typed words the coach answers at the prompt: none, ``hint`` / ``?``, or those and ``explain``.
HintMode = Literal["off", "hint", "coach"]
HINT_WORDS = ("hint", "?")
EXPLAIN_WORDS = ("explain",)

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


def coach_reply(word: str, state: GameState, names: Names, hints: HintMode) -> str:
    """The coach's answer to ``hint``, ``?`` or ``explain`` typed at the prompt."""
    if hints == "off":
        return "The coach is not in this game. Play with --vs computer --level coach for hints and explanations."
    if word in EXPLAIN_WORDS and hints != "coach":
        return "Only hints here (type hint or ?). Play with --vs computer --level coach for full explanations."
    try:
        if word in EXPLAIN_WORDS:
            text = coach.explain(state, names).removeprefix(f"{names[state.to_move - 1]} to move from {state.number}. ")
            return f"Coach: {text}"
        return f"Coach: {coach.hint(state, names)}"
    except DuelError as error:
        return f"The coach cannot help here: {error}"


def ask_human(state: GameState, names: Names, io: Console, hints: HintMode = "off") -> GameState:
    """Ask the player to move until the answer is a move; return the new state.

    Typing ``hint`` or ``?`` (or ``explain``) asks the coach instead, as ``hints`` allows.
    """
    while True:
        text = io.ask(prompt(state, names))
        word = text.strip().lower()
        if word in HINT_WORDS + EXPLAIN_WORDS:
            io.say(coach_reply(word, state, names, hints))
            continue
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
    *,
    hints: HintMode = "off",
    announce: bool = False,
) -> GameState:
    """Play ``state`` to the end, printing it in the book's words; return the final state.

    ``players[1]`` and ``players[2]`` are strategies, or None for a human at the console.
    A player with no legal move passes automatically when the rules say so.  A
    strategy's move is printed like a typed answer, or, with ``announce``, as a
    line "Computer chooses 15." before the book's words.  ``hints`` says what the
    coach answers when a human types ``hint``, ``?`` or ``explain``.
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
                state = ask_human(state, names, io, hints)
            else:
                value = strategy(state)
                if announce:
                    io.say(f"{names[state.to_move - 1]} chooses {value}.")
                else:
                    io.say(prompt(state, names) + str(value))
                state = state.attempt(value)
        last = state.history[-1]
        computer_moved = announce and players.get(last.player) is not None
        you = names[last.player - 1] if computer_moved else "You"
        io.say(*event_lines(last, rules, names, you=you), "")
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
OPPONENTS: dict[str, Callable[[argparse.Namespace], Strategy | None]] = {
    "human": lambda args: None,
    "computer": lambda args: make_player(args.level or DEFAULT_LEVEL, args.seed),
}

#: The computer's level when --level is not given.
DEFAULT_LEVEL = "perfect"

PLAY_EXAMPLES = """\
examples:
  duel-lessons play                              Divisor Duel from 60 (book 000)
  duel-lessons play number-factor --start 30     book 004, with passes
  duel-lessons play divisor-duel --random-start 10 50 --seed 7
  duel-lessons play division-duel --best-of 5    match play (book 001)
  duel-lessons play divisor-duel --divisors even --start 24
  printf '15\\n15\\n15\\n5\\n5\\n' | duel-lessons play --start 60
  duel-lessons play --vs computer --level coach  you against the coach
  duel-lessons play factor-duel --vs computer --level random --computer-first
  duel-lessons play --sum 12 18 30               a sum of games; type a move as "2 6"
  duel-lessons play --sum 12 division-duel:18 30 components may name their books

Against the computer (--vs computer) you are Player 1 and the computer
is Player 2 ("Computer"). You move first unless --first 2 or --computer-first.
Levels: random (any legal divisor), greedy (the largest divisor), perfect
(always wins from a winning position, as fast as it can) and coach (plays like
perfect and answers questions).  --seed also seeds the random level.

Help at the prompt: type hint or ? for a nudge towards the right idea (in
two-player games and against --level coach), or explain against --level coach
for the full explanation of the position, from the proved closed form.

Custom variants: any RULES changed by the flags above, for example
--divisors even (even divisors only) or --misere (the last player to move loses).

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
    parser.add_argument("--first", choices=("1", "2", "random"), help="who moves first (default: 1)")
    parser.add_argument(
        "--best-of",
        type=int,
        default=1,
        metavar="K",
        help="match play: first to (K+1)//2 wins; the first mover alternates",
    )
    parser.add_argument("--seed", type=int, help="seed for --random-start and --first random")
    parser.add_argument("--vs", choices=tuple(OPPONENTS), default="human", help="who plays Player 2 (default: human)")
    parser.add_argument(
        "--level", choices=tuple(LEVELS), help=f"the computer's strength with --vs computer (default: {DEFAULT_LEVEL})"
    )
    parser.add_argument(
        "--computer-first", action="store_true", help="with --vs computer: the computer moves first (same as --first 2)"
    )
    parser.add_argument(
        "--sum", nargs="+", metavar="N", help="play a sum of games on several numbers; RULES:N names a component's book"
    )


def run_play(args: argparse.Namespace, io: Console) -> int:
    """Play one game or a match; 0 when it is over."""
    if args.sum is not None:
        return run_play_sum(args, io)
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
    computer, first = opponent_and_first(args, rng)
    players = {1: None, 2: OPPONENTS[args.vs](args)}
    names = COMPUTER_NAMES if computer else NAMES
    hints: HintMode = "hint" if args.vs == "human" else "off"
    if computer and (args.level or DEFAULT_LEVEL) == "coach":
        hints = "coach"

    def game(number: int) -> GameState:
        n = random_start(rules, *bounds, rng) if bounds is not None else start
        return new_game(rules, n, first if number % 2 == 1 else other(first))

    def play(state: GameState) -> GameState:
        return play_game(state, players, names, io, hints=hints, announce=computer)

    if k == 1:
        play(game(1))
        return 0
    needed = (k + 1) // 2
    wins = {1: 0, 2: 0}
    number = 0
    while max(wins.values()) < needed:
        number += 1
        state = game(number)
        io.say(f"=== Game {number} (best of {k}): {names[state.to_move - 1]} moves first ===", "")
        final = play(state)
        assert final.winner is not None
        wins[final.winner] += 1
        io.say("", f"Score: {names[0]} {wins[1]} – {wins[2]} {names[1]}", "")
    champion = 1 if wins[1] > wins[2] else 2
    io.say(f"{names[champion - 1]} wins the match, {max(wins.values())} – {min(wins.values())}!")
    return 0


def opponent_and_first(args: argparse.Namespace, rng: random.Random) -> tuple[bool, int]:
    """Whether ``play`` is against the computer, and who moves first (checking the flags agree)."""
    computer = args.vs == "computer"
    if not computer and (args.level is not None or args.computer_first):
        raise DuelError("--level and --computer-first need --vs computer (a game against the computer).")
    if args.computer_first and args.first not in (None, "2"):
        raise DuelError(f"--computer-first means --first 2, so it cannot go with --first {args.first}.")
    choice = "2" if args.computer_first else args.first or "1"
    return computer, rng.choice((1, 2)) if choice == "random" else int(choice)


def run_play_sum(args: argparse.Namespace, io: Console) -> int:
    """``play --sum``: one game on several numbers at once (see :mod:`duel_lessons.cli.sum_play`)."""
    if args.start is not None or args.random_start is not None or args.best_of != 1:
        raise DuelError("--sum gives the numbers itself: it cannot go with --start, --random-start or --best-of.")
    computer, first = opponent_and_first(args, random.Random(args.seed))
    state = new_sum(args.sum, rules_from_args(args), first)
    level = args.level or DEFAULT_LEVEL
    players = {1: None, 2: make_sum_player(level, args.seed) if computer else None}
    play_sum(state, players, COMPUTER_NAMES if computer else NAMES, io, hints=not computer or level == "coach")
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


# -- solve --------------------------------------------------------------------------

SOLVE_EXAMPLES = """\
examples:
  duel-lessons solve divisor-duel 60             who wins from 60, how, and why
  duel-lessons solve factor-duel 1000000000000000000
  duel-lessons solve divisor-duel 24 --divisors even
  duel-lessons solve divisor-duel 30 --misere --json

The player to move from N is Player 1.  Outcome P: the player to move loses with
best play; N: the player to move wins.  Remoteness is the number of moves left
with best play (the winner hurries, the loser delays); it and the Grundy value
come from the solver's table up to N = 10^6 (a proved Grundy formula is used
above that where one exists).  Games with a proved closed form are solved
instantly up to 10^18; other variants are computed, up to N = 10^7."""


def configure_solve(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``duel-lessons solve``."""
    add_variant_arguments(parser)
    parser.add_argument("n", metavar="N", help="the position: a whole number from 1 to 10^18")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")


def _position_arg(text: str) -> int:
    """The N of ``solve``, read from the command line."""
    if get_rules_name(text) is not None:
        raise DuelError(f"Give the number N after the rules, for example: duel-lessons solve {text} 60.")
    return _whole_arg(text, "number N")


def get_rules_name(text: str) -> str | None:
    """The rule book that ``text`` names, or None."""
    try:
        return get_rules(text).name
    except DuelError:
        return None


def run_solve(args: argparse.Namespace, io: Console) -> int:
    """Print who wins from N, the winning moves, remoteness, Grundy value and why."""
    rules = rules_from_args(args)
    analysis = analyse(rules, _position_arg(args.n))
    if args.json:
        io.say(json.dumps(analysis.to_dict(), indent=2, ensure_ascii=False))
    else:
        io.stdout.write(analysis.to_text())
        io.stdout.flush()
    return 0


# -- table --------------------------------------------------------------------------

TABLE_EXAMPLES = f"""\
examples:
  duel-lessons table divisor-duel --upto 20
  duel-lessons table factor-duel --from 90 --upto 110 --format csv
  duel-lessons table number-factor --upto 1000 --format json --output nf.json
  duel-lessons table divisor-duel --divisors odd --upto 100000 --format csv --output odd.csv

Columns: n, outcome (P: the player to move loses; N: wins), grundy (the
Sprague–Grundy value; -1 in misère play, which has none), remoteness (moves left
with best play) and winning_moves (space-separated in CSV, a list in JSON).
The CSV header is exactly n,outcome,grundy,remoteness,winning_moves.
--upto may be at most {TABLE_LIMIT:,}; rows are written as they are computed."""

_CHUNK_ROWS = 10_000
_HEADER = ("n", "outcome", "grundy", "remoteness", "winning_moves")


def configure_table(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``duel-lessons table``."""
    add_variant_arguments(parser)
    parser.add_argument("--upto", metavar="N", required=True, help=f"the last n (at most {TABLE_LIMIT:,})")
    parser.add_argument("--from", dest="lo", metavar="M", default="1", help="the first n (default: 1)")
    parser.add_argument(
        "--format", choices=("text", "csv", "json"), default="text", help="output format (default: text)"
    )
    parser.add_argument("--output", metavar="FILE", help="write the table to FILE instead of the screen")


def table_range(lo_text: str, hi_text: str) -> tuple[int, int]:
    """The checked range (from, upto) of ``duel-lessons table``."""
    hi = _whole_arg(hi_text, "--upto value")
    lo = _whole_arg(lo_text, "--from value")
    if hi < 1:
        raise DuelError(f"--upto must be at least 1, not {hi}.")
    if hi > TABLE_LIMIT:
        raise TableTooLargeError(
            f"--upto {hi:,} is too large: the solver's tables stop at {TABLE_LIMIT:,} numbers. "
            f"For a single bigger number, use duel-lessons solve RULES N (instant up to 10^18 for the books)."
        )
    if lo < 1:
        raise DuelError(f"--from must be at least 1, not {lo}.")
    if lo > hi:
        raise DuelError(f"--from {lo} is larger than --upto {hi}: the range is empty.")
    return lo, hi


def _text_cells(row: dict[str, Any]) -> tuple[str, ...]:
    moves = " ".join(map(str, row["winning_moves"]))
    return str(row["n"]), row["outcome"], str(row["grundy"]), str(row["remoteness"]), moves


def table_lines(table: Table, lo: int, hi: int, fmt: str) -> Iterator[str]:
    """The table's rows lo..hi as lines of text, CSV or JSON (each ending in a newline), computed lazily.

    The CSV and JSON are exactly :meth:`Table.to_csv` and :meth:`Table.to_json` (plus a
    final newline); the text is :meth:`Table.to_text` under a title line.
    """
    rows = table.rows(lo, hi)
    if fmt == "csv":
        yield ",".join(_HEADER) + "\n"
        for r in rows:
            yield ",".join(_text_cells(r)) + "\n"
        return
    if fmt == "json":
        for i, r in enumerate(rows):
            yield ("[" if i == 0 else ", ") + json.dumps(r)
        yield "]\n"
        return
    p = int(np.count_nonzero(table.outcome[lo : hi + 1] == 0))
    title = f"{table.rules.title} ({table.rules.name})"
    yield f"{title}, n = {lo} .. {hi}: {p} P-positions, {hi - lo + 1 - p} N-positions\n"
    yield "\n"
    widths = [
        max(len("n"), len(str(hi))),
        len("outcome"),
        max(len("grundy"), *(len(str(int(f(table.grundy[lo : hi + 1])))) for f in (np.min, np.max))),
        max(len("remoteness"), len(str(int(np.max(table.remoteness[lo : hi + 1]))))),
    ]
    header = ("n", "outcome", "grundy", "remoteness", "winning moves")
    for cells in itertools.chain([header], map(_text_cells, rows)):
        line = "  ".join(c.rjust(w) for c, w in zip(cells[:4], widths, strict=True)) + "  " + cells[4]
        yield line.rstrip() + "\n"


def run_table(args: argparse.Namespace, io: Console) -> int:
    """Write the table of outcomes, Grundy values, remoteness and winning moves."""
    rules = rules_from_args(args)
    lo, hi = table_range(args.lo, args.upto)
    table = tabulate(rules, hi)
    if args.output is None:
        _write_chunked(table_lines(table, lo, hi, args.format), io.stdout)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8", newline="") as file:
            _write_chunked(table_lines(table, lo, hi, args.format), file)
    except OSError as error:
        raise DuelError(f"Cannot write the table to {args.output!r}: {error.strerror or error}.") from None
    io.say(f"Wrote {hi - lo + 1:,} rows of {rules.title} (n = {lo} .. {hi}) as {args.format} to {args.output}.")
    return 0


def _write_chunked(lines: Iterator[str], out: TextIO) -> None:
    while chunk := list(itertools.islice(lines, _CHUNK_ROWS)):
        out.write("".join(chunk))
    out.flush()


# -- student copies -----------------------------------------------------------------


def configure_student_copies(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``student-copies``."""
    parser.add_argument("src", metavar="SRC", help="a folder of lessons (or one notebook)")
    parser.add_argument("dest", metavar="DEST", help="the folder to write the student copies into")


def run_student_copies(args: argparse.Namespace, io: Console) -> int:
    """Write copies of the lessons without solutions and teacher notes."""
    try:
        written = write_student_copies(args.src, args.dest)
    except (OSError, ValueError) as error:
        raise DuelError(str(error)) from None
    for path in written:
        io.say(f"Wrote {path}")
    io.say(f"{len(written)} student copies: solutions and teacher notes removed, exercises and checks kept.")
    return 0


def configure_answer_key(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``answer-key``."""
    parser.add_argument("src", metavar="SRC", help="a folder of lessons (or one notebook)")


def run_answer_key(args: argparse.Namespace, io: Console) -> int:
    """Print every exercise with its solution, as markdown."""
    if not Path(args.src).exists():
        raise DuelError(f"{args.src} does not exist.")
    io.stdout.write(answer_key(args.src))
    return 0


# -- main ---------------------------------------------------------------------------

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace, Console], int]

#: Subcommands: name -> (help, configure the parser, run).
SUBCOMMANDS: dict[str, tuple[str, Configure, Run]] = {
    "play": ("play a game at the terminal (two people, or against the computer)", configure_play, run_play),
    "rules": ("print the rules of one book or all of them", configure_rules, run_rules),
    "solve": ("who wins from N: winning moves, remoteness, Grundy value and why", configure_solve, run_solve),
    "table": ("a table of outcomes for n up to N, as text, CSV or JSON", configure_table, run_table),
    "student-copies": (
        "copy the lessons without solutions and teacher notes",
        configure_student_copies,
        run_student_copies,
    ),
    "answer-key": (
        "print every exercise of the lessons with its solution (markdown)",
        configure_answer_key,
        run_answer_key,
    ),
    "printables": ("write classroom PDFs: grids, rule cards, exit tickets", printables.configure, printables.run),
}
add_lesson_commands(SUBCOMMANDS)  # lessons, student-repo; packaged lessons as the default SRC

#: The examples shown by ``duel-lessons COMMAND --help``.
EXAMPLES: dict[str, str] = {"play": PLAY_EXAMPLES, "solve": SOLVE_EXAMPLES, "table": TABLE_EXAMPLES}

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
--divisors even, --misere or --allow-one (see duel-lessons play --help)."""


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
        epilog = EXAMPLES.get(name)
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
