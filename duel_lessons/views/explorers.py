"""Explorers: the P/N picture of a rule set, best play step by step, and a variant builder.

>>> builder = VariantBuilder()
>>> builder.misere_box.value = True
>>> builder.build().title
'Divisor Duel, misère'
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from duel_lessons.engine.errors import DuelError, RulesError, TurnLimitError
from duel_lessons.engine.game import GameState, Moved, Passed, new_game, play_out
from duel_lessons.engine.rules import RULEBOOKS, Rules, get_rules
from duel_lessons.engine.starts import random_start
from duel_lessons.play import coach
from duel_lessons.play.players import make_player
from duel_lessons.solving.oracle import DEFAULT_TABLE_SIZE, oracle, table_length
from duel_lessons.solving.tables import TABLE_LIMIT, Table
from duel_lessons.views.board import GameBoard, rules_key
from duel_lessons.views.board_view import Guard
from duel_lessons.views.common import (
    PROGRESS_FROM,
    TICK,
    WIDE,
    TextFallback,
    button,
    figure_output,
    html_message,
    move_words,
    output_text,
    progress_bar,
    prose,
    read_box,
    rules_for,
    rules_options,
    tabulate_with_progress,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["MAX_FOLLOW", "PLOT_KINDS", "FollowGame", "PNExplorer", "VariantBuilder", "draw_plot"]

#: FollowGame stops after this many moves (games from huge numbers can be very long).
MAX_FOLLOW = 500
#: The P/N explorer's pictures: every plot of the registry (views.plots.PLOTS) that draws one rule set.
PLOT_KINDS = ("number line", "hundred square", "Grundy values", "remoteness", "game graph")


def _plot_kinds() -> tuple[str, ...]:
    from duel_lessons.views.plots import PLOTS

    return tuple(name for name, spec in PLOTS.items() if not spec.many_rules)


def draw_plot(kind: str, rules: Rules, lo: int, hi: int, large: bool = False) -> Figure:
    """``PLOTS[kind]`` for n = lo .. hi (matplotlib is loaded only when a plot is drawn).

    The hundred square shows at most its ``max_upto`` numbers from ``lo``; a bad range raises
    a DuelError (plots.PlotError) with the reason.
    """
    from duel_lessons.views.plots import PLOTS

    spec = PLOTS.get(kind)
    if spec is None or spec.many_rules:
        raise DuelError(f"Unknown plot {kind!r}. Known: {', '.join(_plot_kinds())}.")
    if kind == "hundred square":
        hi = min(hi, lo + spec.max_upto - 1)
    return spec.draw(rules, lo, hi, large=large)


#: The last line of an explorer's text fallback.
EXPLORER_NEEDS_WIDGETS = "(This explorer is a widget: open the notebook in JupyterLab or Voilà to use it.)"


def _container(children: list[w.Widget], css: str, large: bool, guard: Guard | None = None) -> w.VBox:
    # The explorers' messages are their live regions (common.html_message): their Guard has none, so one each.
    box = w.VBox([guard or Guard(live=False), *children], layout=w.Layout(max_width="68em")).add_class(css)
    return box.add_class("duel-large-type") if large else box


def _set_large(box: w.VBox, value: bool) -> None:
    if value:
        box.add_class("duel-large-type")
    else:
        box.remove_class("duel-large-type")


class PNExplorer:
    """Choose rules, a range of n and a kind of plot; the P/N picture is redrawn."""

    def __init__(
        self, rules: Rules | str = "divisor-duel", lo: int = 1, hi: int = 60, largest: int | None = None,
        *, large: bool = False,
    ) -> None:  # fmt: skip
        book = get_rules(rules)
        self.large = large
        self._extra = {} if rules_key(book) == book.name else {rules_key(book): book}
        self.rules_box = w.Dropdown(
            options=rules_options(self._extra), value=rules_key(book), description="Rules", style=WIDE,
            tooltip="Which rule book to explore",
        )  # fmt: skip
        # A slider whose end is a few times the default range, so the chosen range fills it.
        top = largest if largest is not None else max(120, 2 * hi)
        self.range_slider = w.IntRangeSlider(
            value=(lo, hi), min=1, max=top, description="n from, to", continuous_update=False, style=WIDE,
            tooltip="The range of numbers to plot", layout=w.Layout(width="36em"),
        )  # fmt: skip
        self.largest_box = w.Dropdown(
            options=[("up to 120", 120), ("up to 500", 500), ("up to 2 000", 2000), ("up to 10 000", 10_000)],
            value=min((120, 500, 2000, 10_000), key=lambda k: abs(k - top)), description="Slider range",
            style=WIDE, tooltip="How far the slider reaches",
        )  # fmt: skip
        self.plot_box = w.Dropdown(options=list(_plot_kinds()), description="Plot", style=WIDE,
                                   tooltip="Which picture to draw")  # fmt: skip
        self.message = w.HTML().add_class("duel-message")
        self.out = w.Output().add_class("duel-plot")
        self.draws = 0
        for box in (self.rules_box, self.range_slider, self.plot_box):
            box.observe(lambda _: self.redraw(), names="value")
        self.largest_box.observe(self._largest_changed, names="value")
        self.widget = _container([
            w.HBox([self.rules_box, self.plot_box], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.range_slider, self.largest_box], layout=w.Layout(flex_flow="row wrap")),
            self.message, self.out,
        ], "duel-explorer", large)  # fmt: skip
        self.redraw()

    def set_large(self, value: bool) -> None:
        """Large type for a projector (the plot is redrawn with large text)."""
        if bool(value) != self.large:
            self.large = bool(value)
            _set_large(self.widget, self.large)
            self.redraw()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self._fallback()._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        self._fallback()._ipython_display_()

    def _fallback(self) -> TextFallback:
        """The explorer, with its picture as a plain image where widgets do not run."""
        text = f"P/N explorer: {output_text(self.out).strip() or 'no picture'}. {EXPLORER_NEEDS_WIDGETS}"
        html = f"<p>{escape(text)}</p>"
        for item in self.out.outputs:
            png = item.get("data", {}).get("image/png")
            if png:
                alt = escape(str(item["data"].get("text/plain", "")), quote=True)
                note = escape(EXPLORER_NEEDS_WIDGETS)
                html = f'<img src="data:image/png;base64,{png}" alt="{alt}"><p><i>{note}</i></p>'
        return TextFallback(self.widget, text, html)

    def _largest_changed(self, change: Any) -> None:
        lo, hi = self.range_slider.value
        self.range_slider.max = change["new"]
        self.range_slider.value = (min(lo, change["new"]), min(hi, change["new"]))

    def redraw(self) -> None:
        """Draw the chosen plot for the chosen rules and range into the Output."""
        rules = rules_for(self.rules_box.value, self._extra)
        lo, hi = self.range_slider.value
        kind = self.plot_box.value
        try:
            fig = draw_plot(kind, rules, lo, hi, self.large)
        except DuelError as error:
            self.message.value = html_message(str(error), error=True)
            return
        self.message.value = ""
        self.out.outputs = (figure_output(fig, f"{kind} of {rules.title}, n = {lo} to {hi}"),)
        self.draws += 1


class FollowGame:
    """Step through best play (perfect against perfect) from a chosen start."""

    def __init__(self, rules: Rules | str = "divisor-duel", start: int | None = None, *, large: bool = False) -> None:
        self.rules = get_rules(rules)
        self.states: list[GameState] = []
        self._busy = False
        self.guard = Guard(live=False)  # its message line is its live region
        self.start_box = w.Text(
            value=str(self.rules.default_start if start is None else start), description="Start number",
            continuous_update=False, style=WIDE, tooltip="Type a start and press Enter", layout=w.Layout(width="16em"),
        )  # fmt: skip
        self.go_button = button("Show best play", "Play the game perfect against perfect", "duel-follow")
        self.prev_button = button("‹ Back", "One move back", "duel-prev")
        self.next_button = button("Next ›", "One move forward", "duel-next")
        for step_button in (self.prev_button, self.next_button):
            step_button.layout.min_width = "6em"  # never cut to "◀ B…" on a narrow screen
        self.step_slider = w.IntSlider(value=0, min=0, max=0, description="Move", style=WIDE,
                                       tooltip="Which position of the game to show")  # fmt: skip
        self.progress = progress_bar()
        self.message = w.HTML().add_class("duel-message")
        self.view = w.HTML().add_class("duel-follow-view")
        self.start_box.observe(lambda _: None if self._busy else self.compute(), names="value")
        self.go_button.on_click(self.guard.guarded(self.compute))
        self.prev_button.on_click(self.guard.guarded(lambda: self.step(-1)))
        self.next_button.on_click(self.guard.guarded(lambda: self.step(1)))
        self.step_slider.observe(lambda _: self.show(), names="value")
        self.widget = _container([
            w.HBox([self.start_box, self.go_button], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.prev_button, self.step_slider, self.next_button], layout=w.Layout(flex_flow="row wrap")),
            self.progress, self.message, self.view,
        ], "duel-follow-game", large, self.guard)  # fmt: skip
        self.compute()

    def set_large(self, value: bool) -> None:
        """Large type for a projector."""
        _set_large(self.widget, bool(value))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self._fallback()._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        self._fallback()._ipython_display_()

    def _fallback(self) -> TextFallback:
        """Best play as HTML where widgets do not run."""
        html = self.view.value + f"<p><i>{escape(EXPLORER_NEEDS_WIDGETS)}</i></p>"
        return TextFallback(self.widget, f"Best play from {self.start_box.value}. {EXPLORER_NEEDS_WIDGETS}", html)

    def compute(self) -> None:
        """Play the whole game with best play from the start in the box (engine.game.play_out)."""
        try:
            n = read_box(self.start_box.value, "the start number")
            state = new_game(self.rules, n)
            if PROGRESS_FROM < n <= DEFAULT_TABLE_SIZE:  # the oracle's table, with a progress bar
                tabulate_with_progress(self.rules, table_length(n, DEFAULT_TABLE_SIZE), self.progress)
            player = make_player("perfect")
            states = [state]
            with contextlib.suppress(TurnLimitError):  # a long game is shown cut
                play_out(state, (player, player), on_event=states.append, max_turns=MAX_FOLLOW)
        except DuelError as error:
            self.message.value = html_message(f"{error} The game shown is unchanged.", error=True)
            return
        cut = not states[-1].is_over
        self.message.value = html_message(f"Only the first {MAX_FOLLOW} moves are shown." if cut else "")
        self.states = states
        self.step_slider.max = len(states) - 1
        if self.step_slider.value == 0:
            self.show()
        else:
            self.step_slider.value = 0

    def step(self, delta: int) -> None:
        """Move the slider one step back (-1) or forward (+1)."""
        self.step_slider.value = max(0, min(self.step_slider.max, self.step_slider.value + delta))

    @property
    def current(self) -> GameState:
        """The position shown."""
        return self.states[int(self.step_slider.value)]

    def describe(self, state: GameState) -> str:
        """Outcome and remoteness of a position, in words (from the oracle)."""
        n, ask = state.number, oracle(state.rules)
        try:
            outcome = ask.outcome(n)
            remote = ask.remoteness(n)
        except DuelError:
            return f"Who wins from {n} is not known here (no table or proved formula covers it)."
        far = "unknown (beyond the table)" if remote is None else str(remote)
        meaning = "the player to move loses with best play" if outcome == "P" else "the player to move wins"
        return f"{n} is {'a P' if outcome == 'P' else 'an N'}-position ({meaning}); remoteness {far} (moves left)."

    def show(self) -> None:
        """Show the position at the slider's step."""
        if not self.states:
            return
        i = self.step_slider.value
        state = self.current
        line = " → ".join(
            f"<b>[{s.number}]</b>" if k == i else str(s.number)
            for k, s in enumerate(self.states)
            if k == 0 or isinstance(s.history[-1], Moved)
        )
        if state.is_over:
            now = escape(prose(coach.game_over_explanation(state)))
        else:
            nxt = self.states[i + 1].history[-1] if i + 1 < len(self.states) else None
            best = (
                f" Best play: {move_words(state.rules, state.number, nxt.divisor)}."
                if isinstance(nxt, Moved)
                else " Best play: pass."
                if isinstance(nxt, Passed)
                else ""
            )
            now = escape(prose(f"Player {state.to_move} to move. {self.describe(state)}{best}"))
        self.view.value = (
            f'<div style="font-size:1.1em"><b>Position {i} of {len(self.states) - 1}</b>: {now}</div>'
            f'<div style="margin-top:4px;overflow-wrap:anywhere;font-size:1.1em">Game: {line}</div>'
        )
        self.prev_button.disabled = i == 0
        self.next_button.disabled = i == len(self.states) - 1


