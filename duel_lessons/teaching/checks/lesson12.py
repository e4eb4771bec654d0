"""Lesson 12's bot checks, exercises 2 and 3 (the rest is declared in notebooks/12-bot-tournament.lesson.toml).

The student's bot never runs in the kernel: :func:`~duel_lessons.play.tournament.round_robin` referees all of a
check's games with the bot in one sandboxed worker process, so a bot that loops is stopped and forfeits, and what it
patches dies with the worker.  The bot is then judged by its own play, read from the game records.

>>> p = {"rules": "divisor-duel", "check_upto": 30}
>>> SPEC.checks["3"](largest_odd, p).message
'Your bot won 19 and lost 19 of 38 games against Largest odd. A draw is not a win.'
>>> SPEC.checks["2"](largest_odd, p).kind, SPEC.checks["2"](fixed_even, p).kind
('misconception', 'right')
"""

from __future__ import annotations

import types
from collections.abc import Iterator

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import Rules
from duel_lessons.play.players import make_player
from duel_lessons.play.tournament import Entrant, GameRecord, round_robin
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.feedback import Verdict, is_unanswered, unanswered

SPEC = register(LessonSpec("12"))  # exercise 1, the guesses, needs and offers: notebooks/12-bot-tournament.lesson.toml
ME = "Your bot"
TIME_LIMIT = 1.0  # CPU seconds a bot may use for one move in a check
SAME_AS_PERFECT = 20  # a bot that plays Perfect's move in all of at least this many positions is named as Perfect


def largest_odd(state: GameState) -> int:
    """The largest odd divisor, or the smallest divisor when there is no odd one (the notebook's bot)."""
    odd = [d for d in state.legal_moves if d % 2 == 1]
    return odd[-1] if odd else state.legal_moves[0]


def _empty(state: GameState) -> None: ...


def _empty_with_docstring(state: GameState) -> None:
    """A bot."""


def _unwritten(bot: object) -> bool:
    """A bot whose body is still ``...``, with or without a docstring (read from its code, never called here)."""
    if not isinstance(bot, types.FunctionType):
        return is_unanswered(bot)
    code, doc = bot.__code__, isinstance(bot.__doc__, str)
    return (
        code.co_consts[doc:] == (None,) and code.co_code == (_empty_with_docstring if doc else _empty).__code__.co_code
    )


def positions(games: list[GameRecord], rules: Rules) -> Iterator[tuple[GameState, int]]:
    """Every position where the bot moved in these games, rebuilt from the records, with its move."""
    for game in games:
        state = new_game(rules, game.start)
        for move in game.moves:
            if move is not None and game.players[state.to_move - 1] == ME:
                yield state, move
            state = state.pass_turn() if move is None else state.play(move)


def _played(answer: object, name: str, opponent: tuple[str, Entrant], p: Params) -> list[GameRecord] | Verdict:
    """The bot's games against ``opponent`` from every start 2..check_upto with a move, both colours (one worker
    process for all); or the verdict if it forfeited one."""
    if _unwritten(answer):
        return unanswered()
    if not callable(answer):
        why = f"Give the bot itself, the function name without brackets: {name}."
        return Verdict("format", why, key="format:not-a-function")
    rules = rules_of(p)
    upto = int(p["check_upto"])  # every start with a move (a game with no move tests nothing)
    starts = [n for n in range(2, upto + 1) if rules.start_problem(n) is None and new_game(rules, n).legal_moves]
    entrants: dict[str, Entrant] = {ME: answer, opponent[0]: opponent[1]}
    games = [g for g in round_robin(entrants, rules, starts=starts, time_limit=TIME_LIMIT).games if ME in g.players]
    game = next((g for g in games if g.loser == ME and g.forfeit is not None), None)
    if game is None:
        return games
    reason = game.forfeit or ""
    where = f"From the start {game.start}" + (f", after the moves {list(game.moves)}" if game.moves else "")
    if reason.startswith(("returned None", "returned Ellipsis")):
        hint = "A bot must end with `return` and a divisor. Does every path through your function reach a `return`?"
        stronger = "Read your function line by line for one number, say 16: which line returns, and what?"
        return Verdict("format", f"{where}, your bot {reason}.", hint, stronger, key="format:no-return")
    if any(word in reason for word in ("disqualified", "time limit", "no answer")):
        hint, key = "Your bot took too long: is there a loop that never ends?", "forfeit:time"
        stronger = "A `while` loop must change something each time round, so that it stops. Try your bot by hand "
        stronger += "on one number first."
    else:
        hint = "Look at the number your bot faced there. What is in state.legal_moves? What did your bot return?"
        stronger = "A bot must return one of state.legal_moves every time. Test it by hand: my_bot(new_game(rules, n))"
        stronger, key = stronger + " for the number where it failed.", f"forfeit:{game.start}"
    return Verdict("miss", f"{where}, your bot forfeited: {reason}", hint, stronger, key=key)


