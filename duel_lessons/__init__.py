"""duel-lessons: two-player divisor games for Jupyter lessons."""

from duel_lessons.books.division_duel import DIVISION_DUEL
from duel_lessons.books.divisor_duel import DIVISOR_DUEL
from duel_lessons.books.factor_duel import FACTOR_DUEL
from duel_lessons.books.number_factor import NUMBER_FACTOR
from duel_lessons.engine.game import GameOverError, GameState, IllegalMoveError, LostTurn, Moved, Passed, new_game
from duel_lessons.engine.rules import (
    MAX_NUMBER,
    RULEBOOKS,
    BadStartError,
    DuelError,
    Rules,
    RulesError,
    Wording,
    custom_variants,
    get_rules,
    register,
)

__all__ = [
    "DIVISION_DUEL",
    "DIVISOR_DUEL",
    "FACTOR_DUEL",
    "MAX_NUMBER",
    "NUMBER_FACTOR",
    "RULEBOOKS",
    "BadStartError",
    "DuelError",
    "GameOverError",
    "GameState",
    "IllegalMoveError",
    "LostTurn",
    "Moved",
    "Passed",
    "Rules",
    "RulesError",
    "Wording",
    "custom_variants",
    "get_rules",
    "new_game",
    "register",
]
__version__ = "0.1.0"
