"""Round-robin tournaments between strategies.

A strategy is any function from a :class:`~duel_lessons.engine.game.GameState` to a
move (a divisor), like the computer players in :mod:`duel_lessons.play.players`.
Every pair of entrants plays both colours from the same seeded start numbers.

>>> result = round_robin(["random", "greedy", "perfect"], starts=5)
>>> result.table()[0].name
'Perfect'

The referee is strict but never crashes.  A strategy **forfeits** the game
(and the tournament goes on) if it

* raises an exception (the traceback text is kept),
* returns something that is not a whole number (a string, None, 6.0, True),
* returns a number that is not a legal move.  This holds in every variant,
  also in Number Factor whose book only costs a turn: a program that answers
  illegally is broken, and a lost turn could let it loop for ever,
* takes longer than ``time_limit`` seconds for one move.

Python cannot stop a running thread.  Each move is computed in a fresh
*daemon* thread that the referee waits for at most ``time_limit`` seconds; a
runaway thread is abandoned (it keeps running in the background until it
returns, but as a daemon it never stops Python from exiting).  Each strategy
gets its own copy of the state, so even a strategy that forces a change on it
cannot alter the referee's game.  Forced passes (Number Factor) are played by
the referee, without asking the strategy.
"""

from __future__ import annotations

import operator
import random
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import SupportsIndex

from matplotlib.figure import Figure

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import BadStartError, DuelError, Rules, get_rules
from duel_lessons.play.players import Strategy, make_player
from duel_lessons.solving.tables import TABLE_LIMIT, tabulate
from duel_lessons.views.plots import N_COLOUR, P_COLOUR

#: Colour of forfeits in the plot (Okabe-Ito vermillion, next to the package's blue and orange).
FORFEIT_COLOUR = "#D55E00"
#: How many numbers the referee tries before deciding a start range has no legal start.
MAX_TRIES = 10_000


@dataclass(frozen=True)
class GameRecord:
    """One game: ``players`` (first to move, second), the start, winner and loser, moves, and any forfeit.

    ``moves`` lists the divisors played in order; None stands for a forced pass.
    ``forfeit`` is the reason the loser forfeited (None after a normal end), and
    ``traceback`` the text of the exception if the strategy raised one.
    """

    players: tuple[str, str]
    start: int
    winner: str
    loser: str
    moves: tuple[int | None, ...]
    forfeit: str | None = None
    traceback: str | None = None

    @property
    def first(self) -> str:
        """The player who moved first."""
        return self.players[0]


