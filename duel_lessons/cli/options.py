"""Options shared by the subcommands: RULES and the custom-variant flags, numbers on the command line,
and who plays whom.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_variant_arguments(parser)
>>> rules_from_args(parser.parse_args(["divisor-duel", "--divisors", "even"])).divisors
'even'
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import TypeAlias, get_args

from duel_lessons.engine.errors import DuelError, NumberInputError
from duel_lessons.engine.numbers import read_number
from duel_lessons.engine.rules import RULEBOOKS, Family, MoveKind, OnInvalid, Rules, Target, WhenStuck, get_rules

#: What a subcommand module's ``add_parser`` receives (``parser.add_subparsers()``).
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

NAMES: tuple[str, str] = ("Player 1", "Player 2")
#: The names in a game against the computer (the human is Player 1, the computer Player 2).
COMPUTER_NAMES: tuple[str, str] = ("Player 1", "Computer")
#: The computer's level when --level is not given.
DEFAULT_LEVEL = "perfect"

#: Without a closed form, ``solve`` builds the solver's table only up to this n unless --wait is given
#: (a table of 2**21 numbers takes about half a second, one of 10**7 several seconds: see benchmarks/),
#: and ``play --vs computer`` says it is building a larger one.
QUICK_TABLE = 2**21

#: The flags that change RULES, as fields of :meth:`Rules.variant` (``--misere`` is read separately).
VARIANT_FIELDS = ("move", "divisors", "allow_one", "win_on_reaching", "lose_on_reaching", "when_stuck", "on_invalid")


def add_variant_arguments(parser: argparse.ArgumentParser, default: str | None = "divisor-duel") -> None:
    """Add RULES and the custom-variant flags (read back with :func:`rules_from_args`)."""
    shown = f"default: {default}" if default else "default: every book"
    parser.add_argument(
        "rules", nargs="?", default=default, metavar="RULES", help=f"rule book: {', '.join(RULEBOOKS)} ({shown})"
    )
    group = parser.add_argument_group("custom variant (changes applied to RULES)")
    group.add_argument("--move", choices=get_args(MoveKind), help="N -> N - d or N -> N / d")
    group.add_argument("--divisors", choices=get_args(Family), help="which divisors d > 1 may be used")
    group.add_argument("--allow-one", action=argparse.BooleanOptionalAction, default=None, help="allow d = 1")
    group.add_argument("--win-on-reaching", choices=get_args(Target), help="moving to this kind of number wins")
    group.add_argument("--lose-on-reaching", choices=get_args(Target), help="moving to this kind of number loses")
    group.add_argument("--misere", action="store_const", const=True, default=None, help="the last player to move loses")
    group.add_argument("--when-stuck", choices=get_args(WhenStuck), help="with no legal move: end the game or pass")
    group.add_argument("--on-invalid", choices=get_args(OnInvalid), help="a wrong divisor: ask again or lose the turn")


def changes_variant(args: argparse.Namespace) -> bool:
    """Whether any custom-variant flag was given."""
    return any(getattr(args, f, None) is not None for f in (*VARIANT_FIELDS, "misere"))


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule book named by ``args.rules``, changed by any custom-variant flags.

    Raises RulesError for an unknown name or an inconsistent combination.
    """
    rules = get_rules(args.rules or "divisor-duel")
    changes: dict[str, object] = {f: getattr(args, f) for f in VARIANT_FIELDS if getattr(args, f, None) is not None}
    if getattr(args, "misere", None):
        changes["last_mover_wins"] = False
    return rules.variant(None, **changes) if changes else rules


def whole_arg(text: str, what: str) -> int:
    """A whole number given on the command line (read by :func:`~duel_lessons.engine.numbers.read_number`).

    >>> whole_arg(" 60", "start")
    60
    """
    try:
        return read_number(text, what)
    except NumberInputError:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise NumberInputError(f"The {what} must be a whole number, not {shown!r}.") from None


def whole_type(what: str) -> Callable[[str], int]:
    """An argparse ``type=`` reading a whole number with :func:`whole_arg` (a clear message when it is not)."""

    def read(text: str) -> int:
        try:
            return whole_arg(text, what)
        except NumberInputError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return read


def rules_name(text: str) -> str | None:
    """The rule book that ``text`` names, or None."""
    try:
        return get_rules(text).name
    except DuelError:
        return None


def opponent_and_first(args: argparse.Namespace, rng: random.Random) -> tuple[bool, int]:
    """Whether ``play`` is against the computer, and who moves first (checking the flags agree)."""
    computer = args.vs == "computer"
    if not computer and (args.level is not None or args.computer_first):
        raise DuelError("--level and --computer-first need --vs computer (a game against the computer).")
    if args.computer_first and args.first not in (None, "2"):
        raise DuelError(f"--computer-first means --first 2, so it cannot go with --first {args.first}.")
    choice = "2" if args.computer_first else args.first or "1"
    return computer, rng.choice((1, 2)) if choice == "random" else int(choice)
