"""Playing a sum of games at the terminal: ``duel-lessons play --sum 12 division-duel:18 30``.

A move is typed as two whole numbers, the component (counted from 1) and the
divisor, e.g. ``2 6``.  ``hint`` or ``?`` explains the XOR rule for the
position (in two-player games and against ``--level coach``).  The console is
any object with ``say(*lines)`` and ``ask(prompt)``, such as :class:`duel_lessons.cli.main.Console`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from duel_lessons.engine.game import IllegalMoveError
from duel_lessons.engine.rules import DuelError
from duel_lessons.play.sums import PerfectSumPlayer, SumMove, SumState, hint, sum_grundy

SumStrategy = Callable[[SumState], SumMove]

_MOVE = re.compile(r"\s*([+-]?[0-9]+)[\s,]+([+-]?[0-9]+)\s*", re.ASCII)


class SumConsole(Protocol):
    """What the sum game needs from a console."""

    def say(self, *lines: str) -> None: ...

    def ask(self, question: str) -> str: ...


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


def parse_sum_move(text: str, state: SumState) -> SumMove:
    """Typed "COMPONENT DIVISOR" (component from 1) as an (index, divisor) move; ValueError with a reason."""
    count = len(state.components)
    found = _MOVE.fullmatch(text)
    if not found:
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "..."
        raise ValueError(
            f"{shown!r} is not a move. Type two whole numbers: the component (1 to {count}) and a divisor, such as 1 2."
        )
    component, divisor = int(found.group(1)), int(found.group(2))
    if not 1 <= component <= count:
        raise ValueError(f"There is no component {component}: choose a component from 1 to {count}.")
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


def ask_sum_move(state: SumState, names: tuple[str, str], io: SumConsole, hints: bool) -> SumState:
    """Ask the player to move until the answer is legal; return the new state."""
    while True:
        text = io.ask(f"{names[state.to_move - 1]}, choose a component and a divisor: ")
        if text.strip().lower() in ("hint", "?"):
            io.say(
                coach_words(state)
                if hints
                else "The coach is not in this game. Play with --vs computer --level coach for hints."
            )
            continue
        try:
            index, divisor = parse_sum_move(text, state)
            return state.play(index, divisor)
        except IllegalMoveError as error:
            io.say(f"{error} Try again.")
        except ValueError as error:
            io.say(str(error))


def play_sum(
    state: SumState,
    players: dict[int, SumStrategy | None],
    names: tuple[str, str] = ("Player 1", "Player 2"),
    io: SumConsole | None = None,
    hints: bool = False,
) -> SumState:
    """Play a sum to the end at the console (None in ``players`` is a human); return the final state."""
    if io is None:
        from duel_lessons.cli.main import Console

        io = Console()
    if any(players.get(p) is not None for p in (1, 2)):
        sum_grundy(state)  # a computer needs every Grundy value: fail now, with the reason, not mid-game
    io.say(
        "Sum of games: " + " + ".join(f"{n} ({r.title})" for r, n in state.components),
        'On your turn choose one component and a divisor, such as "1 2". '
        "The player with no move in any component loses.",
        "",
    )
    while not state.is_over:
        io.say(*board_lines(state), f"{names[state.to_move - 1]}'s turn.")
        strategy = players.get(state.to_move)
        if strategy is None:
            state = ask_sum_move(state, names, io, hints)
        else:
            index, divisor = strategy(state)
            io.say(f"{names[state.to_move - 1]} chooses {index + 1} {divisor}.")
            state = state.play(index, divisor)
        event = state.history[-1]
        op = "-" if state.components[event.index][0].move == "subtract" else "÷"
        io.say(
            f"{names[event.player - 1]} plays {event.divisor} in component {event.index + 1}: "
            f"{event.before} {op} {event.divisor} = {event.after}.",
            "",
        )
    assert state.winner is not None
    io.say(
        "Now: " + " + ".join(map(str, state.numbers)) + ".",
        f"{names[state.to_move - 1]} has no move in any component. {names[state.winner - 1]} wins!",
    )
    return state
