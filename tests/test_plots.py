"""The plots draw what the game says: marks, colours and labels checked against a brute force.

P/N, Grundy values and remoteness are recomputed here from the game engine
(:class:`GameState`), not taken from the solver that the plots use.
"""

from __future__ import annotations

import inspect
import io
import time
from collections.abc import Iterator
from functools import cache

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib import pyplot as plt
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection, PathCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch

from duel_lessons import BadStartError, DuelError, GameState, Rules, RulesError, get_rules
from duel_lessons.views.plots import (
    N_COLOUR,
    N_LABEL,
    N_MARKER,
    P_COLOUR,
    P_HATCH,
    P_LABEL,
    P_MARKER,
    PLOTS,
    PlotError,
    game_graph,
    grundy_plot,
    hundred_square,
    number_line,
    remoteness_plot,
    variant_heatmap,
)

EVEN = get_rules("divisor-duel").variant(divisors="even")
MISERE = get_rules("divisor-duel").variant(last_mover_wins=False)
BOOKS: list[Rules | str] = ["divisor-duel", "division-duel", "factor-duel", "number-factor", EVEN, MISERE]


# -- brute force, straight from the engine -------------------------------------------


@cache
def wins(rules: Rules, n: int, passes: int = 0) -> bool:
    """Whether the player to move from n (after ``passes`` passes) wins, by exhaustive search."""
    state = GameState(rules, n, passes=passes)
    if state.is_over:
        return state.winner == state.to_move
    if state.must_pass:
        return not wins(rules, n, passes + 1)
    return any(not wins(rules, rules.result(n, d)) for d in state.legal_moves)


def brute_outcome(rules: Rules | str, n: int) -> str:
    return "N" if wins(get_rules(rules), n) else "P"


@cache
def brute_grundy(rules: Rules, n: int) -> int:
    """Sprague-Grundy value by the mex rule (normal play, no reaching rules)."""
    options = {brute_grundy(rules, rules.result(n, d)) for d in GameState(rules, n).legal_moves}
    return next(g for g in range(len(options) + 1) if g not in options)


@cache
def brute_remoteness(rules: Rules, n: int) -> int:
    moves = [rules.result(n, d) for d in GameState(rules, n).legal_moves]
    if not moves:
        return 0
    to_p = [brute_remoteness(rules, m) for m in moves if not wins(rules, m)]
    return 1 + (min(to_p) if to_p else max(brute_remoteness(rules, m) for m in moves))


def brute_reachable(rules: Rules, start: int) -> tuple[set[int], int]:
    """Positions reachable from start and the number of moves between them."""
    seen, frontier, moves = {start}, [start], 0
    while frontier:
        n = frontier.pop()
        for d in GameState(rules, n).legal_moves:
            moves += 1
            m = rules.result(n, d)
            if m not in seen:
                seen.add(m)
                frontier.append(m)
    return seen, moves


# -- helpers ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def no_leaked_figures() -> Iterator[None]:
    """The library builds Figures directly: nothing may appear in pyplot's list."""
    plt.close("all")
    yield
    assert plt.get_fignums() == [], "a plot function created a pyplot figure"


def only_axes(fig: Figure) -> Axes:
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    return ax


def marks(ax: Axes) -> dict[str, PathCollection]:
    """The P and N scatter collections, found by their legend labels."""
    found = {c.get_label(): c for c in ax.collections if isinstance(c, PathCollection)}
    return {"P": found[P_LABEL], "N": found[N_LABEL]}


def all_points(fig: Figure) -> dict[str, list[tuple[float, float]]]:
    """The (x, y) centres of the P and N marks on every axes of a figure (a wrapped number line has several)."""
    found: dict[str, list[tuple[float, float]]] = {"P": [], "N": []}
    for ax in fig.axes:
        for label, collection in marks(ax).items():
            found[label] += points(collection)
    return found


def points(collection: PathCollection) -> list[tuple[float, float]]:
    """The (x, y) centres of a scatter collection's marks."""
    return [(float(x), float(y)) for x, y in np.asarray(collection.get_offsets())]


def count(pn: dict[str, PathCollection]) -> int:
    return len(points(pn["P"])) + len(points(pn["N"]))


