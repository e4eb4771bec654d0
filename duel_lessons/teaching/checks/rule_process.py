"""A student's rule of a list of values, run in its own process (the bot sandbox of lesson 12), for lesson 11.

Where no process can be started (Pyodide, in JupyterLite) the rule runs in the kernel under the same time limit
(:func:`duel_lessons.play.in_kernel.open_sandbox`).

The rule is asked through the sandbox as if it were a bot: the "position" number ``2 + k`` stands for the k-th list
of values. Only 0 (False), 1 (True), 2 (not a bool) or 3 (still ``...``) comes back, so whatever the rule returns is
judged in its own process, under its time limit. The sandbox (and psutil) is imported only when a rule is run where
processes exist, so the lesson's checks import where there is no sandbox (JupyterLite).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import Rules
from duel_lessons.teaching.feedback import Verdict

if TYPE_CHECKING:
    from duel_lessons.play.in_kernel import KernelSandbox
    from duel_lessons.play.sandbox import Sandbox

#: CPU seconds the student's rule may spend on one list of values, in its own process (a generous wall-clock
#: backstop is added by the sandbox): a rule that loops is stopped and named, it never hangs the notebook.
RULE_TIME = 2.0
#: After every small sum, the rule must also be right for these lists of larger values, with more parts: sums whose
#: numbers (the smallest with these values: 24, 64, 96, 256 for values 4 to 7 in Divisor Duel) are too big for brute
#: force, so a rule that looks each list up by brute force (values -> numbers -> ``brute``) runs out of time. They are
#: judged by the XOR of the values, the rule proved in section 4 (the P-sums among them come first).
BIG_LISTS = ((5, 6, 3), (7, 4, 3), (6, 5, 7, 4), (7, 7), (5, 6, 7), (4, 5, 6, 7, 1), (6, 6, 4), (7, 6, 5, 4, 4))
#: Where BIG_LISTS start among the lists the rule's process is asked about (after every small sum's values).
BIG_BASE = 1000
#: What the rule's process reports for one list of values (the rule's own value never leaves its process).
SAID_FALSE, SAID_TRUE, SAID_OTHER, SAID_NOTHING = 0, 1, 2, 3


def rule_as_bot(rule: Callable[[list[int]], object], lists: list[tuple[int, ...]]) -> Callable[[GameState], int]:
    """The student's rule, asked through the bot sandbox: the "position" number 2 + k stands for ``lists[k]``.

    Everything the rule returns is judged inside its own process (a liar's ``__eq__`` or ``__bool__`` runs there,
    under the time limit); only 0 (False), 1 (True), 2 (not a bool) or 3 (still ``...``) comes back.
    """

    def ask(state: GameState) -> int:
        said = rule(list(lists[state.number - 2]))
        if said is ...:
            return SAID_NOTHING
        if type(said) is bool:
            return int(said)
        if type(said) is int and said in (0, 1):
            return said
        return SAID_OTHER

    return ask


def rule_sandbox(
    rule: Callable[[list[int]], object], lists: list[tuple[int, ...]], rules: Rules
) -> Sandbox | KernelSandbox:
    """The sandbox that runs ``rule`` on ``lists`` (use it as a context manager): a process where processes exist."""
    from duel_lessons.play.in_kernel import open_sandbox

    sandbox: Sandbox | KernelSandbox = open_sandbox(rule_as_bot(rule, lists), rules, RULE_TIME, max_strikes=1)
    return sandbox


def ask_big(sandbox: Sandbox | KernelSandbox, rules: Rules, values: tuple[int, ...]) -> int | Verdict:
    """The rule's answer for one of BIG_LISTS (asked as list number len(small lists) + k), or the verdict on it."""
    from duel_lessons.play.referee import Forfeit

    try:
        said = sandbox.ask(new_game(rules, 2 + BIG_BASE + BIG_LISTS.index(values)))
    except Forfeit as stopped:
        return Verdict(
            "format",
            f"For values {list(values)} your rule gave no answer: it {stopped.reason}. (A rule that looks each "
            "sum up by brute force runs out of time on big sums: find a rule that uses the values only.)",
            "Your rule must return True or False for every list of values, quickly: no endless loop, no brute force.",
            key="format:error-big",
        )
    if said in (SAID_OTHER, SAID_NOTHING):
        return Verdict(
            "format",
            f"Your rule should give True or False; for values {list(values)} it gave something else.",
            key="format:not-bool",
        )
    return said
