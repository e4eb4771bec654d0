"""The solver's kernel, exactly: its small loops on hand-worked cases, and how it chooses numba or plain Python.

The kernel's tables are checked against brute force elsewhere (tests/test_solver.py, tests/test_retrograde.py);
here each function's own decisions, with values worked out by hand, fast enough for mutation testing.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from duel_lessons.solving import kernel

# -- numba or plain Python -----------------------------------------------------------------------------------


def fake_numba(monkeypatch: pytest.MonkeyPatch, config: object) -> object:
    """Put a module named numba with this ``config`` and a marker ``njit`` in sys.modules; return the marker."""
    module = types.ModuleType("numba")
    njit = object()
    module.config = config  # type: ignore[attr-defined]
    module.njit = njit  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "numba", module)
    return njit


def test_numba_is_used_unless_it_is_missing_or_its_jit_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    njit = fake_numba(monkeypatch, types.SimpleNamespace(DISABLE_JIT=0))
    assert kernel._load_numba() is njit
    fake_numba(monkeypatch, types.SimpleNamespace(DISABLE_JIT=1))
    assert kernel._load_numba() is None
    njit = fake_numba(monkeypatch, types.SimpleNamespace())  # an old numba without the setting
    assert kernel._load_numba() is njit
    monkeypatch.setitem(sys.modules, "numba", None)  # cannot be imported
    assert kernel._load_numba() is None


class Njit:
    """numba.njit as the kernel calls it, recording each call; ``cache=True`` refused when ``no_cache``."""

    def __init__(self, no_cache: bool = False) -> None:
        self.calls: list[dict[str, Any]] = []
        self.no_cache = no_cache

    def __call__(self, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        self.calls.append(options)
        if options["cache"] and self.no_cache:
            raise RuntimeError("cannot cache function 'f': no locator available for file '...'")
        return lambda function: ("compiled", function.__name__, options["cache"])


def test_the_kernel_is_cached_on_disk_where_numba_can_and_in_memory_where_it_cannot() -> None:
    def f() -> None: ...

    njit = Njit()
    assert kernel._jit(njit, f, {"inline": "always"}) == ("compiled", "f", True)
    assert njit.calls == [{"cache": True, "inline": "always"}]
    njit = Njit(no_cache=True)
    assert kernel._jit(njit, f, {"error_model": "numpy"}) == ("compiled", "f", False)
    assert njit.calls == [{"cache": True, "error_model": "numpy"}, {"cache": False, "error_model": "numpy"}]


@pytest.fixture
def fresh_kernel(monkeypatch: pytest.MonkeyPatch) -> dict[str, Callable[..., Any]]:
    """An empty kernel, and the module's names put back afterwards (loading the kernel rebinds them)."""
    empty: dict[str, Callable[..., Any]] = {}
    monkeypatch.setattr(kernel, "_kernel", empty)
    for name in kernel._HELPERS:
        monkeypatch.setattr(kernel, name, getattr(kernel, f"_{name}"))
    return empty


