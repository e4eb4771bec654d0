"""Round-robin tournaments between strategies, with every student's bot in its own sandbox.

A strategy is any function from a :class:`~duel_lessons.engine.game.GameState` to a
move (a divisor), like the computer players in :mod:`duel_lessons.play.players`.
Every pair of entrants plays both colours from the same start numbers (drawn with a
seed, or given).  Games are played by :func:`~duel_lessons.engine.game.play_out`.

>>> result = round_robin(["random", "greedy", "perfect"], starts=5)
>>> result.table()[0].name
'Perfect'

Entrants given by a level name ("random", "greedy", "perfect", "coach") are the
package's own players and run in the referee's process.  Every other entrant (a
function, or a :class:`~duel_lessons.play.sandbox.BotFile`) is a bot: it runs in its own
worker process (:mod:`duel_lessons.play.sandbox`), restarted after a crash, with a CPU-time
limit per move, a memory limit and captured, capped output.  Where no process can be started (Pyodide, in
JupyterLite) a bot runs in the kernel instead, under the same time limit and budgets but without isolation
(:mod:`duel_lessons.play.in_kernel`), and the result's notes say so.  A bot cannot reach the referee's
game: it gets a rebuilt copy of the state.  At most :data:`MAX_WORKERS` workers live at once
(the pairs are played in blocks, so a bot's worker is started about once per block), and
every process a bot starts is killed when its game ends.

**Time budget.**  Besides ``time_limit`` (CPU seconds per move), every bot has a budget of
seconds on the clock per game (:func:`~duel_lessons.play.sandbox.default_game_budget`) and
for the whole tournament (``budget``, by default :func:`default_budget`): a bot that stalls
forfeits once its budget is spent, so :func:`longest_time` bounds the whole tournament
before it starts.

The referee is strict but never crashes.  A bot **forfeits** the game (and the
tournament goes on) if it

* raises an exception, of any kind (the traceback text is kept),
* returns something that is not a whole number (a string, None, 6.0, True), or whose
  ``__index__`` fails,
* returns a number that is not a legal move.  This holds in every variant, also in
  Number Factor whose book only costs a turn: a program that answers illegally is broken,
* uses more than ``time_limit`` seconds of CPU time for one move (or sits for far longer
  than that on the clock), spends its time budget, or exits, crashes, or runs out of memory.  A bot stopped three
  moves in a row is disqualified: it forfeits its remaining games without being asked, so
  one looping bot does not hold up the class.

Forced passes (Number Factor) are played by the referee, without asking the strategy.
The league plot is :func:`duel_lessons.views.league.league_plot`.

**Bot files** (``duel-lessons tournament BOTS_DIR``): each ``NAME.py`` in the folder is one
bot called NAME; it defines ``def move(state):`` (or ``def strategy(state):``) returning a
divisor of ``state.number``.  ``state`` is a GameState: ``state.number``,
``state.legal_moves``, ``state.to_move``, ``state.history``, ``state.rules``.  Files whose
names start with ``_`` are skipped.  A bot file may import only the modules in
:data:`~duel_lessons.play.bot_worker.ALLOWED_MODULES` (math, random, itertools, functools,
collections, fractions, statistics, bisect, heapq, operator, string, re, numpy, sympy), and from
each only the names in :data:`~duel_lessons.play.bot_worker.BOT_MODULES` (sympy: number theory;
numpy: arrays), and may not use names that start with ``_``.
"""

from __future__ import annotations

import contextlib
import operator
import random
import traceback
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState, Moved, new_game, play_out
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.engine.starts import random_start
from duel_lessons.play.in_kernel import bots_unisolated, isolation_notes, open_sandbox, processes_available
from duel_lessons.play.players import Strategy, make_player
from duel_lessons.play.referee import (
    LOAD_WALL_LIMIT,
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    BotFile,
    Forfeit,
    check_time_limit,
    default_game_budget,
    printable,
)
from duel_lessons.solving.tables import TABLE_LIMIT, tabulate

if TYPE_CHECKING:
    from duel_lessons.play.in_kernel import KernelSandbox
    from duel_lessons.play.sandbox import Sandbox

