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
from duel_lessons.engine.game import play_out
from duel_lessons.engine.numbers import read_number
from duel_lessons.play.sum_players import RandomSumPlayer, SumStrategy, greedy_sum_player, make_sum_player
from duel_lessons.play.sums import SumMove, SumState, hint, new_sum, sum_grundy

__all__ = [  # the sum players live in play.sum_players; named here too for older imports
    "RandomSumPlayer",
    "SumStrategy",
    "greedy_sum_player",
    "make_sum_player",
    "play_sum",
    "run_play_sum",
]

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

    def __call__(self, state: SumState) -> SumMove:
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
                return index, divisor


@dataclass
class SumComputer:
    """A computer strategy for sums whose choice is announced."""

    strategy: SumStrategy
    io: Console
    names: tuple[str, str]

    def __call__(self, state: SumState) -> SumMove:
        index, divisor = self.strategy(state)
        self.io.say(f"{self.names[state.to_move - 1]} chooses {index + 1} {divisor}.")
        return index, divisor


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
    strategies: dict[int, Callable[[SumState], SumMove]] = {}
    for p in (1, 2):
        strategy = players.get(p)
        strategies[p] = SumKeyboardPlayer(io, names, hints) if strategy is None else SumComputer(strategy, io, names)

    def show(new: SumState) -> None:
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
    final = play_out(state, strategies, on_event=show)
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