def same_colour(collection: PathCollection | PatchCollection, colour: str) -> bool:
    faces = collection.get_facecolor()
    return len(faces) > 0 and all(np.allclose(face, to_rgba(colour)) for face in faces)


def check_words(where: Axes | Figure, ylabel: bool = True) -> None:
    """Title, axis labels, and a legend that says what P and N mean (on the axes, or on its figure)."""
    fig = where if isinstance(where, Figure) else where.get_figure(root=True)
    assert isinstance(fig, Figure)
    axes = fig.axes if isinstance(where, Figure) else [where]
    assert fig.get_suptitle() or axes[0].get_title()
    assert any(ax.get_xlabel() for ax in axes)
    assert not ylabel or fig.get_supylabel() or any(ax.get_ylabel() for ax in axes)
    legends = [ax.get_legend() for ax in axes if ax.get_legend() is not None] + list(fig.legends)
    assert len(legends) == 1
    texts = [t.get_text() for t in legends[0].get_texts()]
    assert P_LABEL in texts and N_LABEL in texts
    assert "loses" in P_LABEL and "wins" in N_LABEL


def png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=60)
    assert buffer.getvalue().startswith(b"\x89PNG")
    return buffer.getvalue()


# -- number line, Grundy, remoteness ---------------------------------------------------------


@pytest.mark.parametrize("rules", BOOKS, ids=str)
def test_number_line_marks_each_n_with_its_outcome(rules: Rules | str) -> None:
    fig = number_line(rules, upto=40)
    check_words(fig)
    assert len(fig.axes) == 2  # 40 numbers wrap onto two rows of 20
    for ax in fig.axes:
        pn = marks(ax)
        assert same_colour(pn["P"], P_COLOUR) and same_colour(pn["N"], N_COLOUR)
    found = all_points(fig)
    assert sorted(round(x) for c in found.values() for x, _ in c) == list(range(1, 41))
    for label, xy in found.items():
        for x, y in xy:
            assert brute_outcome(rules, round(x)) == label, (rules, x)
            assert y == (1 if label == "P" else 0)  # P lane above
    labels = sorted(int(t.get_text()) for ax in fig.axes for t in ax.texts)
    assert labels == list(range(1, 41))
    assert P_MARKER != N_MARKER


def test_number_line_wraps_long_ranges_in_rows_of_twenty() -> None:
    fig = number_line("divisor-duel", 100, start=21)
    assert len(fig.axes) == 4
    firsts = [min(round(x) for c in marks(ax).values() for x, _ in points(c)) for ax in fig.axes]
    assert firsts == [21, 41, 61, 81]
    long = number_line("divisor-duel", 5000)
    assert len(long.axes) == 1 and not long.axes[0].texts  # too many numbers to write: an axis instead


def test_number_line_from_a_start_and_into_given_axes() -> None:
    fig = Figure()
    ax = fig.add_subplot()
    assert number_line("divisor-duel", upto=29, start=10, ax=ax) is fig
    xs = sorted(round(x) for c in marks(ax).values() for x, _ in points(c))
    assert xs == list(range(10, 30))
    texts = {t.get_text() for t in ax.texts}
    assert {"10", "28", "29"} <= texts


def test_grundy_plot_heights_are_grundy_values() -> None:
    rules = get_rules("divisor-duel")
    ax = only_axes(grundy_plot(rules, upto=50))
    check_words(ax)
    pn = marks(ax)
    assert count(pn) == 50
    for label, collection in pn.items():
        for x, y in points(collection):
            n = round(x)
            assert y == brute_grundy(rules, n)
            assert brute_outcome(rules, n) == label
    assert all(y == 0 for _, y in points(pn["P"]))


def test_grundy_plot_refuses_misere_play() -> None:
    with pytest.raises(PlotError, match="Grundy"):
        grundy_plot(MISERE, upto=30)


