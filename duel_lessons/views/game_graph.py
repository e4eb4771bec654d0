"""The game graph: every position reachable from a start, with each move as an arrow.

>>> fig = game_graph("divisor-duel", 12)
>>> fig.axes[0].get_title()
'Divisor Duel: the game from 12 (9 positions, 12 moves)'
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch

from duel_lessons.engine.game import GameState
from duel_lessons.engine.numbers import whole_number
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.tables import tabulate
from duel_lessons.views.plot_style import (
    DPI,
    N_COLOUR,
    N_LABEL,
    N_MARKER,
    OTHER_MOVE_COLOUR,
    P_COLOUR,
    P_LABEL,
    P_MARKER,
    WIN_MOVE_COLOUR,
    PlotError,
    type_sizes,
    wrap_title,
)

#: Largest start for the game graph.
MAX_GRAPH_START = 200


def reachable(rules: Rules | str, start: int) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Positions reachable from ``start`` (largest first) and moves (n, d, result).

    >>> reachable("divisor-duel", 4)
    ([4, 2], [(4, 2, 2)])
    """
    book = get_rules(rules)
    seen = {start}
    todo = [start]
    moves: list[tuple[int, int, int]] = []
    while todo:
        n = todo.pop()
        for d in GameState(book, n).legal_moves:
            m = book.result(n, d)
            moves.append((n, d, m))
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return sorted(seen, reverse=True), sorted(moves, reverse=True)


def _label_spot(
    placed: list[tuple[float, float, float]], a: float, b: float, h: float, half_width: float
) -> tuple[float, float]:
    """A point on the arc from a to b (top h) for a label, away from labels already placed."""
    best = ((a + b) / 2, h)
    for t in (0.5, 0.38, 0.62, 0.28, 0.72, 0.2, 0.8):
        # The arc is a quadratic Bezier curve with control point ((a + b) / 2, 2h).
        x = (1 - t) ** 2 * a + 2 * t * (1 - t) * (a + b) / 2 + t**2 * b
        y = 4 * t * (1 - t) * h
        if abs(y) < 0.7:
            continue
        if all(abs(x - px) > hw + half_width or abs(y - py) > 0.45 for px, py, hw in placed):
            best = (x, y)
            break
    placed.append((best[0], best[1], half_width))
    return best


def _text_width(chars: int, points: float) -> float:
    """Rough width in points of ``chars`` digits at ``points`` size."""
    return 0.62 * points * chars


