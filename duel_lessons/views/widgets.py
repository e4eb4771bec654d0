"""Notebook widgets: a game board, P/N explorers and a variant builder.

The widgets are thin views over the engine, the oracle and the coach; they live in
:mod:`~duel_lessons.views.board` (GameBoard), :mod:`~duel_lessons.views.explorers`
(PNExplorer, FollowGame, VariantBuilder), :mod:`~duel_lessons.views.rectangles` (Rectangles: N as
rectangles of dots), :mod:`~duel_lessons.views.wording` (every
phrase the boards show) and :mod:`~duel_lessons.views.common`.  This module keeps the
import path the lessons use::

    from duel_lessons.views.widgets import GameBoard, PNExplorer, FollowGame, VariantBuilder, Rectangles

>>> board = GameBoard("divisor-duel", 60, opponent="computer", delay=0)
>>> board.choose(15)             # 60 − 15 = 45, then the computer replies
>>> board.state.number < 45
True
"""

from __future__ import annotations

from duel_lessons.views.board import MAX_BUTTONS, PN_TOOLTIP, GameBoard
from duel_lessons.views.common import (
    TextFallback,
    grouped,
    html_message,
    move_words,
    output_text,
    prose,
    read_box,
    tabulate_with_progress,
)
from duel_lessons.views.explorers import PLOT_KINDS, FollowGame, PNExplorer, VariantBuilder, draw_plot
from duel_lessons.views.rectangles import Rectangles
from duel_lessons.views.wording import DEFAULT_WORDING, BoardWording

__all__ = [
    "DEFAULT_WORDING",
    "MAX_BUTTONS",
    "PLOT_KINDS",
    "PN_TOOLTIP",
    "BoardWording",
    "FollowGame",
    "GameBoard",
    "PNExplorer",
    "Rectangles",
    "TextFallback",
    "VariantBuilder",
    "draw_plot",
    "grouped",
    "html_message",
    "move_words",
    "output_text",
    "prose",
    "read_box",
    "tabulate_with_progress",
]
