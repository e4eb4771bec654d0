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
    """The board, the P/N explorer, best play and the variant builder in tabs, with a projector switch."""

    def __init__(
        self, rules: str = "divisor-duel", start: int = 60, *, large: bool = False, delay: float = 0.6
    ) -> None:
        self.board = GameBoard(rules, start, opponent="computer", level="perfect", delay=delay)
        self.explorer = PNExplorer(rules, 1, 100)
        self.follow = FollowGame(rules, start)
        self.builder = VariantBuilder(self.board)
        self.builder.on_play = lambda _board: self.show_board()
        self.tabs = w.Tab(
            children=[self.board.widget, self.explorer.widget, self.follow.widget, self.builder.widget]
        ).add_class("duel-app")
        self.tabs.titles = TITLES
        self.projector = w.ToggleButton(
            value=large, description="Projector: large type",
            tooltip="Everything in large type, to read from the back of the room", layout=w.Layout(width="auto"),
        ).add_class("duel-projector")  # fmt: skip
        self.projector.observe(lambda change: setattr(self, "large", change["new"]), names="value")
        bar = w.HBox([self.projector], layout=w.Layout(justify_content="flex-end")).add_class("duel-app-bar")
        self.widget = w.VBox([bar, self.tabs]).add_class("duel-app")
        self.large = large

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
        self.follow.set_large(value)
        self.builder.set_large(value)
        self.explorer.set_large(value)  # last: it redraws its plot
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