@pytest.mark.parametrize("rules", ["divisor-duel", EVEN, MISERE], ids=str)
def test_remoteness_plot_heights_are_remoteness(rules: Rules | str) -> None:
    book = get_rules(rules)
    ax = only_axes(remoteness_plot(book, upto=45))
    check_words(ax)
    pn = marks(ax)
    assert count(pn) == 45
    for label, collection in pn.items():
        for x, y in points(collection):
            assert brute_outcome(book, round(x)) == label
            assert y == brute_remoteness(book, round(x)), (rules, x)


# -- hundred square --------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "start", "rows"), [("divisor-duel", 1, 10), ("factor-duel", 41, 3), (EVEN, 1, 10)])
def test_hundred_square_cells(rules: Rules | str, start: int, rows: int) -> None:
    ax = only_axes(hundred_square(rules, start=start, rows=rows))
    check_words(ax)
    numbers = range(start, start + 10 * rows)
    assert sorted(int(t.get_text()) for t in ax.texts) == list(numbers)
    for text in ax.texts:  # each label sits in its cell: column = last digit offset, row = tens
        row, col = divmod(int(text.get_text()) - start, 10)
        assert text.get_position() == (col, row)
    cells = {c.get_gid(): c for c in ax.collections if isinstance(c, PatchCollection)}
    assert same_colour(cells["P"], P_COLOUR) and same_colour(cells["N"], N_COLOUR)
    assert cells["P"].get_hatch() == P_HATCH and not cells["N"].get_hatch()
    seen = []
    for label, collection in cells.items():
        for path in collection.get_paths():
            (cx, cy) = np.asarray(path.vertices)[:4].mean(axis=0)
            n = start + 10 * round(cy) + round(cx)
            assert brute_outcome(rules, n) == label, (rules, n)
            seen.append(n)
    assert sorted(seen) == list(numbers)


def test_hundred_square_has_a_limit() -> None:
    with pytest.raises(PlotError, match="rows=101"):
        hundred_square("divisor-duel", rows=101)
    with pytest.raises(PlotError, match="upto=1001"):
        hundred_square("divisor-duel", 1001)
    with pytest.raises(PlotError, match="not both"):
        hundred_square("divisor-duel", 50, rows=5)


def test_hundred_square_upto_and_a_partial_last_row() -> None:
    ax = only_axes(hundred_square("divisor-duel", 35, start=11))
    assert sorted(int(t.get_text()) for t in ax.texts) == list(range(11, 36))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["11", "21", "31"]
    assert only_axes(hundred_square("divisor-duel")).get_title().endswith("n = 1..100")


# -- game graph ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "start"),
    [
        ("divisor-duel", 12),
        ("divisor-duel", 60),
        ("division-duel", 60),
        ("factor-duel", 30),
        ("number-factor", 30),
        (EVEN, 40),
    ],
)
def test_game_graph_nodes_and_moves(rules: Rules | str, start: int) -> None:
    book = get_rules(rules)
    ax = only_axes(game_graph(book, start))
    check_words(ax, ylabel=False)
    positions, moves = brute_reachable(book, start)
    pn = marks(ax)
    assert count(pn) == len(positions)
    assert same_colour(pn["P"], P_COLOUR) and same_colour(pn["N"], N_COLOUR)
    assert sum(isinstance(p, FancyArrowPatch) for p in ax.patches) == moves
    # Marks stand in order of size; each is labelled with its number (in the mark, or on the axis below
    # when there are too many marks), and the mark's class is right.
    at = {t.get_position(): int(t.get_text()) for t in ax.texts if t.get_position()[1] == 0}
    if at:
        assert sorted(at.values()) == sorted(positions)
    else:
        ticks = dict(zip(ax.get_xticks(), (int(t.get_text()) for t in ax.get_xticklabels()), strict=True))
        assert start in ticks.values() and len(ticks) >= len(positions) // 5
        at = {(x, 0.0): n for x, n in ticks.items()}
    ordered = sorted(positions)
    for label, collection in pn.items():
        for x, y in points(collection):
            n = ordered[round(x)]
            assert at.get((x, y), n) == n
            assert brute_outcome(book, n) == label
    assert str(start) in ax.get_title()