#: The builder's menus: rule field -> label.
_OPTIONS = {
    "allow_one": "allow d = 1",
    "win_on_reaching": "reaching a prime wins",
    "last_mover_wins": "misère: the last player to move loses",
}


class VariantBuilder:
    """Build a variant of any rule book from menus, see its table and plot, and play it on a board."""

    def __init__(
        self, board: GameBoard | None = None, base: Rules | str = "divisor-duel", *, large: bool = False
    ) -> None:
        self.board = board
        self.large = large
        self.rules: Rules | None = None
        self.table: Table | None = None
        self.guard = Guard(live=False)  # its message line is its live region
        self.base_box = w.Dropdown(
            options=[(r.title, name) for name, r in RULEBOOKS.items()], value=get_rules(base).name,
            description="Start from", style=WIDE, tooltip="The rule book to change",
        ).add_class("duel-base")  # fmt: skip
        self.move_box = w.Dropdown(
            options=[("subtract d (N → N − d)", "subtract"), ("divide by d (N → N ÷ d)", "divide")],
            description="Move", style=WIDE, tooltip="What a move does to the number",
        )  # fmt: skip
        self.family_box = w.Dropdown(
            options=["all", "even", "odd", "prime"], description="Divisors allowed", style=WIDE,
            tooltip="Which proper divisors d (1 < d < N) may be used",
        )  # fmt: skip
        self.one_box = w.Checkbox(description=_OPTIONS["allow_one"], tooltip="May a player use the divisor 1?", **TICK)
        self.prime_box = w.Checkbox(
            description=_OPTIONS["win_on_reaching"], tooltip="Whoever moves to a prime wins at once", **TICK
        )
        self.misere_box = w.Checkbox(
            description=_OPTIONS["last_mover_wins"], tooltip="Turn the winning rule upside down", **TICK
        )
        self.upto_box = w.BoundedIntText(
            value=100, min=10, max=TABLE_LIMIT, description="Table up to", style=WIDE,
            tooltip="Solve every start from 1 to this number", layout=w.Layout(width="16em"),
        )  # fmt: skip
        self.build_button = button("Build", "Make the variant and solve it", "duel-build")
        self.play_button = button("Play it", "Play the variant on the game board", "duel-play-it")
        self.progress = progress_bar()
        self.message = w.HTML().add_class("duel-message")
        self.description = w.HTML().add_class("duel-variant-rules")
        self.out = w.Output().add_class("duel-variant-out")
        self.board_box = w.VBox()
        self.build_button.on_click(self.guard.guarded(self.build))
        self.play_button.on_click(self.guard.guarded(self.play_it))
        self.base_box.observe(lambda _: self._menus_from_base(), names="value")
        self.widget = _container([
            self.base_box,
            w.HBox([self.move_box, self.family_box], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.one_box, self.prime_box, self.misere_box], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.upto_box, self.build_button, self.play_button], layout=w.Layout(flex_flow="row wrap")),
            self.progress, self.message, self.description, self.out, self.board_box,
        ], "duel-variant-builder", large, self.guard)  # fmt: skip
        self._menus_from_base()
        #: Called with the board after "Play it" (the app switches to its Play tab here).
        self.on_play: Callable[[GameBoard], None] | None = None

    def set_large(self, value: bool) -> None:
        """Large type for a projector (and on the builder's own board)."""
        self.large = bool(value)
        _set_large(self.widget, self.large)
        if self.board is not None and self.board.widget in self.board_box.children:
            self.board.large = self.large

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self._fallback()._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        self._fallback()._ipython_display_()

    def _fallback(self) -> TextFallback:
        return TextFallback(self.widget, f"Variant builder. {EXPLORER_NEEDS_WIDGETS}")

    @property
    def base(self) -> Rules:
        """The shipped book the variant starts from."""
        return get_rules(self.base_box.value)

    def _menus_from_base(self) -> None:
        base = self.base
        self.move_box.value = base.move
        self.family_box.value = base.divisors
        self.one_box.value = base.allow_one
        self.prime_box.value = base.win_on_reaching == "prime"
        self.misere_box.value = not base.last_mover_wins

    def changes(self) -> dict[str, object]:
        """The rule fields that differ from the base book, from the menus."""
        base = self.base
        chosen: dict[str, object] = {
            "move": self.move_box.value,
            "divisors": self.family_box.value,
            "allow_one": self.one_box.value,
            "win_on_reaching": "prime" if self.prime_box.value else ("none" if base.win_on_reaching == "prime"
                                                                      else base.win_on_reaching),
            "last_mover_wins": not self.misere_box.value,
        }  # fmt: skip
        return {k: v for k, v in chosen.items() if getattr(base, k) != v}

    def words(self) -> str:
        """The changes in plain words, e.g. 'misère, 1 allowed'."""
        changes, words = self.changes(), []
        if "move" in changes:
            words.append("subtracting" if changes["move"] == "subtract" else "dividing")
        if "divisors" in changes:
            words.append(f"{changes['divisors']} divisors" if changes["divisors"] != "all" else "any divisor")
        if "allow_one" in changes:
            words.append("1 allowed" if changes["allow_one"] else "1 not allowed")
        if "win_on_reaching" in changes:
            words.append("reaching a prime wins" if changes["win_on_reaching"] == "prime" else "no prime win")
        if "last_mover_wins" in changes:
            words.append("misère" if not changes["last_mover_wins"] else "normal play")
        return ", ".join(words)

    def make_rules(self) -> Rules:
        """The variant as a Rules value (never registered: shipped books stay as they are)."""
        changes = self.changes()
        if not changes:
            return self.base
        return self.base.variant(title=f"{self.base.title}, {self.words()}", **changes)  # type: ignore[arg-type]

    def _clear(self) -> None:
        """No table, plot or rules of an earlier variant stay on show."""
        self.rules, self.table = None, None
        self.description.value = ""
        self.out.outputs = ()

    def build(self) -> Rules | None:
        """Make the variant, solve it and show its rules, first rows and plot.

        While it works the builder says so and shows nothing of the variant before; a failed build
        leaves only its reason.
        """
        self._clear()
        try:
            rules = self.make_rules()
        except RulesError as error:
            self.message.value = html_message(f"These choices do not make a game: {error}", error=True)
            return None
        self.message.value = html_message(f"Building {rules.title}: solving every start up to {self.upto_box.value}…")
        try:
            table = tabulate_with_progress(rules, self.upto_box.value, self.progress)
            fig = draw_plot("number line", rules, 1, min(table.upto, 100), self.large)
        except DuelError as error:
            self.message.value = html_message(str(error), error=True)
            return None
        self.rules, self.table = rules, table
        same = " These are the book's own rules." if rules is self.base else ""
        first_p = ", ".join(map(str, table.p_positions()[:30]))
        summary = f"{table.count_p():,} P-positions from 1 to {table.upto:,}. The first: {first_p}"
        self.out.outputs = (
            # The summary wraps as prose; the table's rows never do (they scroll sideways in a narrow window).
            {"output_type": "display_data", "metadata": {}, "data": {
                "text/plain": summary + "\n", "text/html": f'<p class="duel-variant-summary">{escape(summary)}</p>'}},
            {"output_type": "stream", "name": "stdout", "text": table.to_text(1, min(table.upto, 20))},
            figure_output(fig, f"number line of {rules.title}"),
        )  # fmt: skip
        self.description.value = "<br>".join(escape(prose(line)) for line in rules.describe().splitlines())
        self.message.value = html_message(f"Built {rules.title}.{same} Press 'Play it' to play it on the game board.")
        return rules

    def play_it(self) -> GameBoard | None:
        """Play the variant: on the builder's board (a new game), or on a board shown below the builder."""
        current = self.rules if self.rules is not None and self._same(self.rules) else self.build()
        if current is None:
            return None
        rules = current
        start = rules.default_start if rules.start_problem(rules.default_start) is None else None
        try:
            start = start if start is not None else random_start(rules, 10, 99)
        except DuelError as error:
            self.message.value = html_message(str(error), error=True)
            return None
        board = self.board
        if board is None:
            board = self.board = GameBoard(rules, start, opponent="computer", large=self.large)
            self.board_box.children = (board.widget,)
        else:
            board.add_rules(rules)
            board.start_game(start, rules=rules)
        self.message.value = html_message(
            f"Now playing {rules.title}, starting at {start}, on the game board. Its Rules list offers it too."
        )
        if self.on_play is not None:
            self.on_play(board)
        board.show_board()
        return board

    def _same(self, rules: Rules) -> bool:
        try:
            return rules == self.make_rules()
        except RulesError:
            return False
