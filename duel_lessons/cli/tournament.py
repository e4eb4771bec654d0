"""``duel-lessons tournament BOTS_DIR``: a round robin of the bot files a teacher collected.

Each ``NAME.py`` in BOTS_DIR (names starting with ``_`` are skipped) is one bot called NAME.
It defines ``def move(state):`` (or ``def strategy(state):``) that returns a divisor of
``state.number``; ``state.legal_moves`` lists the allowed ones.  Every bot runs in its own
process with a CPU-time limit per move, a memory limit and capped output
(:mod:`duel_lessons.play.sandbox`), so a bot that loops, crashes or cheats forfeits its game
and the tournament goes on.  Each bot also has a time budget for the whole tournament
(``--budget``): before it starts, the command says the longest the tournament can take, and
which of the sandbox's layers this system lacks.  Then it prints the league table, the
head-to-head table, every forfeit, and each bot's forfeits, errors and output.

Where nothing can isolate the bots (neither bubblewrap nor namespaces of a worker's own: a Binder
session, say), it refuses, saying what to install; ``--run-untrusted-code-without-isolation`` runs
them anyway, for bot files the teacher trusts.

    duel-lessons tournament bots/ --starts 10 --seed 2026
    duel-lessons tournament bots/ --rules number-factor --with perfect --time-limit 0.5
"""

from __future__ import annotations

import argparse
import math
from typing import Any, Protocol

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.numbers import read_number
from duel_lessons.engine.rules import RULEBOOKS, get_rules
from duel_lessons.play.in_kernel import bots_unisolated, isolation_notes
from duel_lessons.play.players import LEVELS
from duel_lessons.play.referee import BotFile, check_time_limit
from duel_lessons.play.tournament import MAX_STARTS, bot_files, default_budget, longest_time, round_robin
from duel_lessons.play.unisolated import UNISOLATED_FLAG

EXAMPLES = """\
examples:
  duel-lessons tournament bots/                      every bot file in bots/ against every other
  duel-lessons tournament bots/ --starts 10 --seed 2026
  duel-lessons tournament bots/ --with perfect --with greedy --time-limit 0.5

A bot file NAME.py defines:  def move(state): return state.legal_moves[0]"""


class Output(Protocol):
    """What the command prints with (the command line's Console)."""

    def say(self, *lines: str) -> None: ...


def _seconds(text: str, option: str = "--time-limit") -> float:
    """Seconds typed on the command line: a finite number above 0 and at most a day (DuelError otherwise)."""
    shown = text if len(text) <= 40 else text[:40] + "..."
    try:
        value = float(text)
    except ValueError:
        raise DuelError(f"{option} must be a number of seconds, not {shown!r}.") from None
    return check_time_limit(value, option)


def _duration(seconds: float) -> str:
    """
    >>> _duration(4000)
    '1 h 7 min'
    """
    minutes = math.ceil(seconds / 60)
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def run(args: argparse.Namespace, io: Output) -> int:
    """Run the tournament of the bot files in ``args.bots_dir`` and print the results."""
    bots: list[BotFile | str] = list(bot_files(args.bots_dir))
    levels = [level.strip().lower() for level in args.with_ or []]
    for level in levels:
        if level not in LEVELS:
            raise DuelError(f"Unknown player level {level!r} for --with. Known: {', '.join(LEVELS)}.")
    refusal = bots_unisolated() if bots else None
    if refusal is not None and not args.run_untrusted_code_without_isolation:
        raise DuelError(refusal)
    if len(bots) + len(levels) < 2:
        raise DuelError(
            f"{args.bots_dir} holds {len(bots)} bot file(s) (NAME.py defining move(state)); a tournament needs two "
            "entrants: add bot files, or computer players with --with perfect."
        )
    starts = read_number(args.starts, "--starts")
    if not 1 <= starts <= MAX_STARTS:
        raise DuelError(f"--starts must be from 1 to {MAX_STARTS:,}, not {args.starts[:40]!r}.")
    seed = read_number(args.seed, "--seed")
    limit = _seconds(args.time_limit)
    entrants = len(bots) + len(levels)
    budget = _seconds(args.budget, "--budget") if args.budget is not None else None
    per_bot = budget if budget is not None else default_budget(2 * (entrants - 1) * starts, limit)
    rules = get_rules(args.rules)
    io.say(f"{len(bots)} bot(s), {len(levels)} computer player(s); each bot in its own process, {limit:g} s per move.")
    longest = longest_time(len(bots), entrants, starts, limit, budget)
    io.say(
        f"Each bot may spend {per_bot:g} s in all; the tournament takes at most {_duration(longest)} "
        "(usually far less)."
    )
    if bots:
        for note in isolation_notes():
            io.say(note)
    result = round_robin(
        bots + levels,
        rules=rules,
        starts=starts,
        seed=seed,
        time_limit=limit,
        budget=budget,
        run_untrusted_code_without_isolation=args.run_untrusted_code_without_isolation,
    )
    io.say(result.to_text(), "Each entrant:", result.bot_report())
    return 0


def add_parser(subparsers: Any) -> None:
    """Add the ``tournament`` subcommand (``func=run``)."""
    summary = "a round-robin tournament of the bot files in a folder, each bot in its own sandbox"
    parser = subparsers.add_parser(
        "tournament",
        help=summary,
        description=summary,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bots_dir", metavar="BOTS_DIR", help="folder of bot files NAME.py, each defining move(state)")
    parser.add_argument("--rules", default="divisor-duel", help=f"rule book: {', '.join(RULEBOOKS)}")
    parser.add_argument("--starts", default="10", metavar="K", help="how many start numbers (default 10)")
    parser.add_argument("--seed", default="0", metavar="S", help="seed that draws the starts (default 0)")
    parser.add_argument("--time-limit", default="1", metavar="SECONDS", help="CPU time per move (default 1)")
    parser.add_argument(
        "--budget",
        metavar="SECONDS",
        help="seconds each bot may spend in the whole tournament (default: 30 + half a second per game)",
    )
    parser.add_argument(
        "--with",
        dest="with_",
        action="append",
        metavar="LEVEL",
        help=f"add a computer player ({', '.join(LEVELS)}); may be repeated",
    )
    parser.add_argument(
        UNISOLATED_FLAG,
        action="store_true",
        help="where nothing can isolate the bots (no bubblewrap, no namespaces), run them anyway: a bot could then "
        "read your files and the other bots', reach your network and signal your processes (only for bots you trust)",
    )
    parser.set_defaults(func=run)
