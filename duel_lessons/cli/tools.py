"""The command-line tools: ``duel-lessons rules``, ``solve`` and ``table``.

``solve`` asks the oracle (:mod:`duel_lessons.solving.oracle`, through
:func:`duel_lessons.play.analysis.analyse`); ``table`` reads the solver's tables
(:mod:`duel_lessons.solving.tables`) and writes files with
:func:`duel_lessons.views.files.write_atomically`.

>>> table_format("nf.json", None), table_format("nf.dat", None), table_format(None, "csv")
('json', 'text', 'csv')
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from duel_lessons.cli.console import Console
from duel_lessons.cli.options import (
    QUICK_TABLE,
    Subparsers,
    add_variant_arguments,
    changes_variant,
    rules_from_args,
    rules_name,
    whole_arg,
)
from duel_lessons.engine.errors import DuelError, TooBigError
from duel_lessons.engine.rules import RULEBOOKS
from duel_lessons.play.analysis import analyse
from duel_lessons.solving.oracle import oracle
from duel_lessons.solving.tables import TABLE_LIMIT, Table, TableTooLargeError, grundy_text, tabulate
from duel_lessons.views.files import write_atomically

# -- rules --------------------------------------------------------------------------


def run_rules(args: argparse.Namespace, io: Console) -> int:
    """Print the rules of one book (or variant), or of every book."""
    if args.rules is None and not changes_variant(args):
        io.say("\n\n".join(r.describe() for r in RULEBOOKS.values()))
        return 0
    io.say(rules_from_args(args).describe())
    return 0


# -- solve --------------------------------------------------------------------------

SOLVE_EXAMPLES = f"""\
examples:
  duel-lessons solve divisor-duel 60             who wins from 60, how, and why
  duel-lessons solve factor-duel 1000000000000000000
  duel-lessons solve divisor-duel 24 --divisors even
  duel-lessons solve divisor-duel 30 --misere --json
  duel-lessons solve divisor-duel 9999999 --misere --wait

The player to move from N is Player 1.  Outcome P: the player to move loses with
best play; N: the player to move wins.  Remoteness is the number of moves left
with best play (the winner hurries, the loser delays); it and the Grundy value
come from the solver's table up to N = 10^6 (a proved Grundy formula is used
above that where one exists).  Games with a proved closed form are solved
instantly up to 10^18.  Other variants (misère, --allow-one, ...) need the
solver's table up to N: it is built at once up to N = {QUICK_TABLE:,}; above
that (up to {TABLE_LIMIT:,}) it takes several seconds, so solve asks for --wait."""


def add_solve(subparsers: Subparsers) -> None:
    """Add ``solve``."""
    summary = "who wins from N: winning moves, remoteness, Grundy value and why"
    parser = _add(subparsers, "solve", summary, SOLVE_EXAMPLES)
    add_variant_arguments(parser)
    parser.add_argument("n", metavar="N", help="the position: a whole number from 1 to 10^18")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument(
        "--wait", action="store_true", help=f"build the solver's table even above {QUICK_TABLE:,} (several seconds)"
    )
    parser.set_defaults(func=run_solve)


def position_arg(text: str) -> int:
    """The N of ``solve``, read from the command line."""
    if rules_name(text) is not None:
        raise DuelError(f"Give the number N after the rules, for example: duel-lessons solve {text} 60.")
    return whole_arg(text, "number N")


def run_solve(args: argparse.Namespace, io: Console) -> int:
    """Print who wins from N, the winning moves, remoteness, Grundy value and why."""
    rules = rules_from_args(args)
    n = position_arg(args.n)
    if oracle(rules).above_table is None and QUICK_TABLE < n <= TABLE_LIMIT and not args.wait:
        raise TooBigError(
            f"{rules.title} ({rules.name}) has no proved closed form, so who wins from {n:,} needs the solver's "
            f"table up to {n:,}: that takes several seconds and about {9 * n // 10**6 + 40} MB. "
            f"Add --wait to build it, or choose N up to {QUICK_TABLE:,}."
        )
    if oracle(rules).above_table is None and QUICK_TABLE < n <= TABLE_LIMIT:
        io.warn(f"Building the solver's table up to {n:,} (several seconds)...")
    analysis = analyse(rules, n)
    if args.json:
        io.say(json.dumps(analysis.to_dict(), indent=2, ensure_ascii=False))
    else:
        io.write(analysis.to_text())
    return 0


# -- table --------------------------------------------------------------------------

TABLE_EXAMPLES = f"""\
examples:
  duel-lessons table divisor-duel --upto 20
  duel-lessons table factor-duel --from 90 --upto 110 --format csv
  duel-lessons table number-factor --upto 1000 --output nf.json
  duel-lessons table divisor-duel --divisors odd --upto 100000 --output odd.csv