def test_game_graph_move_labels_and_colours() -> None:
    book = get_rules("divisor-duel")
    ax = only_axes(game_graph(book, 12, labels=True))
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    # 12 -> 10, 9, 8, 6; 10 -> 8, 5; 9 -> 6; 8 -> 6, 4; 6 -> 4, 3; 4 -> 2: winning moves go to P.
    winning = sum(not wins(book, book.result(n, d)) for n in (12, 10, 9, 8, 6, 4) for d in book.divisors_of(n))
    black = sum(np.allclose(a.get_edgecolor()[:3], (0, 0, 0)) for a in arrows)
    assert (len(arrows), black) == (12, winning)
    divisor_labels = sorted(t.get_text() for t in ax.texts if t.get_position()[1] != 0)
    expected = sorted(str(d) for n in (12, 10, 9, 8, 6, 4) for d in book.divisors_of(n))
    assert divisor_labels == expected


def test_game_graph_bad_starts() -> None:
    with pytest.raises(BadStartError, match="7"):
        game_graph("division-duel", 7)
    with pytest.raises(PlotError, match="upto=500"):
        game_graph("divisor-duel", 500)
    with pytest.raises(PlotError, match="not both"):
        game_graph("divisor-duel", 12, start=10)
    assert (
        only_axes(game_graph("divisor-duel", start=12)).get_title()
        == only_axes(game_graph("divisor-duel", 12)).get_title()
    )
    with pytest.raises(PlotError, match="0"):
        game_graph("divisor-duel", 0)


# -- variant heatmap ------------------------------------------------------------------------------


def test_variant_heatmap_rows_and_cells() -> None:
    variants: list[Rules | str] = ["divisor-duel", "division-duel", "factor-duel", EVEN]
    ax = only_axes(variant_heatmap(variants, upto=30))
    check_words(ax)
    (image,) = ax.images
    data = np.asarray(image.get_array())
    assert data.shape == (4, 30)
    for r, rules in enumerate(variants):
        assert "".join("PN"[v] for v in data[r]) == "".join(brute_outcome(rules, n) for n in range(1, 31))
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["Divisor Duel", "Division Duel", "Factor Duel", "Divisor Duel variant"]
    assert np.allclose(image.cmap(0), to_rgba(P_COLOUR)) and np.allclose(image.cmap(1.0), to_rgba(N_COLOUR))


def test_variant_heatmap_duplicate_titles_use_names() -> None:
    odd = get_rules("divisor-duel").variant(divisors="odd")
    ax = only_axes(variant_heatmap([EVEN, odd], upto=10))
    assert [t.get_text() for t in ax.get_yticklabels()] == [EVEN.name, odd.name]


# -- bad inputs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: number_line("divisor-duel", 0), PlotError, "upto must be at least 1, not 0"),
        (lambda: number_line("divisor-duel", "ten"), PlotError, "'ten'"),  # type: ignore[arg-type]
        (lambda: number_line("divisor-duel", True), PlotError, "True"),
        (lambda: number_line("divisor-duel", 10, start=20), PlotError, "upto=10 is less than start=20"),
        (lambda: number_line("divisor-duel", 10**7), PlotError, "10,000,000"),
        (lambda: grundy_plot("divisor-duel", -3), PlotError, "-3"),
        (lambda: remoteness_plot("divisor-dual", 10), RulesError, "divisor-dual"),
        (lambda: variant_heatmap([], 10), PlotError, "non-empty"),
        (lambda: variant_heatmap("divisor-duel", 10), PlotError, "list"),
        (lambda: hundred_square("divisor-duel", rows=0), PlotError, "rows must be at least 1, not 0"),
    ],
)
def test_bad_inputs_are_named(call: object, error: type[DuelError], words: str) -> None:
    assert callable(call)
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)


# -- large ranges -----------------------------------------------------------------------------


def test_plots_of_100_000_points_render() -> None:
    from duel_lessons.solving.tables import tabulate

    tabulate("divisor-duel", 10**5)  # the table is the solver's job; time only the drawing
    for plot in (number_line, grundy_plot, remoteness_plot):
        began = time.perf_counter()
        fig = plot("divisor-duel", 10**5)
        png(fig)
        pn = marks(only_axes(fig))
        assert count(pn) == 10**5
        print(f"{plot.__name__}(10**5) drawn to PNG in {time.perf_counter() - began:.2f} s")


