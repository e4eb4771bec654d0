"""Small widgets for lessons: a reveal button and a results table that no typo can break.

Both are thin: the text they show and the results they hold are plain values.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as w
from IPython.display import Markdown, display

RESULT_OPTIONS = (("not played yet", ""), ("first player won", "first"), ("second player won", "second"))


def reveal_button(text: str, description: str = "Compare with the answer") -> w.VBox:
    """Display a button that shows ``text`` (markdown) below it when clicked; return the box."""
    button = w.Button(
        description=description,
        tooltip="Show the answer and how your guess compares",
        button_style="info",
        layout=w.Layout(width="auto"),
    ).add_class("lesson-reveal")
    out = w.Output().add_class("lesson-reveal-text")

    def show(_: object) -> None:
        button.disabled = True
        with out:
            display(Markdown(text))

    button.on_click(show)
    box = w.VBox([button, out])
    display(box)
    return box


class ResultsTable:
    """Who won from each start: one labelled drop-down per start (keyboard friendly).

    ``table.results`` is ``{start: "first" | "second"}`` for the games recorded so far.

    >>> t = ResultsTable([4, 6])
    >>> t.boxes[4].value = "first"
    >>> t.results, t.summary()
    ({4: 'first'}, 'From 4: first player won. 1 of 2 starts recorded.')
    """

    def __init__(self, starts: Sequence[int]) -> None:
        self.starts = list(starts)
        self.boxes = {
            n: w.Dropdown(
                options=list(RESULT_OPTIONS), value="", description=f"From {n}:", tooltip=f"Who won the game from {n}?"
            ).add_class("lesson-result")
            for n in self.starts
        }
        self.summary_html = w.HTML()
        for box in self.boxes.values():
            box.observe(lambda _: self._update(), names="value")
        self._update()
        self.widget = w.VBox([*self.boxes.values(), self.summary_html])

    @property
    def results(self) -> dict[int, str]:
        """The recorded results, by start."""
        return {n: str(box.value) for n, box in self.boxes.items() if box.value}

    def summary(self) -> str:
        """The recorded results in words."""
        done = self.results
        said = "; ".join(f"From {n}: {who} player won" for n, who in done.items())
        return (said + ". " if said else "") + f"{len(done)} of {len(self.starts)} starts recorded."

    def _update(self) -> None:
        self.summary_html.value = f"<p>{self.summary()}</p>"

    def _ipython_display_(self) -> None:
        display(self.widget)