@SPEC.check(2)
def plays_like_buggy_even(answer: object, p: Params) -> Verdict:
    """Never forfeits against Greedy, and plays the largest even divisor wherever there is one."""
    games = _played(answer, "fixed_even", ("Greedy", "greedy"), p)
    if isinstance(games, Verdict):
        return games
    for state, move in positions(games, rules_of(p)):
        even = [d for d in state.legal_moves if d % 2 == 0]
        if even and move != even[-1]:
            n = state.number
            return Verdict(
                "misconception",
                f"Your bot never forfeits, but it does not play like Buggy even: from {n} it played {move}, and {n} "
                "has even divisors.",
                "Fix only the crash: where Buggy even has an even divisor to play, play what it plays.",
                "Keep Buggy even's line for the numbers that have an even divisor, and add a second case for the "
                "numbers that have none.",
                key="not-buggy-even",
            )
    won = sum(g.winner == ME for g in games)
    return Verdict(
        "right",
        f"No forfeit in {len(games)} games against Greedy, and it plays Buggy even's move wherever Buggy even "
        f"has one. It won {won} of them.",
    )


@SPEC.check(3)
def beats_largest_odd(answer: object, p: Params) -> Verdict:
    """More wins than losses against Largest odd, no forfeit, and not the package's perfect player."""
    games = _played(answer, "my_bot", ("Largest odd", largest_odd), p)
    if isinstance(games, Verdict):
        return games
    won = sum(g.winner == ME for g in games)
    lost = len(games) - won
    score = f"Your bot won {won} and lost {lost} of {len(games)} games against Largest odd."
    perfect, met = make_player("perfect"), list(positions(games, rules_of(p))) if won > lost else []
    if len(met) >= SAME_AS_PERFECT and all(perfect(state) == move for state, move in met):
        return Verdict(
            "misconception",
            f"{score} But in all {len(met)} positions it met, it played exactly the move of the package's own "
            'Perfect player (make_player("perfect")), which reads the whole table of P- and N-positions. Handing '
            "that in is using the package's bot, not writing yours: well found, but the exercise is a strategy of "
            "your own.",
            "Write the rule yourself, from lesson 4: which numbers do you want to hand over, and which move hands "
            "one over?",
            "Start from largest_odd and change only what it does where it goes wrong.",
            key="package-perfect",
        )
    if won > lost:
        return Verdict("right", score)
    if won == lost:
        hint = "Largest odd plays perfectly except from some numbers. Play it from 2, 4, 8, 16, ... and look for a "
        stronger = "Compare Largest odd's move with every legal move from 16: which one hands over a losing number?"
        return Verdict("partial", score + " A draw is not a win.", hint + "move it misses.", stronger, key="draw")
    hint = "Start from Largest odd's idea: from an even number, leave an odd one when you can."
    stronger = "Begin with largest_odd's code; then look for the numbers where it goes wrong."
    return Verdict("miss", score, hint, stronger, key=f"lost:{won}")


def fixed_even(state: GameState) -> int:
    """The model answer to exercise 2: Buggy even, with a legal move where there is no even divisor."""
    even = [d for d in state.legal_moves if d % 2 == 0]
    return even[-1] if even else state.legal_moves[0]


def my_bot(state: GameState) -> int:
    """The model answer to exercise 3: the largest odd divisor, else the largest divisor (halving a power of 2)."""
    odd = [d for d in state.legal_moves if d % 2 == 1]
    return odd[-1] if odd else state.legal_moves[-1]


def hand_over_p(state: GameState) -> int:
    """Hands over a P-position when it can (the largest such divisor), else plays the largest divisor."""
    from duel_lessons.solving.oracle import oracle

    return (oracle(state.rules).winning_moves(state.number) or state.legal_moves)[-1]


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Buggy even with a fallback."""
    return fixed_even, (
        "even = [d for d in state.legal_moves if d % 2 == 0]; return even[-1] if even else state.legal_moves[0]. "
        "When there is no even divisor, play a legal move (here the smallest) instead of calling max on nothing."
    )


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Largest odd, mended where it goes wrong (Divisor Duel), or a bot that hands over P-positions."""
    if rules_of(p).name != "divisor-duel":
        why = "Hand over a P-position whenever some move does (the largest such divisor), else the largest divisor."
        return hand_over_p, why
    return my_bot, (
        "odd = [d for d in state.legal_moves if d % 2 == 1]; return odd[-1] if odd else state.legal_moves[-1]. "
        "Leave an odd number when you can (lesson 4); from a power of 2 halve it: 16 - 8 = 8 and 64 - 32 = 32 "
        "win, where Largest odd plays 2."
    )
