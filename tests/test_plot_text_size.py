"""No plot text under 10 px when the plot is shown in JupyterLab in a 1280 px wide window.

A notebook shows a figure as the PNG of IPython's image formatter, at its own
size or shrunk to the output area's width.  So a font of ``pt`` points looks
``pt * dpi / 72 * min(1, shown / png_width)`` px high, where ``shown`` is the
output area's width: 848 px in JupyterLab 4.6 at 1280 px with the file browser
open (measured in Chromium).  The size is worked out here from the PNG itself,
not from the helpers in plot_style.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

from duel_lessons import get_rules
from duel_lessons.views.plots import PLOTS, PlotSpec

from books import shipped_books

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "plots"

#: JupyterLab's output-area width, in px, in a 1280 px wide window (file browser open).
SHOWN_AT_1280 = 848
#: Lab's output area in an 800 px wide window (file browser open, measured): 368 px.
SHOWN_AT_800 = 368
SMALLEST_PX = 10.0

EVEN = get_rules("divisor-duel").variant(divisors="even")
VARIANTS = [*(rules.name for rules in shipped_books()), EVEN]

#: (plot, rules, upto, start) for each registered plot: short, default-sized, long, and large numbers.
CASES: list[tuple[str, object, int | None, int | None]] = [
    ("number line", "divisor-duel", 30, None),
    ("number line", "divisor-duel", 60, None),
    ("number line", "division-duel", 100, None),
    ("number line", "divisor-duel", 240, None),
    ("number line", "divisor-duel", 1200, 990),
    ("number line", "factor-duel", 2000, None),
    ("number line", "divisor-duel", 100_000, None),
    ("hundred square", "divisor-duel", None, None),
    ("hundred square", "factor-duel", 200, None),
    ("hundred square", "divisor-duel", 99_999, 99_950),
    ("Grundy values", "factor-duel", 60, None),
    ("Grundy values", "divisor-duel", 2000, None),
    ("remoteness", "number-factor", 60, None),
    ("remoteness", "division-duel", 5000, None),
    ("game graph", "divisor-duel", 12, None),
    ("game graph", "divisor-duel", None, None),
    ("game graph", "factor-duel", None, None),
    ("game graph", "divisor-duel", 200, None),
    ("variants side by side", VARIANTS, 60, None),
    ("variants side by side", VARIANTS, 2000, None),
]


def test_every_registered_plot_is_measured() -> None:
    assert {case[0] for case in CASES} == set(PLOTS)


def shown_sizes(fig: Figure, shown: float) -> Iterator[tuple[str, float]]:
    """(text, px on screen) for every text drawn on ``fig``, shown at most ``shown`` px wide."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")  # as the notebook formatter does, at the figure's dpi
    width = Image.open(buffer).width
    scale = min(1.0, shown / width)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    picture = fig.get_tightbbox(renderer)
    for text in fig.findobj(Text):
        assert isinstance(text, Text)
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.width == 0 or not box.overlaps(fig.bbox.expanded(1.5, 1.5)):
            continue  # not drawn (e.g. a tick label outside the axes' limits)
        yield text.get_text(), float(text.get_fontsize()) * fig.dpi / 72 * scale
    assert picture.width > 0


def save_as_shown(fig: Figure, stem: str) -> None:
    """Write the PNG as Lab shows it at 1280 and at 800 px (shrunk to the output area) to test-artifacts/plots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    image = Image.open(buffer)
    for window, shown in ((1280, SHOWN_AT_1280), (800, SHOWN_AT_800)):
        if image.width > shown:
            shrunk = image.resize((shown, round(image.height * shown / image.width)), Image.Resampling.LANCZOS)
        else:
            shrunk = image
        shrunk.save(ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9.-]+', '_', stem)}-at{window}.png")


def call(spec: PlotSpec, rules: object, upto: int | None, start: int | None, large: bool) -> Figure:
    options: dict[str, object] = {"large": large}
    if start is not None:
        options["start"] = start
    return spec.function(rules, upto, **options) if upto is not None else spec.function(rules, **options)


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize(("name", "rules", "upto", "start"), CASES, ids=lambda v: str(v)[:20])
def test_no_text_under_10_px_at_1280(
    name: str, rules: object, upto: int | None, start: int | None, large: bool
) -> None:
    fig = call(PLOTS[name], rules, upto, start, large)
    save_as_shown(fig, f"{name}-{upto}-{start}-{'large' if large else 'normal'}")
    sizes = list(shown_sizes(fig, SHOWN_AT_1280))
    assert sizes, "no text found"
    small = [(text, round(px, 1)) for text, px in sizes if px < SMALLEST_PX]
    assert not small, f"{name}: text under {SMALLEST_PX} px at 1280: {small[:5]}"


def test_large_type_is_at_least_a_third_bigger() -> None:
    for name in PLOTS:
        rules = VARIANTS if PLOTS[name].many_rules else "divisor-duel"
        normal = min(px for _, px in shown_sizes(call(PLOTS[name], rules, 30, None, False), SHOWN_AT_1280))
        large = min(px for _, px in shown_sizes(call(PLOTS[name], rules, 30, None, True), SHOWN_AT_1280))
        assert large >= 1.3 * normal, (name, normal, large)


def test_the_measure_can_fail() -> None:
    """A figure twice Lab's width with 10 pt text is shown at about half size: under 10 px."""
    fig = Figure(figsize=(16.96, 2), dpi=100)
    fig.add_subplot().set_title("tiny", fontsize=10)
    (px,) = [px for text, px in shown_sizes(fig, SHOWN_AT_1280) if text == "tiny"]
    assert 6.9 <= px < SMALLEST_PX


@pytest.mark.parametrize(("name", "rules", "upto"), [(c[0], c[1], c[2]) for c in CASES if (c[2] or 0) <= 100])
def test_large_type_is_readable_at_800(name: str, rules: object, upto: int | None) -> None:
    """Large type (for projecting) keeps 10 px even in the narrow output area at 800 px, for lesson-sized ranges."""
    fig = call(PLOTS[name], rules, upto, None, True)
    small = [(text, round(px, 1)) for text, px in shown_sizes(fig, SHOWN_AT_800) if px < SMALLEST_PX]
    assert not small, f"{name}: large text under {SMALLEST_PX} px at 800: {small[:5]}"


#: Words that would give a fact away in a title: titles say what is plotted, never what it shows.
GIVEAWAYS = re.compile(r"\b(odd|even|prime|power|lose|loses|win|wins|always|never)\b", re.IGNORECASE)


@pytest.mark.parametrize(("name", "rules", "upto", "start"), CASES[::3], ids=lambda v: str(v)[:20])
def test_titles_describe_what_is_plotted(name: str, rules: object, upto: int | None, start: int | None) -> None:
    fig = call(PLOTS[name], rules, upto, start, False)
    titles = [fig.get_suptitle()] + [ax.get_title() for ax in fig.axes]
    title = " ".join(t for t in titles if t).replace("\n", " ")
    assert title and not GIVEAWAYS.search(title), title
    assert re.search(r"n = \d+\.\.\d+|the game from \d+", title), title
