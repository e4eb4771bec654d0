"""The league plot of a tournament (moved here from play.tournament: players do not draw).

>>> from duel_lessons.play.tournament import round_robin
>>> fig = league_plot(round_robin(["random", "greedy"], starts=2))
>>> fig.axes[0].get_xlabel()
'games'
"""

from __future__ import annotations

from matplotlib.figure import Figure

from duel_lessons.play.tournament import TournamentResult
from duel_lessons.views.plots import N_COLOUR, P_COLOUR

#: Colour of forfeits in the plot (Okabe-Ito vermillion, next to the package's blue and orange).
FORFEIT_COLOUR = "#D55E00"


def league_plot(result: TournamentResult) -> Figure:
    """A stacked bar chart per entrant: wins, normal losses and forfeits, with the numbers written on the bars."""
    rows = result.table()[::-1]  # best at the top
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
    ax.set_title(f"{result.rules.title} round robin: {len(result.games)} games")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=3, frameon=False)
    return fig
