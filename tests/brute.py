"""A small brute force over the game engine (GameState), independent of the solver and closed forms."""

from __future__ import annotations

from dataclasses import dataclass, field

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import Rules, get_rules


@dataclass
class Brute:
    """Who wins, how fast, and the Grundy value, by playing out every line with GameState."""

    rules: Rules
    _win: dict[tuple[int, int], bool] = field(default_factory=dict)
    _rem: dict[int, int] = field(default_factory=dict)
    _grundy: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, rules: Rules | str) -> Brute:
        return cls(get_rules(rules))

    def state(self, n: int) -> GameState:
        return GameState(self.rules, n)

    def wins(self, n: int, passes: int = 0) -> bool:
        """Whether the player to move from n wins with best play (passes followed through)."""
        key = (n, passes)
        if key not in self._win:
            s = GameState(self.rules, n, 1, passes)
            if s.is_over:
                result = s.winner == s.to_move
            elif s.must_pass:
                result = not self.wins(n, passes + 1)
            else:
                result = any(not self.wins(s.play(d).number) for d in s.legal_moves)
            self._win[key] = result
        return self._win[key]

    def outcome(self, n: int) -> str:
        return "N" if self.wins(n) else "P"

    def winning_moves(self, n: int) -> tuple[int, ...]:
        s = self.state(n)
        return tuple(d for d in s.legal_moves if not self.wins(s.play(d).number))

    def remoteness(self, n: int) -> int:
        """Moves left with best play: the winner hurries, the loser delays (passes are not moves)."""
        if n not in self._rem:
            s = self.state(n)
            children = [s.play(d).number for d in s.legal_moves]
            if s.ending == "reached-loss":
                self._rem[n] = 1  # the convention of its Grundy value 1: one move to a finished game
            elif not children:
                self._rem[n] = 0
            elif self.wins(n):
                self._rem[n] = 1 + min(self.remoteness(c) for c in children if not self.wins(c))
            else:
                self._rem[n] = 1 + max(self.remoteness(c) for c in children)
        return self._rem[n]

    def grundy(self, n: int) -> int:
        """The mex of the children's values; a number whose reaching loses counts 1 (the solver's convention)."""
        if n not in self._grundy:
            s = self.state(n)
            if s.ending == "reached-loss":
                self._grundy[n] = 1
            else:
                seen = {self.grundy(s.play(d).number) for d in s.legal_moves}
                self._grundy[n] = next(g for g in range(len(seen) + 1) if g not in seen)
        return self._grundy[n]