@dataclass(frozen=True)
class Standing:
    """One row of the league table."""

    name: str
    played: int
    won: int
    lost: int
    forfeits: int

    @property
    def win_percent(self) -> float:
        """Games won as a percentage of games played."""
        return 100 * self.won / self.played if self.played else 0.0


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """Every game of a tournament, with the league table, text, HTML and a plot."""

    rules: Rules
    names: tuple[str, ...]
    starts: tuple[int, ...]
    seed: int
    time_limit: float
    games: list[GameRecord]

    def table(self) -> list[Standing]:
        """The league table: most wins first, then highest win %, fewest forfeits, name."""
        rows = []
        for name in self.names:
            mine = [g for g in self.games if name in g.players]
            won = sum(g.winner == name for g in mine)
            forfeits = sum(g.loser == name and g.forfeit is not None for g in mine)
            rows.append(Standing(name, len(mine), won, len(mine) - won, forfeits))
        return sorted(rows, key=lambda s: (-s.won, -s.win_percent, s.forfeits, s.name))

    def forfeits(self) -> list[GameRecord]:
        """The games that ended by a forfeit."""
        return [g for g in self.games if g.forfeit is not None]

    def head_to_head(self) -> dict[tuple[str, str], int]:
        """Wins of each entrant against each other one: ``result[(winner, loser)]``."""
        wins = {(a, b): 0 for a in self.names for b in self.names if a != b}
        for g in self.games:
            wins[(g.winner, g.loser)] += 1
        return wins

    def to_text(self) -> str:
        """The league table and the list of forfeits as plain text."""
        header = (
            f"{self.rules.title}: {len(self.games)} games, starts {', '.join(map(str, self.starts))} (seed {self.seed})"
        )
        width = max(len("player"), *(len(n) for n in self.names))
        lines = [header, "", f"{'player':<{width}}  played  won  lost  forfeits  win %"]
        for s in self.table():
            lines.append(
                f"{s.name:<{width}}  {s.played:>6}  {s.won:>3}  {s.lost:>4}  {s.forfeits:>8}  {s.win_percent:>5.1f}"
            )
        wins = self.head_to_head()
        cell = max(5, *(len(n) for n in self.names))
        lines += ["", "Head to head (games the row won against the column):"]
        lines.append(" " * width + "".join(f"  {n:>{cell}}" for n in self.names))
        for a in self.names:
            row = "".join(f"  {'-' if a == b else wins[(a, b)]:>{cell}}" for b in self.names)
            lines.append(f"{a:<{width}}{row}")
        forfeits = self.forfeits()
        lines += ["", f"Forfeits: {len(forfeits)}"]
        for g in forfeits:
            lines.append(f"  {g.loser} vs {g.winner}, start {g.start}, {g.first} first: {g.forfeit}")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in ("player", "played", "won", "lost", "forfeits", "win %"))
        body = "".join(
            f"<tr><td>{escape(s.name)}</td><td>{s.played}</td><td>{s.won}</td><td>{s.lost}</td>"
            f"<td>{s.forfeits}</td><td>{s.win_percent:.1f}</td></tr>"
            for s in self.table()
        )
        items = "".join(
            f"<li>{escape(g.loser)} vs {escape(g.winner)}, start {g.start}, {escape(g.first)} first: "
            f"{escape(g.forfeit or '')}{_details(g.traceback)}</li>"
            for g in self.forfeits()
        )
        forfeits = f"<p>Forfeits ({len(self.forfeits())}):</p><ul>{items}</ul>" if items else "<p>No forfeits.</p>"
        return (
            f"<div><b>{escape(self.rules.title)} tournament</b>: {len(self.games)} games "
            f"(seed {self.seed})<table><tr>{head}</tr>{body}</table>{forfeits}</div>"
        )

    def plot(self) -> Figure:
        """A stacked bar chart per entrant: wins, normal losses and forfeits, with the numbers written on the bars."""
        rows = self.table()[::-1]  # best at the top
        names = [s.name for s in rows]
        wins = [s.won for s in rows]
        losses = [s.lost - s.forfeits for s in rows]
        forfeits = [s.forfeits for s in rows]
        fig = Figure(figsize=(7, 0.6 * len(rows) + 1.6), layout="constrained")
        ax = fig.add_subplot()
        left = [0] * len(rows)
        for values, colour, hatch, label in (
            (wins, P_COLOUR, "", "won"),
            (losses, N_COLOUR, "", "lost"),
            (forfeits, FORFEIT_COLOUR, "xx", "lost by forfeit"),
        ):
            bars = ax.barh(names, values, left=left, color=colour, hatch=hatch, edgecolor="white", label=label)
            ax.bar_label(
                bars,
                labels=[str(v) if v else "" for v in values],
                label_type="center",
                bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none"},
            )
            left = [a + b for a, b in zip(left, values, strict=True)]
        for y, s in enumerate(rows):
            ax.text(left[y], y, f"  {s.win_percent:.0f}% won", va="center")
        ax.set_xlim(0, max(left, default=1) * 1.25 + 1)
        ax.set_xlabel("games")
        ax.set_ylabel("entrant")
        ax.set_title(f"{self.rules.title} round robin: {len(self.games)} games")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=3, frameon=False)
        return fig


def _details(trace: str | None) -> str:
    return f"<details><summary>traceback</summary><pre>{escape(trace)}</pre></details>" if trace else ""


# -- the referee ---------------------------------------------------------------------------