def game_graph(
    rules: Rules | str,
    upto: int | None = None,
    *,
    start: int | None = None,
    large: bool = False,
    labels: bool | None = None,
    ax: Axes | None = None,
) -> Figure:
    """The game from ``upto``: every position reachable from it, in order along a line, each move an arrow.

    ``upto`` is the number the game starts from, so the largest position shown
    (default: the book's default start).  ``start`` is the same number under the
    name the other plots use for the low end; give one of them, not both.
    Winning moves (to a P-position) arc below the line in black, other moves
    above in grey.  Arrows carry the divisor played when ``labels`` is True
    (default: only when there are at most 40 moves).  Each position shows its
    number in its mark, or, when there are too many marks for readable numbers,
    on an axis below.  A start the book forbids raises BadStartError.
    """
    book = get_rules(rules)
    if upto is not None and start is not None and upto != start:
        raise PlotError(f"The game graph starts from one number: give upto={upto} or start={start}, not both.")
    chosen = upto if upto is not None else start
    first = book.default_start if chosen is None else whole_number(chosen, "upto", PlotError)
    if first < 1:
        raise PlotError(f"upto must be at least 1, not {first}.")
    if first > MAX_GRAPH_START:
        raise PlotError(
            f"upto={first} is too big for a readable game graph (the limit is {MAX_GRAPH_START}). "
            "Use number_line or remoteness_plot for large numbers."
        )
    book.check_start(first)
    sizes = type_sizes(large)
    nodes, moves = reachable(book, first)
    table = tabulate(book, first)
    is_p = {n: bool(table.outcome[n] == 0) for n in nodes}
    if labels is None:
        labels = len(moves) <= 40
    place = {n: i for i, n in enumerate(sorted(nodes))}  # x position: rank, so 60 -> 30 -> 15 stays compact

    def height(n: int, m: int) -> float:
        # Grows with the jump, and at least 0.8 so no arc runs through the numbers it jumps over.
        return 0.55 + 0.3 * (place[n] - place[m])

    up = max([height(n, m) for n, _, m in moves if not is_p[m]], default=0.0)
    down = max([height(n, m) for n, _, m in moves if is_p[m]], default=0.0)
    x0, x1 = -0.8, len(nodes) - 0.2
    y0, y1 = -down - 0.7, up + 0.7
    width = float(np.clip(0.45 * (x1 - x0), 3.5, sizes.width - 0.4))
    unit = width * 72 / (x1 - x0)  # points per step along the line
    digits = len(str(first))
    inside = 0.85 * unit >= _text_width(digits, sizes.small) + 3  # numbers fit inside the marks
    diameter = float(min(0.85 * unit, 2.4 * sizes.small))
    legend_rows = 5 if large else 3
    bottom = legend_rows * sizes.text * 1.5 / 72 + (0.8 if large else 0.5) + (0 if inside else sizes.text * 1.6 / 72)
    top = 2 * sizes.title * 1.4 / 72 + 0.15
    if ax is None:
        # Lay the figure out by hand (in inches) so the axes box has exactly the data's shape:
        # arcs are drawn in screen space and their labels in data space, so the scales must agree.
        height_in = width * (y1 - y0) / (x1 - x0)
        if height_in < 1.2:  # room for the y label: widen the y range, keep the scale
            extra = (1.2 - height_in) * (x1 - x0) / width
            y0, y1, height_in = y0 - extra / 2, y1 + extra / 2, 1.2
        left = 0.45
        fig = Figure(figsize=(sizes.width, bottom + height_in + top), dpi=DPI)
        fig_w, fig_h = fig.get_size_inches()
        ax = fig.add_axes(((fig_w - width + left) / 2 / fig_w, bottom / fig_h, width / fig_w, height_in / fig_h))
        own = True
    else:
        root = ax.get_figure(root=True)
        if not isinstance(root, Figure):  # pragma: no cover - an Axes always has a figure
            raise PlotError("The axes given are not in a figure.")
        fig, own = root, False

    ax.axhline(0, color="0.85", linewidth=1, zorder=0)
    placed: list[tuple[float, float, float]] = []
    for n, d, m in moves:
        wins = is_p[m]
        h = height(n, m) * (-1 if wins else 1)
        # arc3: the control point sits rad * distance from the middle; the arc's top is half that.
        rad = 2 * h / (place[n] - place[m])  # n -> m goes left, and positive rad bends up
        ax.add_patch(
            FancyArrowPatch(
                (place[n], 0),
                (place[m], 0),
                connectionstyle=f"arc3,rad={rad}",
                arrowstyle="-|>",
                mutation_scale=8,
                shrinkA=diameter / 2,
                shrinkB=diameter / 2 + 1,
                zorder=2 if wins else 1,
                color=WIN_MOVE_COLOUR if wins else OTHER_MOVE_COLOUR,
                linewidth=1.3 if wins else 0.8,
            )
        )
        if labels:
            half = 0.5 * (_text_width(len(str(d)), sizes.small) + 4) / unit
            lx, ly = _label_spot(placed, place[n], place[m], h, half)
            ax.text(
                lx,
                ly,
                str(d),
                ha="center",
                va="center",
                fontsize=sizes.small,
                color=WIN_MOVE_COLOUR if wins else "0.3",
                zorder=4,
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"},
            )
    x = np.array([place[n] for n in nodes], dtype=float)
    p_mask = np.array([is_p[n] for n in nodes])
    style = {"s": diameter**2, "edgecolors": "black", "linewidths": 0.6, "zorder": 3}
    ax.scatter(x[p_mask], np.zeros(p_mask.sum()), marker=P_MARKER, c=P_COLOUR, label=P_LABEL, **style)  # type: ignore[arg-type]
    ax.scatter(x[~p_mask], np.zeros((~p_mask).sum()), marker=N_MARKER, c=N_COLOUR, label=N_LABEL, **style)  # type: ignore[arg-type]
    if inside:
        for n in nodes:
            ax.text(
                place[n],
                0,
                str(n),
                ha="center",
                va="center",
                fontsize=sizes.small,
                zorder=5,
                color="white" if is_p[n] else "black",
                fontweight="bold",
            )
        ax.set_xticks([])
    else:
        # Too many marks for numbers inside them: every k-th position (and the start) on an axis below.
        step = 1
        need = _text_width(digits, sizes.text) + 8
        for step in (1, 2, 5, 10, 20, 50):
            if step * unit >= need:
                break
        ranks = sorted({*range(0, len(nodes), step), place[first]})
        ranks = [r for r in ranks if r == place[first] or place[first] - r >= math.ceil(need / unit)]
        ordered = sorted(nodes)
        ax.set_xticks(ranks, [str(ordered[r]) for r in ranks], fontsize=sizes.text)
        ax.tick_params(axis="x", length=3)
    ring = Circle(
        (place[first], 0), 0.5 * (diameter + 8) / unit, facecolor="none", edgecolor="black", linewidth=1.4, zorder=3
    )
    ax.add_patch(ring)
    marker_px = 9 if not large else 12
    handles = [
        *(
            Line2D([], [], linestyle="none", marker=marker, markersize=marker_px, markerfacecolor=colour,
                   markeredgecolor="black", label=label)
            for marker, colour, label in ((P_MARKER, P_COLOUR, P_LABEL), (N_MARKER, N_COLOUR, N_LABEL))
        ),
        Line2D([], [], linestyle="none", marker="o", markersize=marker_px + 3, markerfacecolor="none",
               markeredgecolor="black", markeredgewidth=1.4, label=f"the start, {first}"),
        Line2D([], [], color=WIN_MOVE_COLOUR, linewidth=1.3, label="winning move (to a P-position): below"),
        Line2D([], [], color=OTHER_MOVE_COLOUR, linewidth=0.8, label="other move: above"),
    ]  # fmt: skip
    if own:
        fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0), frameon=False,
                   ncols=sizes.legend_columns,
                   fontsize=sizes.text)  # fmt: skip
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                  fontsize=sizes.text)  # fmt: skip
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_yticks([])
    what = "positions in order of size; each arrow is a move" + (", labelled with its divisor" if labels else "")
    ax.set_xlabel(wrap_title(what, sizes), fontsize=sizes.text)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(
        wrap_title(f"{book.title}: the game from {first} ({len(nodes)} positions, {len(moves)} moves)", sizes),
        fontsize=sizes.title,
    )
    return fig


__all__ = ["MAX_GRAPH_START", "game_graph", "reachable"]
