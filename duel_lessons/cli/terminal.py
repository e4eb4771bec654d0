"""The game at the keyboard: ``duel-lessons play``.

Every game here, two people at one keyboard, a person against the computer, and
best-of matches, is played by :func:`duel_lessons.engine.game.play_out`.  A person is
one more strategy, :class:`KeyboardPlayer`: it reads a line with
:func:`~duel_lessons.engine.numbers.read_number` and asks again after a slip (text
that is not a whole number) or, in books whose invalid moves are asked again, an
illegal divisor.  In books where an invalid move loses the turn (Number Factor) it
hands the value to ``play_out``, which applies the book's rule.  The game is printed
in the rule book's own words (:mod:`duel_lessons.engine.transcript`).

If input ends or the player presses Ctrl-C, :class:`GameAbandoned` says where the
game stood, so nothing is lost: the same command with ``--start N --first P`` goes on.

>>> import io
>>> out = io.StringIO()
>>> console = Console(io.StringIO("3\\n"), out)
>>> end = play_game(new_game("divisor-duel", 6), {1: None, 2: lambda s: s.legal_moves[0]}, io=console)
>>> end.history[0].divisor, end.winner
(3, 1)
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, cast

from duel_lessons.cli.console import Console, isatty
from duel_lessons.cli.options import (
    COMPUTER_NAMES,
    DEFAULT_LEVEL,
    NAMES,
    QUICK_TABLE,
    Subparsers,
    add_variant_arguments,
    opponent_and_first,
    rules_from_args,
    whole_arg,
    whole_type,
)
from duel_lessons.cli.sum_play import run_play_sum
from duel_lessons.engine.errors import DuelError, NumberInputError, TooBigError
from duel_lessons.engine.game import GameState, IllegalMoveError, new_game, other, play_out
from duel_lessons.engine.numbers import read_number
from duel_lessons.engine.starts import random_start
from duel_lessons.engine.transcript import Names, end_lines, event_lines, opening_lines, prompt, turn_lines
from duel_lessons.play import coach
from duel_lessons.play.players import LEVELS, make_player
from duel_lessons.solving.oracle import oracle
from duel_lessons.solving.tables import TABLE_LIMIT

#: A computer player: given the position, return the divisor to play.
Strategy = Callable[[GameState], int]

#: What typed words the coach answers at the prompt: none, ``hint`` / ``?``, or those and ``explain``.
HintMode = Literal["off", "hint", "coach"]
HINT_WORDS = ("hint", "?")
EXPLAIN_WORDS = ("explain",)

#: Answers in a row that are not a move, from piped input, before the input counts as ended (no endless loop).
MAX_SLIPS = 1000

#: Levels that need to know who wins from every position (the oracle); the others only need the legal moves.
ORACLE_LEVELS = frozenset({"perfect", "coach"})


class GameAbandoned(Exception):
    """Input ended (or Ctrl-C) during a game; ``state`` is where the game stood."""

    def __init__(self, state: GameState, names: Names, interrupted: bool, resumable: bool = True) -> None:
        self.state = state
        self.interrupted = interrupted
        where = f"{names[state.to_move - 1]} to move from {state.number}"
        why = "Interrupted" if interrupted else "Input ended"
        resume = ""
        if resumable and state.history and state.rules.start_problem(state.number) is None:
            resume = f" To go on, run the same command with --start {state.number} --first {state.to_move}."
        super().__init__(f"{why}; game abandoned ({where}).{resume}")


# -- the coach at the prompt --------------------------------------------------------


#: The most a hint says: in a two-player game a hint stops at a nudge; the coach also names the move.
LAST_STAGE: dict[HintMode, coach.Stage] = {"off": 1, "hint": 2, "coach": 3}


def coach_reply(word: str, state: GameState, names: Names, hints: HintMode, asked: int = 1) -> str:
    """The coach's answer to ``hint``, ``?`` or ``explain`` typed at the prompt.

    ``asked`` counts the hints asked for at this position: the first is a question, the
    second a nudge, the third (against the coach) the move (:func:`coach.hint`'s stages).
    """
    if hints == "off":
        return "The coach is not in this game. Play with --vs computer --level coach for hints and explanations."
    if word in EXPLAIN_WORDS and hints != "coach":
        return "Only hints here (type hint or ?). Play with --vs computer --level coach for full explanations."
    try:
        if word in EXPLAIN_WORDS:
            return f"Coach: {coach.explain(state, names)}"
        stage = cast(coach.Stage, max(1, min(asked, LAST_STAGE[hints])))
        return f"Coach: {coach.hint(state, names, stage)}"
    except ValueError as error:  # DuelError: e.g. a variant without a closed form above the solver's tables
        return f"The coach cannot help here: {error}"


# -- a person at the keyboard -----------------------------------------------------------


@dataclass
class KeyboardPlayer:
    """A person at the keyboard, as a strategy for :func:`~duel_lessons.engine.game.play_out`.

    Asks until the answer is a whole number; in books that ask again after an
    invalid move (``on_invalid="retry"``) also until it is a legal divisor.  Typing
    ``hint``, ``?`` or ``explain`` asks the coach instead, as ``hints`` allows.
    """

    io: Console
    names: Names = NAMES
    hints: HintMode = "off"

    def __call__(self, state: GameState) -> int:
        asked = 0  # hints asked for at this position: each one says more
        slips = 0
        while True:
            slips += 1
            if slips > MAX_SLIPS and not isatty(self.io.stdin):
                raise EOFError  # piped input that never gives a move (`yes | duel-lessons play`): it has ended
            text = self.io.ask(prompt(state, self.names))
            word = text.strip().lower()
            if word in HINT_WORDS + EXPLAIN_WORDS:
                asked += word in HINT_WORDS
                self.io.say(coach_reply(word, state, self.names, self.hints, asked))
                continue
            try:
                value = read_number(text, "a divisor")
            except NumberInputError as error:
                self.io.say(str(error))
                continue
            reason = state.check(value)
            if reason is None or state.rules.on_invalid == "lose-turn":
                return value  # play_out applies it, or the book's rule for an invalid move
            self.io.say(f"{IllegalMoveError(value, state.number, reason)} Try again.")


@dataclass
class ShownPlayer:
    """A computer strategy whose choice is printed: like a typed answer, or ``announce``d by name."""

    strategy: Strategy
    io: Console
    names: Names
    announce: bool

    def __call__(self, state: GameState) -> int:
        value = self.strategy(state)
        if self.announce:
            self.io.say(f"{self.names[state.to_move - 1]} chooses {value}.")
        else:
            self.io.say(prompt(state, self.names) + str(value))
        return value


def play_game(
    state: GameState,
    players: dict[int, Strategy | None],
    names: Names = NAMES,
    io: Console | None = None,
    *,
    hints: HintMode = "off",
    announce: bool = False,
    resumable: bool = True,
) -> GameState:
    """Play ``state`` to the end with :func:`play_out`, printing it in the book's words; return the final state.

    ``players[1]`` and ``players[2]`` are strategies, or None for a person at the console.
    A player with no legal move passes automatically when the rules say so.  A
    strategy's move is printed like a typed answer, or, with ``announce``, as a
    line "Computer chooses 15." before the book's words.  ``hints`` says what the
    coach answers when a person types ``hint``, ``?`` or ``explain``.  Raises
    :class:`GameAbandoned` (holding the last state) if input ends or on Ctrl-C; its message
    tells how to go on with ``--start N --first P`` when ``resumable``.
    """
    io = io or Console()
    rules = state.rules
    computers = {p for p in (1, 2) if players.get(p) is not None}
    strategies: dict[int, Callable[[GameState], int]] = {}
    for p in (1, 2):
        strategy = players.get(p)
        strategies[p] = (
            KeyboardPlayer(io, names, hints) if strategy is None else ShownPlayer(strategy, io, names, announce)
        )
    current = state

    def show(new: GameState) -> None:
        nonlocal current
        current = new
        last = new.history[-1]
        you = names[last.player - 1] if announce and last.player in computers else "You"
        io.say(*event_lines(last, rules, names, you=you), "")
        if not new.is_over:
            io.say(*turn_lines(new, names))

    opening = opening_lines(rules, state.number)
    if opening:
        io.say(*opening, "")
    if not state.is_over:
        io.say(*turn_lines(state, names))
    try:
        final = play_out(state, strategies, on_event=show)
    except EOFError:
        raise GameAbandoned(current, names, False, resumable) from None
    except KeyboardInterrupt:
        raise GameAbandoned(current, names, True, resumable) from None
    io.say(*end_lines(final, names))
    return final


# -- duel-lessons play --------------------------------------------------------------------

PLAY_HELP = "play a game at the terminal (two people, or against the computer)"

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
perfect and answers questions).  --seed also seeds the random level.  A start
that the perfect player or the coach cannot play (a variant without a proved
closed form above the solver's largest table) is refused before the game starts.

Help at the prompt: type hint or ? for a question about the position, again for
a nudge towards the right idea (in two-player games and against --level coach),
and against --level coach a third time for the move itself; explain (against
--level coach) gives the full explanation, from the proved closed form.

Custom variants: any RULES changed by the flags above, for example
--divisors even (even divisors only) or --misere (the last player to move loses).

Typed input must be a whole number written with the digits 0-9 (² ⑧ ١٢ １２ are
refused); anything else is asked again.  A whole number that is not an allowed
divisor is asked again, except in Number Factor, where it loses the turn (book
004).  With --best-of, the player who moves first alternates from game to game
(game 1 follows --first), and --random-start draws a new start for every game.
When input is piped, typed values are echoed.  If input ends (exit status 1) or
you press Ctrl-C (130), the last line says where the game stood and how to go on."""

#: Opponents for ``--vs``: a factory from the parsed arguments to Player 2's strategy.
OPPONENTS: dict[str, Callable[[argparse.Namespace], Strategy | None]] = {
    "human": lambda args: None,
    "computer": lambda args: make_player(args.level or DEFAULT_LEVEL, args.seed),
}


def add_parser(subparsers: Subparsers) -> None:
    """Add ``play``."""
    parser = subparsers.add_parser(
        "play",
        help=PLAY_HELP,
        description=PLAY_HELP,
        epilog=PLAY_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_variant_arguments(parser)
    starts = parser.add_mutually_exclusive_group()
    starts.add_argument("--start", metavar="N", help="the starting number (default: the book's)")
    starts.add_argument("--random-start", nargs=2, metavar=("LO", "HI"), help="a random legal start in LO..HI")
    parser.add_argument("--first", choices=("1", "2", "random"), help="who moves first (default: 1)")
    parser.add_argument(
        "--best-of",
        type=whole_type("--best-of value"),
        default=1,
        metavar="K",
        help="match play: first to (K+1)//2 wins; the first mover alternates",
    )
    parser.add_argument("--seed", type=whole_type("--seed value"), help="seed for --random-start and --first random")
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
    parser.set_defaults(func=run_play)


def check_computer_can_play(state: GameState, level: str, io: Console) -> None:
    """Refuse, before the game starts, a start that a computer of this level cannot play (TooBigError)."""
    if level not in ORACLE_LEVELS:
        return
    rules, n = state.rules, state.number
    if oracle(rules).above_table is None and QUICK_TABLE < n <= TABLE_LIMIT:
        io.warn(f"Building the computer's table up to {n:,} (several seconds)...")
    if not oracle(rules).can_answer(n):
        raise TooBigError(
            f"The computer ({level}) cannot play {rules.title} ({rules.name}) from {n:,}: there is no proved "
            f"closed form, and {n:,} is above the largest table the solver builds ({TABLE_LIMIT:,}). "
            f"Choose a smaller start, or --level random or greedy."
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
        bounds = (whole_arg(args.random_start[0], "LO"), whole_arg(args.random_start[1], "HI"))
    elif args.start is not None:
        start = whole_arg(args.start, "start")
    computer, first = opponent_and_first(args, rng)
    level = args.level or DEFAULT_LEVEL
    players = {1: None, 2: OPPONENTS[args.vs](args)}
    names = COMPUTER_NAMES if computer else NAMES
    hints: HintMode = "hint" if args.vs == "human" else "off"
    if computer and level == "coach":
        hints = "coach"

    def game(number: int) -> GameState:
        n = random_start(rules, *bounds, rng) if bounds is not None else start
        state = new_game(rules, n, first if number % 2 == 1 else other(first))
        if computer:
            check_computer_can_play(state, level, io)
        return state

    # The same command with --start N --first P goes on from where a game stopped (not a match, not a random start).
    resumable = k == 1 and bounds is None and not args.computer_first

    def play(state: GameState) -> GameState:
        return play_game(state, players, names, io, hints=hints, announce=computer, resumable=resumable)

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
