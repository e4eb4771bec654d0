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
worker process (:mod:`duel_lessons.play.sandbox`), kept for the whole tournament and
restarted after a crash, with a CPU-time limit per move, a memory limit and captured,
capped output.  A bot cannot reach the referee's game: it gets a rebuilt copy of the state.

The referee is strict but never crashes.  A bot **forfeits** the game (and the
tournament goes on) if it

* raises an exception, of any kind (the traceback text is kept),
* returns something that is not a whole number (a string, None, 6.0, True), or whose
  ``__index__`` fails,
* returns a number that is not a legal move.  This holds in every variant, also in
  Number Factor whose book only costs a turn: a program that answers illegally is broken,
* uses more than ``time_limit`` seconds of CPU time for one move (or sits for far longer
  than that on the clock), or exits, crashes, or runs out of memory.  A bot stopped three
  moves in a row is disqualified: it forfeits its remaining games without being asked, so
  one looping bot does not hold up the class.

Forced passes (Number Factor) are played by the referee, without asking the strategy.
The league plot is :func:`duel_lessons.views.league.league_plot`.

**Bot files** (``duel-lessons tournament BOTS_DIR``): each ``NAME.py`` in the folder is one
bot called NAME; it defines ``def move(state):`` (or ``def strategy(state):``) returning a
divisor of ``state.number``.  ``state`` is a GameState: ``state.number``,
``state.legal_moves``, ``state.to_move``, ``state.history``, ``state.rules``.  Files whose
names start with ``_`` are skipped.
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

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState, Moved, new_game, play_out
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.engine.starts import random_start
from duel_lessons.play.players import Strategy, make_player
from duel_lessons.play.sandbox import MEMORY_LIMIT, OUTPUT_LIMIT, BotFile, Forfeit, Sandbox, check_time_limit
from duel_lessons.solving.tables import TABLE_LIMIT, tabulate

#: The largest start in a game that subtracts (a game lasts fewer moves than its start).
MAX_SUBTRACT_START = 10_000
#: How many forfeits to_text lists one by one.
MAX_LISTED = 20

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
        for g in forfeits[:MAX_LISTED]:
            lines.append(f"  {g.loser} vs {g.winner}, start {g.start}, {g.first} first: {g.forfeit}")
        if len(forfeits) > MAX_LISTED:
            lines.append(f"  ... and {len(forfeits) - MAX_LISTED} more (bot_report() sums them up per entrant)")
        return "\n".join(lines) + "\n"

    def bot_report(self) -> str:
        """Each entrant's forfeits grouped by reason, the last line of its first traceback, and what it printed."""
        lines = []
        for name in self.names:
            mine = [g for g in self.forfeits() if g.loser == name]
            lines.append(f"{name}: {len(mine)} forfeit{'' if len(mine) == 1 else 's'}")
            for reason, count in Counter(g.forfeit for g in mine).most_common():
                lines.append(f"  {count} x {reason}")
            trace = next((g.traceback for g in mine if g.traceback), None)
            if trace:
                lines.append(f"  first error: {trace.strip().splitlines()[-1]}")
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
            f"(seed {self.seed})<table><tr>{head}</tr>{body}</table>{forfeits}{printed}</div>"
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
    """The entrants of one tournament: trusted players, and one sandbox per bot (closed on exit)."""

    def __init__(
        self, entrants: Mapping[str, Entrant], rules: Rules, time_limit: float, seed: int = 0, **limits: int
    ) -> None:
        super().__init__()
        self.asks: dict[str, Ask] = {}
        self.sandboxes: dict[str, Sandbox] = {}
        for i, (name, entrant) in enumerate(entrants.items()):
            if isinstance(entrant, str):
                self.asks[name] = _trusted(make_player(entrant, seed + i))
            else:
                box = self.enter_context(Sandbox(entrant, rules, time_limit, **limits))
                self.sandboxes[name] = box
                self.asks[name] = box.ask

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
    with _Arena({"1": first[1], "2": second[1]}, book, limit) as arena:
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
        numbers = draw_starts(rules, starts, seed, start_range)
    elif isinstance(starts, str | bytes) or not isinstance(starts, Sequence):
        raise DuelError(f"starts must be a count or a list of start numbers, not {starts!r}.")
    elif not starts:
        raise DuelError("A tournament needs at least one start number: the list of starts is empty.")
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
) -> TournamentResult:
    """Every pair of entrants plays both colours from each start number.

    ``strategies`` is a dict name -> strategy, or a list of strategies, bot files and level
    names ("random", "greedy", "perfect").  ``starts`` is a count of starts drawn with
    ``seed`` from ``start_range``, or a list of start numbers.  ``time_limit`` is the CPU
    time, in seconds, a bot may use for one move.  Games from the same start are played
    twice, each entrant moving first once.
    """
    book = get_rules(rules)
    limit = check_time_limit(time_limit)
    numbers = tournament_starts(book, starts, seed, start_range)
    entrants = _entrants(strategies)
    size = 1024
    while size < max(numbers):
        size *= 2
    if size <= TABLE_LIMIT:
        tabulate(book, size)  # solve (and compile) once up front: bots forked later inherit it
    names = list(entrants)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    games: list[GameRecord] = []
    total = len(pairs) * len(numbers) * 2
    with _Arena(entrants, book, limit, seed, memory_limit=memory_limit, output_limit=output_limit) as arena:
        for a, b in pairs:
            for n in numbers:
                for first, second in ((a, b), (b, a)):
                    games.append(_play((first, second), (arena.asks[first], arena.asks[second]), book, n))
                    if progress is not None:
                        progress(len(games) / total)
        outputs = arena.outputs()
    return TournamentResult(book, tuple(names), numbers, seed, limit, games, outputs)


def bot_files(folder: Path | str) -> list[BotFile]:
    """The bot files in a folder: every ``*.py`` whose name does not start with ``_`` (sorted)."""
    path = Path(folder)
    if not path.is_dir():
        raise DuelError(f"{path} is not a folder of bot files.")
    return [BotFile(p) for p in sorted(path.glob("*.py")) if not p.name.startswith("_") and p.is_file()]