def _ask(strategy: Strategy, state: GameState, time_limit: float) -> tuple[object, str | None, str | None]:
    """Call the strategy in a daemon thread: (answer, forfeit reason, traceback text)."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["answer"] = strategy(replace(state))  # its own copy of the state
        except BaseException as error:  # any failure of the strategy is a forfeit
            box["error"] = f"raised {type(error).__name__}: {error}"
            box["traceback"] = traceback.format_exc()

    thread = threading.Thread(target=run, name="duel-strategy", daemon=True)
    began = time.perf_counter()
    thread.start()
    thread.join(time_limit)
    took = time.perf_counter() - began
    if thread.is_alive() or took > time_limit:
        return None, f"took longer than the time limit of {time_limit:g} s for one move (abandoned)", None
    if "error" in box:
        return None, str(box["error"]), str(box["traceback"])
    return box.get("answer"), None, None


def _check_answer(state: GameState, answer: object) -> tuple[int | None, str | None]:
    """The answer as a legal divisor, or a forfeit reason."""
    if isinstance(answer, bool) or not isinstance(answer, SupportsIndex):
        return None, f"returned {answer!r} ({type(answer).__name__}), not a whole number"
    divisor = operator.index(answer)
    reason = state.check(divisor)
    if reason is not None:
        return None, f"played {divisor} from {state.number}, an illegal move: {reason}"
    return divisor, None


def play_game(
    first: tuple[str, Strategy], second: tuple[str, Strategy], rules: Rules, start: int, time_limit: float = 1.0
) -> GameRecord:
    """Play one refereed game; a strategy that fails in any way loses it by forfeit."""
    entrants = (first, second)
    state = new_game(rules, start)
    moves: list[int | None] = []
    while not state.is_over:
        if state.must_pass:
            state = state.pass_turn()
            moves.append(None)
            continue
        mover, opponent = entrants[state.to_move - 1][0], entrants[2 - state.to_move][0]
        answer, reason, trace = _ask(entrants[state.to_move - 1][1], state, time_limit)
        divisor = None
        if reason is None:
            divisor, reason = _check_answer(state, answer)
        if reason is not None or divisor is None:
            return GameRecord((first[0], second[0]), start, opponent, mover, tuple(moves), reason, trace)
        state = state.play(divisor)
        moves.append(divisor)
    winner = entrants[(state.winner or 1) - 1][0]
    loser = entrants[2 - (state.winner or 1)][0]
    return GameRecord((first[0], second[0]), start, winner, loser, tuple(moves))


def _entrants(strategies: Mapping[str, Strategy | str] | Sequence[Strategy | str], seed: int) -> dict[str, Strategy]:
    """Named strategies; a level name such as "perfect" becomes players.make_player(level)."""
    if isinstance(strategies, Mapping):
        items = list(strategies.items())
    else:
        items = []
        for s in strategies:
            name = s if isinstance(s, str) else getattr(s, "name", None) or getattr(s, "__name__", type(s).__name__)
            items.append((str(name).capitalize() if isinstance(s, str) else str(name), s))
    named: dict[str, Strategy] = {}
    for i, (name, strategy) in enumerate(items):
        player = make_player(strategy, seed + i) if isinstance(strategy, str) else strategy
        if not callable(player):
            raise DuelError(f"Entrant {name!r} is not a strategy (a function from a game state to a divisor).")
        unique, k = name, 2
        while unique in named:
            unique, k = f"{name} ({k})", k + 1
        named[unique] = player
    if len(named) < 2:
        raise DuelError("A tournament needs at least two entrants.")
    return named


def draw_starts(rules: Rules, count: int, seed: int, start_range: tuple[int, int]) -> tuple[int, ...]:
    """``count`` legal starts for the rules, drawn with random.Random(seed) from start_range (both ends included)."""
    lo, hi = start_range
    if lo > hi:
        raise DuelError(f"The start range {lo} .. {hi} is empty.")
    rng = random.Random(seed)
    starts: list[int] = []
    tries = 0
    while len(starts) < count:
        n = rng.randint(lo, hi)
        tries += 1
        if n in starts and tries < MAX_TRIES:
            continue  # different starts while the range has them
        try:
            starts.append(rules.check_start(n))
        except BadStartError:
            if tries > MAX_TRIES and not starts:
                raise DuelError(f"No legal start for {rules.title} found in {lo} .. {hi}.") from None
    return tuple(starts)


def round_robin(
    strategies: Mapping[str, Strategy | str] | Sequence[Strategy | str],
    rules: Rules | str = "divisor-duel",
    starts: int = 20,
    seed: int = 0,
    start_range: tuple[int, int] = (10, 200),
    time_limit: float = 1.0,
    progress: Callable[[float], None] | None = None,
) -> TournamentResult:
    """Every pair of entrants plays both colours from ``starts`` seeded start numbers.

    ``strategies`` is a dict name -> strategy, or a list of strategies and level
    names ("random", "greedy", "perfect").  Games from the same start are
    played twice, each entrant moving first once.
    """
    book = get_rules(rules)
    entrants = _entrants(strategies, seed)
    numbers = draw_starts(book, starts, seed, start_range)
    size = 1024
    while size < max(numbers):
        size *= 2
    if size <= TABLE_LIMIT:
        tabulate(book, size)  # solve (and compile) once up front, so no entrant's first move pays for it
    names = list(entrants)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    games: list[GameRecord] = []
    total = len(pairs) * len(numbers) * 2
    for a, b in pairs:
        for n in numbers:
            for first, second in ((a, b), (b, a)):
                games.append(play_game((first, entrants[first]), (second, entrants[second]), book, n, time_limit))
                if progress is not None:
                    progress(len(games) / total)
    return TournamentResult(book, tuple(names), numbers, seed, time_limit, games)