#: The largest start in a game that subtracts (a game lasts fewer moves than its start).
MAX_SUBTRACT_START = 10_000
#: How many forfeits to_text lists one by one.
MAX_LISTED = 20
#: The most start numbers a tournament may have (each is two games for every pair).
MAX_STARTS = 1000
#: The most bot workers alive at once, whatever the number of bots.
MAX_WORKERS = 8
#: The referee's own time per game, allowed for in :func:`longest_time` (its moves, the trusted players').
REFEREE_PER_GAME = 0.05


def default_budget(games: int, time_limit: float) -> float:
    """Seconds on the clock a bot may spend in a tournament of ``games`` games (its worker's starts included).

    >>> default_budget(180, 1.0)
    120.0
    """
    return 30.0 + games * min(time_limit, 0.5)


def longest_time(
    bots: int,
    entrants: int,
    starts: int,
    time_limit: float,
    budget: float | None = None,
    max_workers: int = MAX_WORKERS,
) -> float:
    """The longest a round robin can take, in seconds: every bot spends its whole budget and every start of a
    worker the schedule asks for takes its longest (:data:`~duel_lessons.play.sandbox.LOAD_WALL_LIMIT`),
    plus the referee's own time.

    >>> longest_time(10, 10, 10, 1.0)
    2155.0
    """
    games = entrants * (entrants - 1) * starts
    per_bot = budget if budget is not None else default_budget(2 * (entrants - 1) * starts, time_limit)
    group = max(1, max_workers // 2)
    scheduled_starts = -(-entrants // group)  # a bot's worker starts at most once per block of the schedule
    return bots * (per_bot + scheduled_starts * LOAD_WALL_LIMIT) + 10 + REFEREE_PER_GAME * games


def one_line(text: str) -> str:
    r"""Text for one line of a table: control characters escaped, newlines shown as ``\n``.

    >>> print(one_line("evil\nalice  10  10"))
    evil\nalice  10  10
    """
    return printable(text).replace("\n", "\\n")


Entrant = Strategy | BotFile | str


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
    """Every game of a tournament, with the league table, text and HTML (plot: views.league.league_plot).

    ``outputs`` holds what each bot printed (capped).
    """

    rules: Rules
    names: tuple[str, ...]
    starts: tuple[int, ...]
    seed: int
    time_limit: float
    games: list[GameRecord]
    outputs: dict[str, str] = field(default_factory=dict)
    #: The sandbox's layers missing on this system (see sandbox.isolation_notes), said once.
    notes: tuple[str, ...] = ()

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
        lines = [header, *self._page_notes(), "", f"{'player':<{width}}  played  won  lost  forfeits  win %"]
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
        for g in forfeits[:MAX_LISTED]:
            lines.append(f"  {g.loser} vs {g.winner}, start {g.start}, {g.first} first: {one_line(g.forfeit or '')}")
        if len(forfeits) > MAX_LISTED:
            lines.append(f"  ... and {len(forfeits) - MAX_LISTED} more (bot_report() sums them up per entrant)")
        return "\n".join(lines) + "\n"

    def _page_notes(self) -> tuple[str, ...]:
        """The notes the table shows: where bots ran in the kernel (no processes), that they were not isolated."""
        return () if processes_available() else self.notes

    def bot_report(self) -> str:
        """Each entrant's forfeits grouped by reason, the last line of its first traceback, and what it printed."""
        lines = []
        for name in self.names:
            mine = [g for g in self.forfeits() if g.loser == name]
            lines.append(f"{name}: {len(mine)} forfeit{'' if len(mine) == 1 else 's'}")
            for reason, count in Counter(g.forfeit for g in mine).most_common():
                lines.append(f"  {count} x {one_line(reason or '')}")
            trace = next((g.traceback for g in mine if g.traceback), None)
            if trace and trace.strip():
                lines.append(f"  first error: {one_line(trace.strip().splitlines()[-1])}")
            printed = self.outputs.get(name, "")
            if printed:
                shown = printed[:300].rstrip().replace("\n", "\n    ")
                lines.append(f"  printed ({len(printed):,} characters kept):\n    {shown}")
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
        printed = "".join(
            f"<details><summary>{escape(name)} printed</summary><pre>{escape(text)}</pre></details>"
            for name, text in self.outputs.items()
            if text
        )
        return (
            f"<div><b>{escape(self.rules.title)} tournament</b>: {len(self.games)} games "
            f"(seed {self.seed}){''.join(f'<p><b>Note:</b> {escape(n)}</p>' for n in self._page_notes())}"
            f"<table><tr>{head}</tr>{body}</table>{forfeits}{printed}</div>"
        )


def _details(trace: str | None) -> str:
    return f"<details><summary>traceback</summary><pre>{escape(trace)}</pre></details>" if trace else ""


# -- the referee ---------------------------------------------------------------------------

Ask = Callable[[GameState], int]


def _trusted(player: Strategy) -> Ask:
    """One of the package's own players, asked in the referee's process."""

    def ask(state: GameState) -> int:
        try:
            answer = player(state)
        except Exception as error:  # e.g. a perfect player asked about a number too big to solve
            raise Forfeit(f"raised {type(error).__name__}: {error}", traceback.format_exc()) from None
        if isinstance(answer, bool) or not hasattr(answer, "__index__"):
            raise Forfeit(f"returned {answer!r} ({type(answer).__name__}), not a whole number")
        return operator.index(answer)

    return ask


def _checked(ask: Ask) -> Callable[[GameState], int]:
    """A strategy for play_out: the entrant's answer, which must be a legal move (else Forfeit)."""

    def strategy(state: GameState) -> int:
        move = ask(state)
        reason = state.check(move)
        if reason is not None:
            raise Forfeit(f"played {move} from {state.number}, an illegal move: {reason}")
        return move

    return strategy


def _moves(state: GameState) -> tuple[int | None, ...]:
    return tuple(e.divisor if isinstance(e, Moved) else None for e in state.history)


def _play(names: tuple[str, str], asks: tuple[Ask, Ask], rules: Rules, start: int) -> GameRecord:
    """One refereed game; an entrant that fails in any way loses it by forfeit."""
    state = new_game(rules, start)
    latest = [state]
    try:
        end = play_out(state, {1: _checked(asks[0]), 2: _checked(asks[1])}, latest.append)
    except Forfeit as forfeit:
        mover = latest[-1].to_move
        return GameRecord(
            names, start, names[2 - mover], names[mover - 1], _moves(latest[-1]), forfeit.reason, forfeit.trace
        )
    winner = end.winner or 1
    return GameRecord(names, start, names[winner - 1], names[2 - winner], _moves(end))


class _Arena(contextlib.ExitStack):
    """The entrants of one tournament: trusted players, and one sandbox per bot (closed on exit).

    At most ``max_workers`` sandboxes have a live worker: asking a bot whose worker is not
    running first closes the worker least recently asked (not one of the game's two players).
    """

    def __init__(
        self,
        entrants: Mapping[str, Entrant],
        rules: Rules,
        time_limit: float,
        seed: int = 0,
        *,
        max_workers: int = MAX_WORKERS,
        **limits: Any,
    ) -> None:
        super().__init__()
        self.asks: dict[str, Ask] = {}
        self.sandboxes: dict[str, Sandbox | KernelSandbox] = {}
        self.max_workers = max(2, max_workers)
        self._recent: dict[str, None] = {}  # live sandboxes, least recently asked first
        for i, (name, entrant) in enumerate(entrants.items()):
            if isinstance(entrant, str):
                self.asks[name] = _trusted(make_player(entrant, seed + i))
            else:
                box = self.enter_context(open_sandbox(entrant, rules, time_limit, **limits))
                self.sandboxes[name] = box
                self.asks[name] = self._asker(name, box)

    def _asker(self, name: str, box: Sandbox | KernelSandbox) -> Ask:
        def ask(state: GameState) -> int:
            if box._worker is None:
                live = [n for n in self._recent if self.sandboxes[n]._worker is not None and n != name]
                for other in live[: max(0, len(live) + 1 - self.max_workers)]:
                    self.sandboxes[other].close()
            self._recent.pop(name, None)
            self._recent[name] = None
            return box.ask(state)

        return ask

    def new_game(self, *names: str) -> None:
        """A game between ``names`` starts: their game budgets are full, and their stray processes killed."""
        for name in names:
            if name in self.sandboxes:
                self.sandboxes[name].new_game()

    def outputs(self) -> dict[str, str]:
        return {name: box.output for name, box in self.sandboxes.items()}


def play_game(
    first: tuple[str, Strategy | BotFile],
    second: tuple[str, Strategy | BotFile],
    rules: Rules,
    start: int,
    time_limit: float = 1.0,
) -> GameRecord:
    """Play one refereed game between two bots (each in its own sandbox); a failing bot loses by forfeit."""
    limit = check_time_limit(time_limit)
    book = get_rules(rules)
    with _Arena({"1": first[1], "2": second[1]}, book, limit, game_budget=default_game_budget(limit)) as arena:
        return _play((first[0], second[0]), (arena.asks["1"], arena.asks["2"]), book, start)


def _entrants(strategies: Mapping[str, Entrant] | Sequence[Entrant]) -> dict[str, Entrant]:
    """Named entrants; a level name such as "perfect" stays a name (a trusted player)."""
    if isinstance(strategies, Mapping):
        items = [(str(name), s) for name, s in strategies.items()]
    elif isinstance(strategies, str | bytes) or not isinstance(strategies, Sequence):
        raise DuelError("The entrants are a list of strategies or a dict name -> strategy.")
    else:
        items = []
        for s in strategies:
            if isinstance(s, str):
                name = s.capitalize()
            elif isinstance(s, BotFile):
                name = s.name
            else:
                name = str(getattr(s, "name", None) or getattr(s, "__name__", None) or type(s).__name__)
            items.append((name, s))
    items = [(one_line(name), s) for name, s in items]
    named: dict[str, Entrant] = {}
    for name, entrant in items:
        if isinstance(entrant, str):
            make_player(entrant)  # an unknown level is a DuelError now, not in the middle of the tournament
        elif not isinstance(entrant, BotFile) and not callable(entrant):
            raise DuelError(f"Entrant {name!r} is not a strategy (a function from a game state to a divisor).")
        unique, k = name, 2
        while unique in named:
            unique, k = f"{name} ({k})", k + 1
        named[unique] = entrant
    if len(named) < 2:
        raise DuelError("A tournament needs at least two entrants.")
    return named


def draw_starts(rules: Rules, count: int, seed: int, start_range: tuple[int, int]) -> tuple[int, ...]:
    """``count`` legal starts for the rules, drawn with random_start and random.Random(seed) from start_range.

    The starts differ while the range has enough legal numbers.
    """
    lo, hi = start_range
    rng = random.Random(seed)
    starts: list[int] = []
    tries = 0
    while len(starts) < count:
        n = random_start(rules, lo, hi, rng)
        tries += 1
        if n not in starts or tries > 20 * count + 100:
            starts.append(n)
    return tuple(starts)


def tournament_starts(
    rules: Rules, starts: int | Sequence[int], seed: int = 0, start_range: tuple[int, int] = (10, 200)
) -> tuple[int, ...]:
    """The start numbers: ``starts`` drawn ones (an int), or the given ones, each checked against the rules."""
    if isinstance(starts, bool):
        raise DuelError(f"starts must be a count or a list of start numbers, not {starts!r}.")
    if isinstance(starts, int):
        if starts < 1:
            raise DuelError(f"A tournament needs at least one start number, not starts={starts}.")
        if starts > MAX_STARTS:
            shown = f"{starts:,}" if starts.bit_length() < 200 else f"a number of {starts.bit_length()} bits"
            raise DuelError(f"A tournament has at most {MAX_STARTS:,} start numbers, not {shown}.")
        numbers = draw_starts(rules, starts, seed, start_range)
    elif isinstance(starts, str | bytes) or not isinstance(starts, Sequence):
        raise DuelError(f"starts must be a count or a list of start numbers, not {starts!r}.")
    elif not starts:
        raise DuelError("A tournament needs at least one start number: the list of starts is empty.")
    elif len(starts) > MAX_STARTS:
        raise DuelError(f"A tournament has at most {MAX_STARTS:,} start numbers, not {len(starts):,}.")
    else:
        numbers = tuple(rules.check_start(n) for n in starts)
    if rules.move == "subtract" and max(numbers) > MAX_SUBTRACT_START:
        raise DuelError(
            f"Tournament starts must be at most {MAX_SUBTRACT_START:,} in {rules.title}, not {max(numbers):,}: "
            "a game that subtracts can last thousands of moves, each one asked of a bot in its own process."
        )
    return numbers


def round_robin(
    strategies: Mapping[str, Entrant] | Sequence[Entrant],
    rules: Rules | str = "divisor-duel",
    starts: int | Sequence[int] = 20,
    seed: int = 0,
    start_range: tuple[int, int] = (10, 200),
    time_limit: float = 1.0,
    progress: Callable[[float], None] | None = None,
    *,
    memory_limit: int = MEMORY_LIMIT,
    output_limit: int = OUTPUT_LIMIT,
    budget: float | None = None,
    max_workers: int = MAX_WORKERS,
    run_untrusted_code_without_isolation: bool = False,
) -> TournamentResult:
    """Every pair of entrants plays both colours from each start number.

    ``strategies`` is a dict name -> strategy, or a list of strategies, bot files and level
    names ("random", "greedy", "perfect").  ``starts`` is a count of starts drawn with
    ``seed`` from ``start_range``, or a list of start numbers.  ``time_limit`` is the CPU
    time, in seconds, a bot may use for one move; ``budget`` the seconds on the clock a bot may
    spend in the whole tournament (default: :func:`default_budget`).  Games from the same start
    are played twice, each entrant moving first once.  The whole takes at most
    :func:`longest_time`.

    Bot files are other people's code: where nothing can isolate them (:func:`bots_unisolated`) it raises
    DuelError, saying what to install, unless ``run_untrusted_code_without_isolation``.  Bots given as
    functions are the caller's own code (lesson 12's checks): the limits suffice, and they always run.
    """
    book = get_rules(rules)
    limit = check_time_limit(time_limit)
    numbers = tournament_starts(book, starts, seed, start_range)
    entrants = _entrants(strategies)
    if not run_untrusted_code_without_isolation and any(isinstance(e, BotFile) for e in entrants.values()):
        refusal = bots_unisolated()
        if refusal is not None:
            raise DuelError(refusal)
    size = 1024
    while size < max(numbers):
        size *= 2
    if size <= TABLE_LIMIT:
        tabulate(book, size)  # solve (and compile) once up front: bots forked later inherit it
    names = list(entrants)
    pairs = _pairs(names, max(1, max_workers // 2))
    games: list[GameRecord] = []
    total = len(pairs) * len(numbers) * 2
    per_bot = check_time_limit(budget, "The budget") if budget is not None else None
    if per_bot is None:
        per_bot = default_budget(2 * (len(names) - 1) * len(numbers), limit)
    bots = [e for e in entrants.values() if not isinstance(e, str)]
    notes = tuple(isolation_notes(functions=any(not isinstance(e, BotFile) for e in bots))) if bots else ()
    limits = {
        "memory_limit": memory_limit,
        "output_limit": output_limit,
        "total_budget": per_bot,
        "game_budget": default_game_budget(limit),
    }
    with _Arena(entrants, book, limit, seed, max_workers=max_workers, **limits) as arena:
        for a, b in pairs:
            for n in numbers:
                for first, second in ((a, b), (b, a)):
                    arena.new_game(first, second)
                    games.append(_play((first, second), (arena.asks[first], arena.asks[second]), book, n))
                    if progress is not None:
                        progress(len(games) / total)
        outputs = arena.outputs()
    return TournamentResult(book, tuple(names), numbers, seed, limit, games, outputs, notes)


def _pairs(names: Sequence[str], group: int) -> list[tuple[str, str]]:
    """Every pair of names once, in blocks of ``group`` names, so that few workers are live at a time.

    With at most ``group`` names this is the plain order (each name with every later one).

    >>> _pairs(["a", "b", "c"], 2)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    blocks = [list(range(i, min(i + group, len(names)))) for i in range(0, len(names), group)]
    pairs = []
    for x, block in enumerate(blocks):
        for other in blocks[x:]:
            for i in block:
                for j in other:
                    if i < j:
                        pairs.append((names[i], names[j]))
    return pairs


def bot_files(folder: Path | str) -> list[BotFile]:
    """The bot files in a folder: every ``*.py`` whose name does not start with ``_`` (sorted)."""
    path = Path(folder)
    if not path.is_dir():
        raise DuelError(f"{path} is not a folder of bot files.")
    return [BotFile.snapshot(p) for p in sorted(path.glob("*.py")) if not p.name.startswith("_") and not p.is_dir()]