Columns: n, outcome (P: the player to move loses; N: wins), grundy (the
Sprague–Grundy value; in misère play, where the values exist but do not
decide sums, none are computed: -1 in CSV and JSON, - in text), remoteness (moves left
with best play) and winning_moves (space-separated in CSV, a list in JSON).
The CSV header is exactly n,outcome,grundy,remoteness,winning_moves.
--upto may be at most {TABLE_LIMIT:,}; rows are written as they are computed.

With --output the format follows the file's extension (.csv, .json, .txt; any
other extension: text) unless --format says otherwise; a --format that
contradicts the extension is an error.  The file is written to a temporary name
and renamed at the end, so an interrupted run leaves no half-written file; an
existing file is replaced only with --force, and never through a symbolic link."""

_CHUNK_ROWS = 10_000
_HEADER = ("n", "outcome", "grundy", "remoteness", "winning_moves")
#: File extensions and the table format they mean.
EXTENSIONS = {".csv": "csv", ".json": "json", ".txt": "text"}


def add_table(subparsers: Subparsers) -> None:
    """Add ``table``."""
    parser = _add(subparsers, "table", "a table of outcomes for n up to N, as text, CSV or JSON", TABLE_EXAMPLES)
    add_variant_arguments(parser)
    parser.add_argument("--upto", metavar="N", required=True, help=f"the last n (at most {TABLE_LIMIT:,})")
    parser.add_argument("--from", dest="lo", metavar="M", default="1", help="the first n (default: 1)")
    parser.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        help="output format (default: from the --output file's extension, else text)",
    )
    parser.add_argument("--output", metavar="FILE", help="write the table to FILE instead of the screen")
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")
    parser.set_defaults(func=run_table)


def table_format(output: str | None, given: str | None) -> str:
    """The table's format: ``given`` (--format), else from the output file's extension, else text."""
    implied = EXTENSIONS.get(Path(output).suffix.lower()) if output else None
    if given is not None and implied is not None and given != implied:
        raise DuelError(
            f"--format {given} does not match the file name {output!r}, whose extension means {implied}. "
            f"Change one of them."
        )
    return given or implied or "text"


def table_range(lo_text: str, hi_text: str) -> tuple[int, int]:
    """The checked range (from, upto) of ``duel-lessons table``."""
    hi = whole_arg(hi_text, "--upto value")
    lo = whole_arg(lo_text, "--from value")
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


def _text_cells(row: dict[str, Any], grundy: Callable[[int], str] = str) -> tuple[str, ...]:
    """A row's cells (``grundy``: how a Grundy value is written; the text table writes -1 as ``-``)."""
    moves = " ".join(map(str, row["winning_moves"]))
    return str(row["n"]), row["outcome"], grundy(row["grundy"]), str(row["remoteness"]), moves


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
    for cells in itertools.chain([header], (_text_cells(r, grundy_text) for r in rows)):
        line = "  ".join(c.rjust(w) for c, w in zip(cells[:4], widths, strict=True)) + "  " + cells[4]
        yield line.rstrip() + "\n"


def _chunks(lines: Iterator[str]) -> Iterator[str]:
    while chunk := list(itertools.islice(lines, _CHUNK_ROWS)):
        yield "".join(chunk)


def run_table(args: argparse.Namespace, io: Console) -> int:
    """Write the table of outcomes, Grundy values, remoteness and winning moves."""
    rules = rules_from_args(args)
    lo, hi = table_range(args.lo, args.upto)
    fmt = table_format(args.output, args.format)
    if args.force and args.output is None:
        raise DuelError("--force only applies with --output FILE.")
    table = tabulate(rules, hi)
    if args.output is None:
        for chunk in _chunks(table_lines(table, lo, hi, fmt)):
            io.write(chunk)
        return 0
    write_atomically(args.output, _chunks(table_lines(table, lo, hi, fmt)), force=args.force)
    io.say(f"Wrote {hi - lo + 1:,} rows of {rules.title} (n = {lo} .. {hi}) as {fmt} to {args.output}.")
    return 0


# -- registering --------------------------------------------------------------------


def _add(subparsers: Subparsers, name: str, summary: str, epilog: str | None = None) -> argparse.ArgumentParser:
    return subparsers.add_parser(
        name, help=summary, description=summary, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def add_parser(subparsers: Subparsers) -> None:
    """Add ``rules``, ``solve`` and ``table``."""
    rules = _add(subparsers, "rules", "print the rules of one book or all of them")
    add_variant_arguments(rules, default=None)
    rules.set_defaults(func=run_rules)
    add_solve(subparsers)
    add_table(subparsers)
