"""The game app (notebooks/play.ipynb, shown by Voilà without code): play, explore, follow best play, invent.

>>> app = PlayApp(delay=0)
>>> app.large = True
>>> app.board.large, "duel-large-type" in app.tabs._dom_classes
(True, True)
>>> app.builder.play_it() is app.board and app.tabs.selected_index == 0
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from duel_lessons.views.board import GameBoard
from duel_lessons.views.common import TextFallback
from duel_lessons.views.explorers import FollowGame, PNExplorer, VariantBuilder

__all__ = ["PlayApp"]

TITLES = ("Play", "P/N explorer", "Follow best play", "Invent a variant")


class PlayApp:
    """The board, the P/N explorer, best play and the variant builder in tabs, with a projector switch.

    Only the board is made at once: the other tabs are made when first opened (or first asked for, as
    ``app.explorer``), so the first card shows without waiting for them (the explorer's plot imports
    matplotlib and draws: 1-3 s of the app's start before).
    """

    def __init__(
        self, rules: str = "divisor-duel", start: int = 60, *, large: bool = False, delay: float = 0.6
    ) -> None:
        self.board = GameBoard(rules, start, opponent="computer", level="perfect", delay=delay)
        self._rules, self._start = rules, start
        self._explorer: PNExplorer | None = None
        self._follow: FollowGame | None = None
        self._builder: VariantBuilder | None = None
        #: The three other tabs' pages: each holds a line of text until its tab is first opened.
        self._pages = [w.VBox([w.HTML(f"Opening {title}…")]) for title in TITLES[1:]]
        self.tabs = w.Tab(children=[self.board.widget, *self._pages]).add_class("duel-app")
        self.tabs.titles = TITLES
        self.tabs.observe(self._opened, names="selected_index")
        self.projector = w.ToggleButton(
            value=large, description="Projector: large type",
            tooltip="Everything in large type, to read from the back of the room", layout=w.Layout(width="auto"),
        ).add_class("duel-projector")  # fmt: skip
        self.projector.observe(lambda change: setattr(self, "large", change["new"]), names="value")
        bar = w.HBox([self.projector], layout=w.Layout(justify_content="flex-end")).add_class("duel-app-bar")
        self.widget = w.VBox([bar, self.tabs]).add_class("duel-app")
        self.large = large

    @property
    def explorer(self) -> PNExplorer:
        """The P/N explorer tab (made on first use)."""
        if self._explorer is None:
            self._explorer = PNExplorer(self._rules, 1, 100, large=self.large)
            self._pages[0].children = (self._explorer.widget,)
        return self._explorer

    @property
    def follow(self) -> FollowGame:
        """The best-play tab (made on first use)."""
        if self._follow is None:
            self._follow = FollowGame(self._rules, self._start, large=self.large)
            self._pages[1].children = (self._follow.widget,)
        return self._follow

    @property
    def builder(self) -> VariantBuilder:
        """The variant builder tab (made on first use)."""
        if self._builder is None:
            self._builder = VariantBuilder(self.board, large=self.large)
            self._builder.on_play = lambda _board: self.show_board()
            self._pages[2].children = (self._builder.widget,)
        return self._builder

    def _opened(self, change: dict[str, Any]) -> None:
        """Make a tab's content when it is first opened."""
        part = {1: "explorer", 2: "follow", 3: "builder"}.get(change["new"])
        if part is not None:
            getattr(self, part)

    @property
    def large(self) -> bool:
        """Projector mode: large type on every tab."""
        return self.board.large

    @large.setter
    def large(self, value: bool) -> None:
        value = bool(value)
        for widget in (self.tabs, self.widget):
            if value:
                widget.add_class("duel-large-type")
            else:
                widget.remove_class("duel-large-type")
        self.board.large = value
        for part in (self._follow, self._builder, self._explorer):  # the explorer last: it redraws its plot
            if part is not None:
                part.set_large(value)
        if self.projector.value != value:
            self.projector.value = value

    def show_board(self) -> None:
        """Switch to the Play tab (the builder's "Play it")."""
        self.tabs.selected_index = 0

    def _fallback(self) -> TextFallback:
        return TextFallback(self.widget, self.board.text_summary(), self.board.html_summary())

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self._fallback()._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        self._fallback()._ipython_display_()
