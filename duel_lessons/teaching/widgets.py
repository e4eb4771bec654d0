"""Small widgets for lessons: a reveal button, a results table that no typo can break, a Parsons problem.

Both are thin: the text they show and the results they hold are plain values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

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


def parsons_widget(
    lines: Mapping[str, str], check: Callable[[list[str]], list[str]], title: str = "Your proof", *, show: bool = True
) -> w.VBox:
    """Display a Parsons problem that works by keyboard and screen reader; return the box.

    A list box holds the current order (every line at first, as shuffled): choose a line with the
    arrow keys, then Move up / Move down / Leave out; a second list box holds the lines left out
    (Put back adds the chosen one at the end). Check calls ``check(order)`` and shows the lines it
    returns. Every control has a visible label and a tooltip.

    >>> box = parsons_widget({"A": "a", "B": "b"}, lambda order: [f"checked {order}"], show=False)
    >>> order, out, buttons = box.children[1], box.children[2], box.children[3].children
    >>> [b.description for b in buttons]
    ['Move up', 'Move down', 'Leave out', 'Put back', 'Check']
    >>> order.value = "B"; buttons[0].click(); buttons[4].click()
    >>> [o[1] for o in order.options], box.children[-1].value
    (['B', 'A'], '<p>checked [&#x27;B&#x27;, &#x27;A&#x27;]</p>')
    """
    import html

    state = {"order": list(lines), "out": []}
    heading = w.HTML(f"<p><b>{html.escape(title)}</b>: choose a line with the arrow keys, then use the buttons.</p>")
    order_box = w.Select(
        description="Your order:", tooltip="The lines of your proof, in order", rows=max(2, len(lines))
    )
    out_box = w.Select(description="Left out:", tooltip="Lines you have left out", rows=max(2, len(lines) // 2))
    for box in (order_box, out_box):
        box.style.description_width = "initial"
        box.layout = w.Layout(width="auto")
    result = w.HTML().add_class("lesson-parsons-result")

    def refresh(chosen: str | None = None, chosen_out: str | None = None) -> None:
        order_box.options = [(f"{i + 1}. {x}: {lines[x]}", x) for i, x in enumerate(state["order"])]
        out_box.options = [(f"{x}: {lines[x]}", x) for x in state["out"]]
        order_box.value = chosen if chosen in state["order"] else None
        out_box.value = chosen_out if chosen_out in state["out"] else None

    def move(step: int) -> None:
        x = order_box.value
        if x is None:
            return
        i = state["order"].index(x)
        j = i + step
        if 0 <= j < len(state["order"]):
            state["order"][i], state["order"][j] = state["order"][j], state["order"][i]
        refresh(x)

    def leave_out(_: object) -> None:
        x = order_box.value
        if x is not None:
            state["order"].remove(x)
            state["out"].append(x)
            refresh(None, x)

    def put_back(_: object) -> None:
        x = out_box.value
        if x is not None:
            state["out"].remove(x)
            state["order"].append(x)
            refresh(x)

    def run_check(_: object) -> None:
        said = check(list(state["order"]))
        result.value = "<p>" + "<br>".join(html.escape(line) for line in said) + "</p>"

    actions = [
        ("Move up", "Move the chosen line one place up", lambda _: move(-1)),
        ("Move down", "Move the chosen line one place down", lambda _: move(1)),
        ("Leave out", "Leave the chosen line out of your proof", leave_out),
        ("Put back", "Put the chosen left-out line back, at the end", put_back),
        ("Check", "Check your order", run_check),
    ]
    buttons = []
    for description, tooltip, action in actions:
        button = w.Button(description=description, tooltip=tooltip, layout=w.Layout(width="auto"))
        button.on_click(action)
        buttons.append(button)
    refresh()
    box = w.VBox([heading, order_box, out_box, w.HBox(buttons), result]).add_class("lesson-parsons")
    if show:
        display(box)
    return box
