"""Printables for the classroom, as PDF (made with matplotlib): grids, rule cards, a hundred square, exit tickets.

``duel-lessons printables DEST`` writes them into the folder DEST::

    backward-induction-grid.pdf   a blank table n | moves to | P or N, for n = 1 .. 30
    rule-cards.pdf                one card per rule book, from the books' own rules
    hundred-square.pdf            a blank hundred square to shade
    exit-tickets.pdf              each lesson's exit ticket, two to a page

The exit tickets are :data:`EXIT_TICKETS`; the teacher guide quotes them (a test
checks that the two agree).  No existing file is overwritten unless asked.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from duel_lessons.engine.rules import RULEBOOKS, DuelError
from duel_lessons.views.files import replacing

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

A4 = (8.27, 11.69)
GRID_UPTO = 30

#: Each lesson's exit ticket: a title and two or three short questions (no answers).
EXIT_TICKETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "00": (
        "What can you do with one number?",
        (
            "List the divisors you may use from 20 in Divisor Duel.",
            "Someone hands you 13. What happens, and why?",
        ),
    ),
    "01": (
        "What goes into a number?",
        (
            "How many divisors does 36 have? Show how you know without listing them.",
            "Is every number where a Divisor Duel player is stuck a prime? Explain.",
        ),
    ),
    "02": (
        "Can the first player always win?",
        (
            "Show that the first player loses from 9: check every move.",
            "Why is one game won from a start not enough to say the start is winning?",
        ),
    ),
    "03": (
        "Which numbers would you like to hand your opponent?",
        (
            "Fill in P or N for 13, 14, 15 and 16, and say which move wins from each N.",
            "In your own words: when is a number a P-position?",
        ),
    ),
    "04": (
        "Which numbers lose, and why?",
        (
            "Give a winning move from 80, and say why it wins.",
            "Is 512 a P-position or an N-position? Explain with the proof, not a table.",
            "What can a computer check up to a million show, and what can it not?",
        ),
    ),
}


class Says(Protocol):
    """What the command line's console offers (its ``say``)."""

    def say(self, *lines: str) -> None: ...


def _page(title: str) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=A4)
    ax = figure.add_axes((0.07, 0.05, 0.86, 0.85))
    ax.set_axis_off()
    figure.suptitle(title, fontsize=18, y=0.96)
    return figure, ax


def grid_figure(upto: int = GRID_UPTO) -> Figure:
    """A blank backward-induction table for n = 1 .. upto: n | allowed divisors | moves to | P or N."""
    figure, ax = _page("Backward induction: fill in from the top")
    columns = ["n", "allowed divisors", "moves to (and their letters)", "P or N"]
    cells = [[str(n), "", "", ""] for n in range(1, upto + 1)]
    table = ax.table(cellText=cells, colLabels=columns, colWidths=[0.08, 0.3, 0.47, 0.15], loc="upper center")
    table.auto_set_font_size(False)
    table.set_fontsize(11)
    table.scale(1, 1.45)
    ax.text(
        0, -0.02, "N if SOME move reaches a P.   P if EVERY move reaches an N (or there is no move).",
        fontsize=11, transform=ax.transAxes,
    )  # fmt: skip
    return figure


def hundred_figure() -> Figure:
    """A blank hundred square, 1 .. 100, for shading P-positions by hand."""
    from matplotlib.patches import Rectangle

    figure, ax = _page("Hundred square: shade the P-positions")
    for i in range(100):
        row, col = divmod(i, 10)
        ax.add_patch(Rectangle((col, 9 - row), 1, 1, fill=False, lw=1.2))
        ax.text(col + 0.5, 9.5 - row, str(i + 1), ha="center", va="center", fontsize=15)
    ax.set_xlim(0, 10)
    ax.set_ylim(-1.5, 10)
    ax.set_aspect("equal")
    ax.text(0, -0.8, "Game: ______________________     What do the shaded numbers have in common?", fontsize=11)
    return figure


def rule_card_figures() -> list[Figure]:
    """One page per rule book: its rules in the package's words."""
    pages: list[Figure] = []
    for rules in RULEBOOKS.values():
        figure, ax = _page(f"{rules.title} ({rules.source})")
        lines = []
        for line in rules.describe().splitlines()[1:]:
            lines += textwrap.wrap(line, 60) or [""]
        ax.text(0, 0.95, "\n\n".join(lines), fontsize=15, va="top", transform=ax.transAxes)
        pages.append(figure)
    return pages


def exit_ticket_figures() -> list[Figure]:
    """The exit tickets, two lessons to a page, with room to write."""
    pages: list[Figure] = []
    items = list(EXIT_TICKETS.items())
    for i in range(0, len(items), 2):
        figure, ax = _page("Exit tickets")
        for half, (lesson, (title, questions)) in enumerate(items[i : i + 2]):
            top = 1.0 - 0.5 * half
            ax.text(0, top, f"Lesson {lesson}: {title}", fontsize=15, weight="bold", va="top", transform=ax.transAxes)
            ax.text(0, top - 0.04, "Name: ____________________", fontsize=11, va="top", transform=ax.transAxes)
            for k, question in enumerate(questions):
                y = top - 0.09 - k * 0.13
                text = "\n".join(textwrap.wrap(f"{k + 1}. {question}", 80))
                ax.text(0, y, text, fontsize=12, va="top", transform=ax.transAxes)
        pages.append(figure)
    return pages


#: File name -> the pages it holds.
PRINTABLES: dict[str, Callable[[], list[Figure]]] = {
    "backward-induction-grid.pdf": lambda: [grid_figure()],
    "rule-cards.pdf": rule_card_figures,
    "hundred-square.pdf": lambda: [hundred_figure()],
    "exit-tickets.pdf": exit_ticket_figures,
}


def _save(pages: list[Figure], target: Path) -> None:
    """Write the pages as one PDF: to a temporary name, then renamed into place."""
    from matplotlib.backends.backend_pdf import PdfPages

    metadata = {"Title": target.stem, "Creator": "duel-lessons"}
    # write_printables has checked what may be replaced
    with replacing(target, force=True) as temporary, PdfPages(temporary, metadata=metadata) as pdf:
        for page in pages:
            pdf.savefig(page)


def write_printables(dest: Path | str, overwrite: bool = False) -> list[Path]:
    """Write every printable into the folder ``dest`` (made if needed); return the paths.

    Refuses (DuelError) if a file is there already, unless ``overwrite``.
    """
    folder = Path(dest)
    if folder.exists() and not folder.is_dir():
        raise DuelError(f"{folder} is a file, not a folder.")
    targets = [folder / name for name in PRINTABLES]
    there = [t.name for t in targets if t.exists()]
    if there and not overwrite:
        raise DuelError(f"Not overwriting {', '.join(there)} in {folder}: choose another folder, or add --overwrite.")
    folder.mkdir(parents=True, exist_ok=True)
    for target in targets:
        _save(PRINTABLES[target.name](), target)
    return targets


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``duel-lessons printables``."""
    parser.add_argument("dest", metavar="DEST", help="the folder to write the PDFs into")
    parser.add_argument("--overwrite", action="store_true", help="replace printables already in DEST")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``printables`` to a command line whose subcommands carry their ``func`` (the split CLI's way)."""
    summary = "write classroom PDFs: grids, rule cards, exit tickets"
    parser = subparsers.add_parser("printables", help=summary, description=summary)
    configure(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, io: Says) -> int:
    """Write the printables and say where."""
    for path in write_printables(args.dest, overwrite=args.overwrite):
        io.say(f"Wrote {path}")
    return 0
