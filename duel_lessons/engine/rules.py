"""Rule books as data: the game, and the book around it.

A :class:`Game` is the game itself: the fields that decide who wins from a position (how a move
changes the number, which divisors may be used, which numbers end the game at once, and whether
the last mover wins).  Two rule sets with the same ``Game`` have the same winner from every
number, so the solver's tables, the closed forms and the Grundy formulas are keyed on it.

A :class:`Rules` value is a rule book: its ``game`` (``rules.game``) and the book around it:

- the *table procedure*, ``when_stuck`` and ``on_invalid``: what happens at the table when a
  player cannot move (the game ends, or they pass) or names a number that is not an allowed
  divisor (asked again, or the turn is lost).  Neither changes who wins from a position, so
  neither is part of the ``Game``: a stuck player's opponent faces the same number and is
  stuck too, so two passes end the game with the same last mover as ending it at once; and
  a perfect player never names a wrong number.
- the *starts*, ``default_start``, ``min_start``, ``composite_start`` and ``start_rule``: which
  numbers a match may begin from.  They choose positions; they do not change who wins from one.
- the *presentation*: ``name``, ``title``, ``source`` and ``wording``.

The four rule books are four such values; a custom variant is one more value made with
:meth:`Rules.variant`.  The engine has no special cases for any book.

>>> book = get_rules("divisor-duel")
>>> book.game == book.variant(name="my-copy", title="My copy", when_stuck="pass").game
True
>>> book.game == book.variant(divisors="even").game
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import ModuleType
from typing import Literal, get_args

from duel_lessons.engine.errors import BadStartError, DuelError, RulesError
from duel_lessons.engine.numbers import (
    MAX_NUMBER,
    divisors,
    factorint,
    is_prime,
    smallest_prime_factor,
    whole_number,
)
from duel_lessons.engine.registry import Registry

MoveKind = Literal["subtract", "divide"]
Family = Literal["all", "even", "odd", "prime"]
Target = Literal["none", "prime", "one"]
WhenStuck = Literal["end", "pass"]
OnInvalid = Literal["retry", "lose-turn"]

__all__ = [
    "MAX_NUMBER",
    "RULEBOOKS",
    "BadStartError",
    "DuelError",
    "Game",
    "Rules",
    "RulesError",
    "Wording",
    "book_modules",
    "custom_variants",
    "get_rules",
    "is_prime",
    "register",
    "rescan_books",
    "smallest_prime_factor",
    "unregister",
    "whole_number",
]


@dataclass(frozen=True)
class Wording:
    """Templates for the terminal transcript, in one rule book's own words.

    Placeholders: ``{n}`` current number, ``{d}`` divisor, ``{new}`` result,
    ``{divisors}`` the legal divisors, ``{player}`` whose turn it is,
    ``{winner}``, ``{loser}``, ``{why}`` a reason sentence, ``{title}``, and in
    ``moved`` ``{you}``: "You" for a person at the keyboard, else the player's name.
    An empty template prints nothing.
    """

    opening: str = "Game start! {title}. Current number: {n}"
    turn: str = "{player}'s turn."
    show: str = "Current number: {n}\nAllowed divisors of {n}: {divisors}"
    separator: str = ", "
    prompt: str = "{player}, choose a divisor: "
    moved: str = "{player} plays {d}: {n} {op} {d} = {new}."
    lost_turn: str = "{why} {player} loses the turn."
    show_stuck: str = "Current number: {n}"
    passed: str = "{why} Turn passed."
    end_stuck: str = "{why} {winner} wins!"
    end_passes: str = "Neither player can move. {winner} wins!"
    end_reached: str = "{why} {winner} wins!"


@dataclass(frozen=True)
class Game:
    """The game itself: the fields that decide who wins from a position, and the moves they allow.

    ``move``: ``"subtract"`` (N -> N - d) or ``"divide"`` (N -> N / d).
    Allowed divisors are the d with d | N and d < N, where d = 1 is allowed only
    if ``allow_one``, and d > 1 must belong to ``divisors`` (all, even, odd, prime).
    ``win_on_reaching`` / ``lose_on_reaching``: a number ("prime" or "one") that
    ends the game at once, won / lost by the player who moved there (a start on
    such a number counts as reached by the opponent).  When nobody can move, the
    last player to move wins if ``last_mover_wins`` (normal play), else loses (misère play).

    >>> g = Game(divisors="even")
    >>> g.divisors_of(24), g.result(24, 6), g.why_not(3, 24)
    ((2, 4, 6, 8, 12), 18, '3 is odd, but only even divisors are allowed')
    """

    move: MoveKind = "subtract"
    divisors: Family = "all"
    allow_one: bool = False
    win_on_reaching: Target = "none"
    lose_on_reaching: Target = "none"
    last_mover_wins: bool = True

    def __post_init__(self) -> None:
        choices = {"move": MoveKind, "divisors": Family, "win_on_reaching": Target, "lose_on_reaching": Target}
        for attr, kind in choices.items():
            _check_choice(attr, getattr(self, attr), kind)
        for attr in ("allow_one", "last_mover_wins"):
            _check_bool(attr, getattr(self, attr))
        if self.move == "divide" and self.allow_one:
            raise RulesError(
                "Dividing by 1 leaves the number unchanged, so the game could go on "
                "for ever: allow_one needs move='subtract'."
            )
        if self.win_on_reaching != "none" and self.win_on_reaching == self.lose_on_reaching:
            raise RulesError("Reaching the same kind of number cannot both win and lose.")

    # -- divisors -------------------------------------------------------------

    def allows(self, d: int, n: int) -> bool:
        """Whether d is a legal divisor to play from n (ignoring game endings)."""
        return self.why_not(d, n) is None

    def why_not(self, d: int, n: int) -> str | None:
        """The reason d cannot be played from n, or None if it can."""
        if d < 1:
            return f"{d} is not a positive whole number"
        if d >= n:
            return f"{d} is not less than {n}"
        if d == 1:
            return None if self.allow_one else f"1 is not allowed: only {self.divisor_words}"
        if n % d:
            return f"{d} does not divide {n}"
        if self.divisors == "even" and d % 2:
            return f"{d} is odd, but only even divisors are allowed"
        if self.divisors == "odd" and not d % 2:
            return f"{d} is even, but only odd divisors are allowed"
        if self.divisors == "prime" and not is_prime(d):
            return f"{d} is not prime, but only prime divisors are allowed"
        return None

    def divisors_of(self, n: int) -> tuple[int, ...]:
        """The allowed divisors of n, smallest first (uses sympy)."""
        if n < 2:
            return ()
        if self.divisors == "prime":
            candidates = [p for p in sorted(factorint(n)) if p < n]
        else:
            candidates = [d for d in divisors(n)[1:-1] if self.allows(d, n)]
        return ((1,) if self.allow_one else ()) + tuple(candidates)

    def smallest_divisor(self, n: int) -> int | None:
        """The smallest allowed divisor of n, or None; factorises n but never lists its divisors."""
        if n < 2:
            return None
        if self.allow_one:
            return 1
        if self.divisors == "even":
            return 2 if n % 2 == 0 and n > 2 else None
        # "all" and "prime": the smallest divisor above 1 is the smallest prime factor.
        p = smallest_prime_factor(n, skip_two=self.divisors == "odd")
        return p if p is not None and p < n else None

    def result(self, n: int, d: int) -> int:
        """The number after playing d from n (d is assumed legal)."""
        return n - d if self.move == "subtract" else n // d

    # -- endings --------------------------------------------------------------

    @staticmethod
    def is_kind(n: int, target: Target) -> bool:
        """Whether n is of the kind named by a target ("prime", "one" or "none")."""
        if target == "prime":
            return is_prime(n)
        return target == "one" and n == 1

    def ends_on_reaching(self, n: int) -> Literal["win", "loss"] | None:
        """Whether reaching n ends the game, won or lost by the player who moved there."""
        if self.is_kind(n, self.win_on_reaching):
            return "win"
        if self.is_kind(n, self.lose_on_reaching):
            return "loss"
        return None

    # -- words ----------------------------------------------------------------

    @property
    def last_mover_rule(self) -> str:
        """Who wins when nobody can move, in words: 'the last player to move wins' (or 'loses', misère)."""
        return f"the last player to move {'wins' if self.last_mover_wins else 'loses'}"

    @property
    def divisor_words(self) -> str:
        """Plain words for the allowed divisors, e.g. 'even divisors d with 1 < d < N'."""
        kind = "proper divisors" if self.divisors == "all" else f"{self.divisors} divisors"
        words = f"{kind} d with 1 < d < N"
        return f"1 or {words}" if self.allow_one else words


def _check_choice(attr: str, value: object, kind: object) -> None:
    if value not in get_args(kind):
        options = ", ".join(repr(v) for v in get_args(kind))
        raise RulesError(f"{attr}={value!r} is not one of {options}.")


def _check_bool(attr: str, value: object) -> None:
    if not isinstance(value, bool):
        raise RulesError(f"{attr} must be True or False, not {value!r}.")


#: The fields of a Rules value that make up its Game (in Game's order).
_GAME_FIELDS = tuple(f.name for f in fields(Game))


@dataclass(frozen=True)
class Rules:
    """One rule book: the game (``rules.game``, a :class:`Game`) and the book around it, as data.

    The fields of :class:`Game` (``move``, ``divisors``, ``allow_one``, ``win_on_reaching``,
    ``lose_on_reaching``, ``last_mover_wins``) are given and read here as well, and the game's
    methods (``divisors_of``, ``result``, ...) answer here too.  The rest is the book (see the
    module docstring): ``when_stuck``: with no legal move the game ``"end"``s, or the player must
    ``"pass"`` and two passes in a row end it.  ``on_invalid``: a number that is not a legal
    divisor is refused (``"retry"``) or costs the turn (``"lose-turn"``).  The starts, the name,
    title, source and wording of the transcript.
    """

    name: str
    title: str
    move: MoveKind = "subtract"
    divisors: Family = "all"
    allow_one: bool = False
    win_on_reaching: Target = "none"
    lose_on_reaching: Target = "none"
    when_stuck: WhenStuck = "end"
    last_mover_wins: bool = True
    on_invalid: OnInvalid = "retry"
    default_start: int = 60
    min_start: int = 1
    composite_start: bool = False
    start_rule: str = "Any whole number from 1 up can start."
    source: str = "custom variant"
    wording: Wording = field(default_factory=Wording, compare=False)
    game: Game = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", Game(**{attr: getattr(self, attr) for attr in _GAME_FIELDS}))
        _check_choice("when_stuck", self.when_stuck, WhenStuck)
        _check_choice("on_invalid", self.on_invalid, OnInvalid)
        _check_bool("composite_start", self.composite_start)
        if not self.name or not self.name.strip():
            raise RulesError("A variant needs a name.")
        if not isinstance(self.min_start, int) or self.min_start < 1:
            raise RulesError(f"min_start must be a whole number of at least 1, not {self.min_start!r}.")
        if not isinstance(self.default_start, int) or isinstance(self.default_start, bool):
            raise RulesError(f"default_start must be a whole number, not {self.default_start!r}.")

    # -- the game's moves and endings (see Game) ------------------------------

    def allows(self, d: int, n: int) -> bool:
        """Whether d is a legal divisor to play from n (ignoring game endings): :meth:`Game.allows`."""
        return self.game.allows(d, n)

    def why_not(self, d: int, n: int) -> str | None:
        """The reason d cannot be played from n, or None if it can: :meth:`Game.why_not`."""
        return self.game.why_not(d, n)

    def divisors_of(self, n: int) -> tuple[int, ...]:
        """The allowed divisors of n, smallest first: :meth:`Game.divisors_of`."""
        return self.game.divisors_of(n)

    def smallest_divisor(self, n: int) -> int | None:
        """The smallest allowed divisor of n, or None: :meth:`Game.smallest_divisor`."""
        return self.game.smallest_divisor(n)

    def result(self, n: int, d: int) -> int:
        """The number after playing d from n (d is assumed legal): :meth:`Game.result`."""
        return self.game.result(n, d)

    is_kind = staticmethod(Game.is_kind)

    def ends_on_reaching(self, n: int) -> Literal["win", "loss"] | None:
        """Whether reaching n ends the game, won or lost by the player who moved there (see Game)."""
        return self.game.ends_on_reaching(n)

    # -- starts ---------------------------------------------------------------

    def start_problem(self, n: object) -> str | None:
        """Why n cannot start a game under these rules, or None if it can.

        >>> DIVISION_DUEL = get_rules("division-duel")
        >>> DIVISION_DUEL.start_problem(60) is None
        True
        >>> DIVISION_DUEL.start_problem(7)
        '7 is prime, so it cannot start Division Duel. Division Duel starts from a composite number (book 001).'
        """
        if isinstance(n, bool) or not isinstance(n, int):
            try:
                n = whole_number(n, "The start")
            except DuelError as error:
                return str(error)
        if n < 1:
            return f"The start must be a positive whole number, not {n}."
        if n > MAX_NUMBER:
            return f"The start {n} is too big: the largest start is 10**18."
        if n < self.min_start:
            return f"{n} is too small to start {self.title}. {self.start_rule}"
        if self.composite_start and (n == 1 or is_prime(n)):
            what = "1 is neither prime nor composite" if n == 1 else f"{n} is prime"
            return f"{what}, so it cannot start {self.title}. {self.start_rule}"
        if self.when_stuck == "pass" and not self.divisors_of(n) and self.ends_on_reaching(n) is None:
            return (
                f"{n} has no allowed divisors, so neither player could ever move and there "
                f"would be no last mover to win. Choose a start with a legal move."
            )
        return None

    def check_start(self, n: object) -> int:
        """Return n as an int if it is a legal start, else raise BadStartError (see :meth:`start_problem`)."""
        problem = self.start_problem(n)
        if problem is not None:
            raise BadStartError(problem)
        return whole_number(n, "The start", BadStartError)

    # -- description ----------------------------------------------------------

    @property
    def last_mover_rule(self) -> str:
        """Who wins when nobody can move, in words: :attr:`Game.last_mover_rule`."""
        return self.game.last_mover_rule

    @staticmethod
    def target_words(target: Target) -> str:
        """A target number in words: 'a prime' or '1'."""
        return "a prime" if target == "prime" else "1"

    @property
    def divisor_words(self) -> str:
        """Plain words for the allowed divisors, e.g. 'even divisors d with 1 < d < N': :attr:`Game.divisor_words`."""
        return self.game.divisor_words

    def describe(self) -> str:
        """The rules in a few plain sentences."""
        verb = "subtract d from N" if self.move == "subtract" else "divide N by d"
        lines = [f"{self.title} ({self.name}; {self.source}).", f"On your turn, {verb}, using {self.divisor_words}."]
        for target, outcome in ((self.win_on_reaching, "wins"), (self.lose_on_reaching, "loses")):
            if target != "none":
                lines.append(f"Whoever moves to {'a prime' if target == 'prime' else '1'} {outcome} at once.")
        last = "wins" if self.last_mover_wins else "loses"
        if self.when_stuck == "pass":
            lines.append(f"With no legal move you pass; after two passes the last player to move {last}.")
        else:
            lines.append(f"With no legal move the game ends and the last player to move {last}.")
        if self.on_invalid == "lose-turn":
            lines.append("Naming a number that is not an allowed divisor loses your turn.")
        lines.append(self.start_rule)
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return "\n\n".join(
            ["**" + line + "**" if i == 0 else line for i, line in enumerate(self.describe().splitlines())]
        )

    # -- custom variants ------------------------------------------------------

    def variant(self, name: str | None = None, **changes: object) -> Rules:
        """A new variant: these rules with some fields changed, in plain wording.

        >>> get_rules("divisor-duel").variant(divisors="even").name
        'divisor-duel/divisors=even'
        """
        known = {f.name for f in fields(self) if f.init}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise RulesError(f"Unknown rule field(s): {', '.join(unknown)}. Known: {', '.join(sorted(known))}.")
        title = str(changes.pop("title", f"{self.title} variant" if changes else self.title))
        if name is None:
            parts = [f"{k}={_show(v)}" for k, v in sorted(changes.items())] or [title.lower().replace(" ", "-")]
            name = self.name + "/" + ",".join(parts)
        defaults: dict[str, object] = {"source": "custom variant", "wording": Wording()}
        return replace(self, **{**defaults, **changes, "name": name, "title": title})  # type: ignore[arg-type]


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- the registry -----------------------------------------------------------------

#: The rule books: every module of duel_lessons.books (shipped, read-only) and custom variants.
_BOOKS: Registry[Rules] = Registry("duel_lessons.books", "RULES")

#: The shipped rule books by name (a read-only view, filled on first use from duel_lessons.books).
RULEBOOKS: Mapping[str, Rules] = _BOOKS.shipped


def get_rules(name: str | Rules) -> Rules:
    """Look up a rule book by name or book number: shipped books first, then custom variants.

    A Rules value is returned as it is; anything else that is not a known name raises RulesError.

    >>> get_rules("003").title, get_rules("Divisor Duel").name
    ('Factor Duel', 'divisor-duel')
    """
    if isinstance(name, Rules):
        return name
    return _BOOKS.get(name)


def register(rules: Rules) -> Rules:
    """Add a custom variant to the registry of custom variants so that it can be named.

    A shipped book's name (or book number) is refused with RulesError: shipped books are read-only.
    """
    if not isinstance(rules, Rules):
        raise RulesError(f"Only a Rules value can be registered, not {rules!r}.")
    return _BOOKS.register(rules)


def unregister(name: str) -> None:
    """Forget a custom variant (shipped books stay)."""
    _BOOKS.unregister(name)


def custom_variants() -> Mapping[str, Rules]:
    """The registered custom variants by name (a copy)."""
    return _BOOKS.custom


def book_modules() -> tuple[ModuleType, ...]:
    """The modules of the shipped rule books (duel_lessons.books), scanned on first use."""
    return _BOOKS.modules()


def rescan_books() -> None:
    """Scan duel_lessons.books again, after a book module was added at run time."""
    _BOOKS.rescan()


def __getattr__(name: str) -> Rules:
    """The shipped books' Rules under their old names: ``from duel_lessons.engine.rules import DIVISOR_DUEL``.

    New code imports them from their book module (``duel_lessons.books.divisor_duel``) or from
    ``duel_lessons``; this keeps older imports working without the engine importing the books.
    """
    if not name.startswith("_"):
        for module in book_modules():
            value = getattr(module, name, None)
            if name in getattr(module, "__all__", ()) and isinstance(value, Rules):
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
