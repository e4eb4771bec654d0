"""Playing a sum of games at the terminal: ``duel-lessons play --sum 12 division-duel:18 30``.

A move is typed as two whole numbers, the component (counted from 1) and the
divisor, e.g. ``2 6``; each is read by :func:`~duel_lessons.engine.numbers.read_number`.
``hint`` or ``?`` explains the XOR rule for the position (in two-player games and
against ``--level coach``).  The game is played by
:func:`~duel_lessons.engine.game.play_out`, like every other game.

>>> import io
>>> from duel_lessons.cli.console import Console
>>> end = play_sum(new_sum([4, 6]), {1: None, 2: None}, io=Console(io.StringIO("1 2\\n2 3\\n"), io.StringIO()))
>>> end.numbers, end.winner
((2, 3), 2)
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from duel_lessons.cli.console import Console
from duel_lessons.cli.options import (
    COMPUTER_NAMES,
    DEFAULT_LEVEL,
    NAMES,
    opponent_and_first,
    rules_from_args,
)
from duel_lessons.engine.errors import DuelError, IllegalMoveError, NumberInputError
from duel_lessons.engine.game import Player, play_out
from duel_lessons.engine.numbers import read_number
from duel_lessons.play.sums import PerfectSumPlayer, SumMove, SumState, hint, new_sum, sum_grundy

SumStrategy = Callable[[SumState], SumMove]


@dataclass
class RandomSumPlayer:
    """Plays a uniformly random legal move (seeded)."""

    seed: int | None = None

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def __call__(self, state: SumState) -> SumMove:
        return self._rng.choice(state.legal_moves)


def greedy_sum_player(state: SumState) -> SumMove:
    """Plays the largest divisor anywhere (the first component on ties)."""
    return max(state.legal_moves, key=lambda move: (move[1], -move[0]))


def make_sum_player(level: str, seed: int | None = None) -> SumStrategy:
    """A computer player for sums: "random", "greedy", "perfect" or "coach" (plays perfectly)."""
    if level == "random":
        return RandomSumPlayer(seed)
    if level == "greedy":
        return greedy_sum_player
    if level in ("perfect", "coach"):
        return PerfectSumPlayer()
    raise DuelError(f"Unknown player level {level!r} for sums. Known: random, greedy, perfect, coach.")


# -- SumState as a position for play_out ------------------------------------------------
# TEMPORARY adapter until SumState itself has must_pass / pass_turn / attempt (helper core):
# a move is handed to play_out as its place in ``state.legal_moves``.


@dataclass(frozen=True)
class SumPosition:
    """A :class:`SumState` as a :class:`~duel_lessons.engine.game.Position`; a move is its index in legal_moves."""

    state: SumState

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def to_move(self) -> Player:
        return self.state.to_move

    @property
    def must_pass(self) -> bool:
        return False  # a stuck component is finished; a sum has no passes

    def pass_turn(self) -> SumPosition:
        raise IllegalMoveError("pass", 0, "a sum of games has no passes")

    def attempt(self, value: int) -> SumPosition:
        moves = self.state.legal_moves
        if not 0 <= value < len(moves):
            raise IllegalMoveError(value, 0, "not a legal move in this sum")
        return SumPosition(self.state.play(*moves[value]))


# -- typed moves ---------------------------------------------------------------------------


def parse_sum_move(text: str, state: SumState) -> SumMove:
    """Typed "COMPONENT DIVISOR" (component from 1) as an (index, divisor) move; NumberInputError with a reason."""
    count = len(state.components)
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    try:
        if len(parts) != 2:
            raise NumberInputError("not two numbers")
        component, divisor = read_number(parts[0], "a component"), read_number(parts[1], "a divisor")
    except NumberInputError:
        typed = text.strip()
        shown = typed if len(typed) <= 40 else typed[:40] + "..."
        raise NumberInputError(
            f"{shown!r} is not a move. Type two whole numbers: the component (1 to {count}) and a divisor, such as 1 2."
        ) from None
    if not 1 <= component <= count:
        raise NumberInputError(f"There is no component {component}: choose a component from 1 to {count}.")
    return component - 1, divisor


def board_lines(state: SumState) -> list[str]:
    """One line per component: number, game and allowed divisors."""
    width = max(len(r.title) for r, _ in state.components)
    lines = []
    for i, (rules, n) in enumerate(state.components):
        moves = state.game(i).legal_moves
        allowed = "divisors " + ", ".join(map(str, moves)) if moves else "no moves left"
        lines.append(f"  {i + 1}. {rules.title:<{width}}  {n:>6}   {allowed}")
    return lines


def coach_words(state: SumState) -> str:
    """The XOR hint, or why the coach cannot give one (a Grundy value beyond every table and formula)."""
    try:
        return f"Coach: {hint(state)}"
    except DuelError as error:
        return f"The coach cannot help here: {error}"


@dataclass
class SumKeyboardPlayer:
    """A person choosing a move in a sum at the keyboard; asks again until it is legal."""

    io: Console
    names: tuple[str, str]
    hints: bool

    def __call__(self, position: SumPosition) -> int:
        state = position.state
        while True:
            text = self.io.ask(f"{self.names[state.to_move - 1]}, choose a component and a divisor: ")
            if text.strip().lower() in ("hint", "?"):
                self.io.say(
                    coach_words(state)
                    if self.hints
                    else "The coach is not in this game. Play with --vs computer --level coach for hints."
                )
                continue
            try:
                index, divisor = parse_sum_move(text, state)
                state.play(index, divisor)  # raises SumMoveError with the reason
            except IllegalMoveError as error:
                self.io.say(f"{error} Try again.")
            except NumberInputError as error:
                self.io.say(str(error))
            else:
                return state.legal_moves.index((index, divisor))


@dataclass
class SumComputer:
    """A computer strategy for sums whose choice is announced."""

    strategy: SumStrategy
    io: Console
    names: tuple[str, str]

    def __call__(self, position: SumPosition) -> int:
        state = position.state
        index, divisor = self.strategy(state)
        self.io.say(f"{self.names[state.to_move - 1]} chooses {index + 1} {divisor}.")
        return state.legal_moves.index((index, divisor))


def play_sum(
    state: SumState,
    players: dict[int, SumStrategy | None],
    names: tuple[str, str] = NAMES,
    io: Console | None = None,
    hints: bool = False,
) -> SumState:
    """Play a sum to the end at the console (None in ``players`` is a person); return the final state."""
    io = io or Console()
    if any(players.get(p) is not None for p in (1, 2)):
        sum_grundy(state)  # a computer needs every Grundy value: fail now, with the reason, not mid-game
    io.say(
        "Sum of games: " + " + ".join(f"{n} ({r.title})" for r, n in state.components),
        'On your turn choose one component and a divisor, such as "1 2". '
        "The player with no move in any component loses.",
        "",
    )
    strategies: dict[int, Callable[[SumPosition], int]] = {}
    for p in (1, 2):
        strategy = players.get(p)
        strategies[p] = SumKeyboardPlayer(io, names, hints) if strategy is None else SumComputer(strategy, io, names)

    def show(position: SumPosition) -> None:
        new = position.state
        event = new.history[-1]
        op = "-" if new.components[event.index][0].move == "subtract" else "÷"
        io.say(
            f"{names[event.player - 1]} plays {event.divisor} in component {event.index + 1}: "
            f"{event.before} {op} {event.divisor} = {event.after}.",
            "",
        )
        if not new.is_over:
            io.say(*board_lines(new), f"{names[new.to_move - 1]}'s turn.")

    if not state.is_over:
        io.say(*board_lines(state), f"{names[state.to_move - 1]}'s turn.")
    final = play_out(SumPosition(state), strategies, on_event=show).state
    assert final.winner is not None
    io.say(
        "Now: " + " + ".join(map(str, final.numbers)) + ".",
        f"{names[final.to_move - 1]} has no move in any component. {names[final.winner - 1]} wins!",
    )
    return final


def run_play_sum(args: argparse.Namespace, io: Console) -> int:
    """``play --sum``: one game on several numbers at once."""
    if args.start is not None or args.random_start is not None or args.best_of != 1:
        raise DuelError("--sum gives the numbers itself: it cannot go with --start, --random-start or --best-of.")
    computer, first = opponent_and_first(args, random.Random(args.seed))
    state = new_sum(args.sum, rules_from_args(args), first)
    level = args.level or DEFAULT_LEVEL
    players = {1: None, 2: make_sum_player(level, args.seed) if computer else None}
    play_sum(state, players, COMPUTER_NAMES if computer else NAMES, io, hints=not computer or level == "coach")
    return 0