def test_without_numba_the_kernel_is_the_plain_functions(
    fresh_kernel: dict[str, Callable[..., Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kernel, "_load_numba", lambda: None)
    made = kernel._compiled_kernel()
    assert made is fresh_kernel
    assert list(made) == ["all_divisors", "is_legal", "solve", "winning_moves"]
    assert made["solve"] is kernel._solve and made["winning_moves"] is kernel._winning_moves
    assert made["all_divisors"] is kernel._all_divisors and made["is_legal"] is kernel._is_legal
    assert kernel.compiled() is False and kernel.COMPILED is False


def test_with_numba_each_function_is_compiled_in_order_and_the_next_ones_see_it(
    fresh_kernel: dict[str, Callable[..., Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, object]] = []

    def jit(njit: object, function: Callable[..., Any], options: dict[str, Any]) -> object:
        assert njit == "njit"  # numba's, as _load_numba gave it
        seen.append((function.__name__, kernel.all_divisors))  # what a compiled caller would resolve
        return ("compiled", function.__name__, tuple(sorted(options.items())))

    solve, winning_moves = kernel.solve, kernel.winning_moves
    monkeypatch.setattr(kernel, "_load_numba", lambda: "njit")
    monkeypatch.setattr(kernel, "_jit", jit)
    made = kernel._compiled_kernel()
    assert [name for name, _ in seen] == ["_all_divisors", "_is_legal", "_solve", "_winning_moves"]
    assert seen[0][1] is kernel._all_divisors  # before: the plain helper
    assert seen[2][1] == ("compiled", "_all_divisors", (("error_model", "numpy"), ("inline", "always")))
    assert made["solve"] == ("compiled", "_solve", (("error_model", "numpy"),))
    assert kernel.is_legal == made["is_legal"] and kernel.all_divisors == made["all_divisors"]
    assert kernel.solve is solve and kernel.winning_moves is winning_moves  # the module's own, which use the kernel
    assert kernel.compiled() is True and kernel.COMPILED is True
    kernel._compiled_kernel()  # made once: not compiled again
    assert len(seen) == 4


def test_an_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"^module 'duel_lessons.solving.kernel' has no attribute 'COMPILE'$"):
        kernel.COMPILE  # noqa: B018


def test_a_short_range_before_the_kernel_is_loaded_runs_plain(
    fresh_kernel: dict[str, Callable[..., Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, tuple[int, ...]]] = []
    monkeypatch.setattr(kernel, "_solve", lambda *a: calls.append(("plain", a)))
    monkeypatch.setattr(kernel, "_compiled_kernel", lambda: {"solve": lambda *a: calls.append(("kernel", a))})
    kernel.solve(1, 1 + 4095)  # 4,095 numbers: plain
    kernel.solve(1, 1 + 4096)  # 4,096: the kernel
    fresh_kernel["solve"] = kernel._solve  # once loaded, every range goes to the kernel
    kernel.solve(5, 6)
    assert calls == [("plain", (1, 4096)), ("kernel", (1, 4097)), ("kernel", (5, 6))]
    assert kernel.PLAIN_BELOW == 4096


def test_winning_moves_returns_a_python_int(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "_compiled_kernel", lambda: {"winning_moves": lambda *a: np.int64(sum(a))})
    found = kernel.winning_moves(3, 4)
    assert found == 7 and type(found) is int


# -- the loops, on cases worked out by hand -------------------------------------------------------------


def test_the_sieve_by_hand() -> None:
    assert kernel.sieve(1).tolist() == [0, 0]
    assert kernel.sieve(4).tolist() == [0, 0, 2, 3, 2]
    spf = kernel.sieve(50)
    assert spf.dtype == np.int32
    assert spf[[9, 15, 21, 25, 35, 47, 49, 50]].tolist() == [3, 3, 3, 5, 5, 47, 7, 2]  # 49 = 7 * 7: the last p
    assert kernel.sieve(49)[49] == 7 and kernel.sieve(48)[47] == 47


def divisors(n: int) -> list[int]:
    spf, out = kernel.sieve(max(n, 2)), np.zeros(kernel.DIVISOR_BUFFER, np.int64)
    count = kernel._all_divisors(n, spf, out)
    return sorted(out[:count].tolist())


def test_every_divisor_once() -> None:
    assert divisors(1) == [1]
    assert divisors(2) == [1, 2]
    assert divisors(12) == [1, 2, 3, 4, 6, 12]
    assert divisors(36) == [1, 2, 3, 4, 6, 9, 12, 18, 36]
    assert divisors(32) == [1, 2, 4, 8, 16, 32]
    assert divisors(97) == [1, 97]


@pytest.mark.parametrize(
    ("d", "n", "family", "allow_one", "legal"),
    [
        (12, 12, kernel.ALL, 1, False),  # n itself never
        (1, 12, kernel.ALL, 1, True),
        (1, 12, kernel.ALL, 0, False),
        (1, 12, kernel.EVEN, 1, True),  # 1 is judged by allow_one alone, whatever the family
        (1, 12, kernel.PRIME, 2, False),
        (4, 12, kernel.EVEN, 0, True),
        (3, 12, kernel.EVEN, 0, False),
        (3, 12, kernel.ODD, 0, True),
        (6, 12, kernel.ODD, 0, False),
        (3, 12, kernel.PRIME, 0, True),
        (4, 12, kernel.PRIME, 0, False),
        (6, 12, kernel.ALL, 0, True),
    ],
)
def test_which_divisors_may_be_played(d: int, n: int, family: int, allow_one: int, legal: bool) -> None:
    assert kernel._is_legal(d, n, family, allow_one, kernel.sieve(12)) is legal


def table(upto: int, move: int, family: int, allow_one: int, win: int, lose: int, last_mover_wins: int) -> list[tuple]:
    spf = kernel.sieve(upto)
    outcome = np.full(upto + 1, -1, np.int8)
    grundy = np.full(upto + 1, -1, np.int32)
    remoteness = np.full(upto + 1, -1, np.int32)
    work = np.zeros(kernel.WORK_SIZE, np.int64)
    kernel._solve(
        1, upto + 1, move, family, allow_one, win, lose, last_mover_wins, spf, outcome, grundy, remoteness, work
    )
    return [(int(outcome[n]), int(grundy[n]), int(remoteness[n])) for n in range(1, upto + 1)]


def test_subtracting_any_proper_divisor_by_hand() -> None:
    """Take away a divisor d < n, 1 allowed (a variant of Divisor Duel); stuck at 1, and the last mover wins.

    1 stuck: P, g 0, r 0.  2 -> 1: N, g 1, r 1.  3 -> 2: P, g 0, r 2.  4 -> 3, 2: N (to 3), g mex{0, 1} = 2, r 3.
    5 -> 4: P, g 0, r 4.  6 -> 5, 4, 3: N, g mex{0, 2, 0} = 1, r 1 + min(4, 2) = 3.
    """
    got = table(6, kernel.SUBTRACT, kernel.ALL, 1, kernel.NONE, kernel.NONE, 1)
    assert got == [(0, 0, 0), (1, 1, 1), (0, 0, 2), (1, 2, 3), (0, 0, 4), (1, 1, 3)]


def test_misere_a_stuck_player_wins_and_the_slowest_loss_is_played() -> None:
    """The same moves, the last mover loses: 1 is N (g 0, r 0); 2 -> 1 only: P (g 1, r 1); 3 -> 2: N (g 0, r 2);
    4 -> 3 (N), 2 (P): N, g mex{0, 1} = 2, r 1 + 1 = 2 (the move to 2)."""
    got = table(4, kernel.SUBTRACT, kernel.ALL, 1, kernel.NONE, kernel.NONE, 0)
    assert got == [(1, 0, 0), (0, 1, 1), (1, 0, 2), (1, 2, 2)]


def test_dividing_by_a_prime_with_targets_by_hand() -> None:
    """Divide n by a prime divisor; reaching a prime wins (win target), or loses (lose target).

    Win target: 2, 3, 5 are reached and won: P, g 0, r 0.  4 -> 2: N, g 1, r 1.  6 -> 3, 2: N, g 1, r 1.
    1 has no prime divisor: stuck, P.  Lose target: 2, 3, 5 are N, g 1, r 1; 4 -> 2 only: P, g 0, r 2.
    """
    win = table(6, kernel.DIVIDE, kernel.PRIME, 0, kernel.PRIME_NUMBER, kernel.NONE, 1)
    assert win == [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 1, 1), (0, 0, 0), (1, 1, 1)]
    lose = table(5, kernel.DIVIDE, kernel.PRIME, 0, kernel.NONE, kernel.PRIME_NUMBER, 1)
    assert lose == [(0, 0, 0), (1, 1, 1), (1, 1, 1), (0, 0, 2), (1, 1, 1)]
    # Dividing never reaches 1 (d < n): reaching 1 is a target of the subtraction game, 1 allowed.
    one = table(3, kernel.SUBTRACT, kernel.ALL, 1, kernel.ONE, kernel.NONE, 1)  # 1 reached wins: 2 -> 1, 3 -> 2
    assert one == [(0, 0, 0), (1, 1, 1), (0, 0, 2)]
    lose_one = table(3, kernel.SUBTRACT, kernel.ALL, 1, kernel.NONE, kernel.ONE, 1)  # 1 reached loses
    assert lose_one == [(1, 1, 1), (0, 0, 2), (1, 1, 3)]


def moves(
    upto: int, room: int, lo: int = 1, win: int = kernel.NONE, lose: int = kernel.NONE
) -> tuple[int, list[list[int]]]:
    """The winning moves of lo..upto (take away a divisor d < n, 1 allowed; targets ``win`` and ``lose``), with room
    for ``room`` moves beyond one DIVISOR_BUFFER."""
    rows = table(upto, kernel.SUBTRACT, kernel.ALL, 1, win, lose, 1)
    outcome = np.array([-1] + [r[0] for r in rows], np.int8)
    starts = np.zeros(upto - lo + 2, np.int64)
    found = np.zeros(kernel.DIVISOR_BUFFER + room, np.int64)
    divisors = np.zeros(kernel.DIVISOR_BUFFER, np.int64)
    spf = kernel.sieve(upto)
    stop = kernel._winning_moves(
        lo, upto + 1, kernel.SUBTRACT, kernel.ALL, 1, win, lose, spf, outcome, divisors, starts, found
    )
    return stop, [found[starts[i] : starts[i + 1]].tolist() for i in range(stop - lo)]


def test_a_position_that_ends_the_game_has_no_winning_move() -> None:
    """Reaching a prime loses: 2, 3, 5, 7 are N but the game is over there, so they list no move (5 - 1 = 4 is P).

    By hand: 1 stuck, P; 4 -> 3, 2 (both N): P; 6 -> 5, 4, 3: N by 2; 8 -> 7, 6, 4: N by 4.
    """
    stop, found = moves(8, 100, lose=kernel.PRIME_NUMBER)
    assert stop == 9 and found == [[], [], [], [], [], [2], [], [4]]
    # Reaching 1 wins: 1 is P (over); 2 -> 1 wins by 1; 3 -> 2 only: P; 4 -> 3 (P) wins by 1, 4 -> 2 does not.
    stop, found = moves(4, 100, win=kernel.ONE)
    assert stop == 5 and found == [[], [1], [], [1]]


def test_winning_moves_smallest_first_by_hand() -> None:
    """Take away a divisor d < n, 1 allowed: the P-positions are the odd numbers (the table above).

    So an even n wins exactly by its odd divisors (n - d is then odd): 2 by 1, 6 by 1 and 3, 12 by 1 and 3
    (12 - 1 = 11, 12 - 3 = 9; 12 - 2, - 4, - 6 are even); an odd n has no winning move.
    """
    stop, found = moves(12, 100)
    assert stop == 13 and len(found) == 12
    assert found[1] == [1] and found[3] == [1] and found[5] == [1, 3] and found[9] == [1, 5]
    assert found[11] == [1, 3]
    assert found[0] == found[2] == found[6] == found[10] == []
    stop, found = moves(12, 100, lo=10)  # from lo: the moves of 10, 11, 12
    assert stop == 13 and found == [[1, 5], [], [1, 3]]


def test_winning_moves_stop_when_the_room_runs_out() -> None:
    stop, found = moves(12, 0)  # room for one DIVISOR_BUFFER: 1 (none) and 2 (one move) fit, then no more
    assert stop == 3 and found == [[], [1]]
    stop, found = moves(12, 1)  # one more: 3 (none) and 4 (one move) fit, at total 1 + 1,024 <= 1,025; 5 does not
    assert stop == 5 and found == [[], [1], [], [1]]