def readable(fig: Figure) -> None:
    """A figure a class can read: a title, a legend, and an x-axis label (a wrapped line labels its last row)."""
    titles = [ax.get_title() for ax in fig.axes] + [fig.get_suptitle()]
    assert any(t.strip() for t in titles), "no title"
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
    assert any(legend is not None for legend in legends), "no legend"
    assert any(ax.get_xlabel().strip() for ax in fig.axes), "no axis label"


def test_every_plot_renders_to_png_and_is_readable() -> None:
    for fig in (
        number_line("division-duel"),
        hundred_square("number-factor"),
        grundy_plot("factor-duel", 60),
        remoteness_plot("number-factor", 60),
        game_graph("divisor-duel"),
        variant_heatmap(BOOKS, 60),
    ):
        image = png(fig)
        width, height = int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")
        assert width >= 200 and height >= 100, (width, height)
        readable(fig)


def test_every_plot_draws_into_given_axes() -> None:
    fig = Figure(figsize=(12, 10), layout="constrained")
    axes = fig.subplots(3, 2).ravel()
    returned = [
        number_line("divisor-duel", 30, ax=axes[0]),
        hundred_square("divisor-duel", rows=3, ax=axes[1]),
        grundy_plot("divisor-duel", 30, ax=axes[2]),
        remoteness_plot("divisor-duel", 30, ax=axes[3]),
        game_graph("divisor-duel", 12, ax=axes[4]),
        variant_heatmap(["divisor-duel", EVEN], 30, ax=axes[5]),
    ]
    assert all(f is fig for f in returned)
    assert len(fig.axes) == 6
    png(fig)


# -- the registry and one calling convention ---------------------------------------------------


def test_every_plot_function_is_registered_and_called_rules_first() -> None:
    from duel_lessons.views import plots

    functions = {
        name
        for name in plots.__all__
        if callable(getattr(plots, name)) and name.endswith(("_line", "_square", "_plot", "_graph", "_heatmap"))
    }
    assert {spec.function.__name__ for spec in PLOTS.values()} == functions
    for name, spec in PLOTS.items():
        assert spec.name == name and spec.description
        params = list(inspect.signature(spec.function).parameters.values())
        assert [p.name for p in params[:2]] in (["rules", "upto"], ["variants", "upto"]), name
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params[:2]), name
        rest = {p.name: p for p in params[2:]}
        assert {"start", "large", "ax"} <= set(rest), name
        assert all(p.kind is p.KEYWORD_ONLY for p in rest.values()), name
        assert rest["large"].default is False


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_registry_draws_every_plot_and_large_type_is_larger(name: str) -> None:
    spec = PLOTS[name]
    rules: object = ["divisor-duel", EVEN] if spec.many_rules else "divisor-duel"
    normal = spec.draw(rules, 5, 30)
    large = spec.draw(rules, 5, 30, large=True)
    sizes = [
        max(t.get_fontsize() for t in fig.findobj(lambda a: hasattr(a, "get_fontsize"))) for fig in (normal, large)
    ]
    assert sizes[1] > sizes[0]
    png(normal)
    if spec.has_start:
        xs = [x for ax in normal.axes for c in ax.collections if isinstance(c, PathCollection) for x, _ in points(c)]
        if xs:
            assert round(min(xs)) == 5 and round(max(xs)) == 30
    else:
        assert "30" in only_axes(normal).get_title()


def test_lessons_calls_keep_working() -> None:
    """The calls the lessons make: rules first, then the range; each draws the range it was asked for."""
    assert sum(len(v) for v in all_points(number_line("divisor-duel", 30)).values()) == 30
    assert count(marks(only_axes(grundy_plot("divisor-duel", upto=60)))) == 60
    assert count(marks(only_axes(remoteness_plot("divisor-duel", upto=40)))) == 40
    for fig in (
        hundred_square("divisor-duel"),
        hundred_square("divisor-duel", rows=3),
        game_graph("divisor-duel", 12),
        variant_heatmap(["divisor-duel", EVEN], upto=30),
    ):
        readable(fig)
