"""duel-lessons: two-player divisor games for Jupyter lessons."""

from duel_lessons.engine.game import GameOverError, GameState, IllegalMoveError, LostTurn, Moved, Passed, new_game
from duel_lessons.engine.rules import (
    DIVISION_DUEL,
    DIVISOR_DUEL,
    FACTOR_DUEL,
    MAX_NUMBER,
    NUMBER_FACTOR,
    RULEBOOKS,
    BadStartError,
    DuelError,
    Rules,
    RulesError,
    Wording,
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
    "get_rules",
    "new_game",
    "register",
]
__version__ = "0.1.0"
