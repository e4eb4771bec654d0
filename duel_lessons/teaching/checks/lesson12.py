"""Lesson 12, "Can your bot win the league?": the bot checks and exercise 1 (the guesses are declared).

The student's bot never runs in the kernel: every game of a check is refereed by
:func:`duel_lessons.play.tournament.round_robin`, which runs the bot in one sandboxed worker
process for all of the check's games (:mod:`duel_lessons.play.sandbox`).  A bot that loops
is stopped and disqualified (it forfeits), and whatever a bot patches lives and dies in its
worker.  The checks then judge the bot by its own play, read from the game records:

* exercise 2 (``fixed_even``): no forfeit, and the largest even divisor wherever there is one,
  as *Buggy even* plays (a bot that merely never forfeits does not pass);
* exercise 3 (``my_bot``): more wins than losses against *Largest odd*, no forfeit; a bot that
  plays exactly the package's perfect player's move in every position it met is named as such.

>>> p = {"rules": "divisor-duel", "starts": 10, "seed": 2026, "start_range": (10, 200), "check_upto": 30}
>>> SPEC.checks["3"](largest_odd, p).message
'Your bot won 19 and lost 19 of 38 games against Largest odd. A draw is not a win.'
>>> SPEC.checks["2"](lambda state: max(d for d in state.legal_moves if d % 2 == 0), p).kind
'miss'
>>> SPEC.checks["2"](largest_odd, p).kind
'misconception'
"""

from __future__ import annotations

import types
from collections.abc import Iterator

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import Rules
from duel_lessons.play.players import make_player
from duel_lessons.play.tournament import Entrant, GameRecord, draw_starts, round_robin
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import listing, rules_of
from duel_lessons.teaching.feedback import Misconception, Verdict, expect_number, is_unanswered, unanswered

SPEC = register(LessonSpec("12"))  # its needs, offers, guesses and discoveries: notebooks/12-bot-tournament.lesson.toml

ME = "Your bot"
#: CPU seconds a bot may use for one move in a check (a looping bot is stopped, then disqualified).
TIME_LIMIT = 1.0
#: A bot that agrees with the package's perfect player on at least this many positions, and on all of them,
#: is named as the package's perfect player.
SAME_AS_PERFECT = 20


def smallest(state: GameState) -> int:
    """The bot that always plays the smallest divisor."""
    return state.legal_moves[0]


def largest_odd(state: GameState) -> int:
    """The bot that plays the largest odd divisor, or the smallest divisor when there is no odd one."""
    odd = [d for d in state.legal_moves if d % 2 == 1]
    return odd[-1] if odd else state.legal_moves[0]


def legal_starts(rules: Rules, upto: int) -> list[int]:
    """Every legal start from 2 to ``upto`` with at least one move (a game with no move tests nothing)."""
    starts = []
    for n in range(2, upto + 1):
        try:
            rules.check_start(n)
        except ValueError:
            continue
        if new_game(rules, n).legal_moves:
            starts.append(n)
    return starts


def games_against(bot: object, opponents: dict[str, Entrant], rules: Rules, upto: int) -> list[GameRecord]:
    """The bot's games against each opponent from every legal start up to ``upto``, both colours.

    One tournament, so the bot runs in one sandboxed worker for all of them.  The opponents'
    games against each other are left out.
    """
    entrants: dict[str, Entrant] = {ME: bot, **opponents}  # type: ignore[dict-item]
    result = round_robin(entrants, rules, starts=legal_starts(rules, upto), time_limit=TIME_LIMIT)
    return [g for g in result.games if ME in g.players]


def _empty(state: GameState) -> None: ...


def _empty_with_docstring(state: GameState) -> None:
    """A bot."""


def _unwritten(bot: object) -> bool:
    """A bot whose body is still ``...`` (read from its code, never by calling it in the kernel)."""
    if not isinstance(bot, types.FunctionType):
        return is_unanswered(bot)
    code = bot.__code__
    return any(code.co_code == e.__code__.co_code and code.co_consts == e.__code__.co_consts for e in EMPTY)


EMPTY = (_empty, _empty_with_docstring)


def positions(games: list[GameRecord], rules: Rules) -> Iterator[tuple[GameState, int]]:
    """Every position where the bot moved in these games, rebuilt from the records, with its move."""
    for game in games:
        state = new_game(rules, game.start)
        for move in game.moves:
            if move is None:
                state = state.pass_turn()
                continue
            if game.players[state.to_move - 1] == ME:
                yield state, move
            state = state.play(move)


def _played(answer: object, name: str, opponent: tuple[str, Entrant], p: Params) -> list[GameRecord] | Verdict:
    """The bot's games against ``opponent`` from every start up to CHECK_UPTO; or the verdict if it forfeited one."""
    if _unwritten(answer):
        return unanswered()
    if not callable(answer):
        why = f"Give the bot itself, the function name without brackets: {name}."
        return Verdict("format", why, key="format:not-a-function")
    games = games_against(answer, dict([opponent]), rules_of(p), int(p["check_upto"]))
    game = next((g for g in games if g.loser == ME and g.forfeit is not None), None)
    if game is None:
        return games
    reason = game.forfeit or ""
    where = f"From the start {game.start}" + (f", after the moves {list(game.moves)}" if game.moves else "")
    if reason.startswith(("returned None", "returned Ellipsis")):
        return Verdict(
            "format",
            f"{where}, your bot {reason}.",
            "A bot must end with `return` and a divisor. Does every path through your function reach a `return`?",
            "Read your function line by line for one number, say 16: which line returns, and what?",
            key="format:no-return",
        )
    if "disqualified" in reason or "time limit" in reason or "no answer" in reason:
        return Verdict(
            "miss",
            f"{where}, your bot forfeited: {reason}",
            "Your bot took too long: is there a loop that never ends?",
            "A `while` loop must change something each time round, so that it stops. Try your bot by hand "
            "on one number first.",
            key="forfeit:time",
        )
    return Verdict(
        "miss",
        f"{where}, your bot forfeited: {reason}",
        "Look at the number your bot faced there. What is in state.legal_moves? What did your bot return?",
        "A bot must return one of state.legal_moves every time. Test it by hand: "
        "my_bot(new_game(rules, n)) for the number where it failed.",
        key=f"forfeit:{game.start}",
    )


def buggy_even(state: GameState) -> int:
    """Section 5's bot: the largest even divisor (it crashes where there is none)."""
    return max(d for d in state.legal_moves if d % 2 == 0)


@SPEC.check(2)
def plays_like_buggy_even(answer: object, p: Params) -> Verdict:
    """Plays like Buggy even (the largest even divisor whenever there is one) and never forfeits.

    Against Greedy (the package's player, so the student's bot is the check's only worker process), from every
    start up to CHECK_UPTO, both colours: the bot's own move is asked from every start it moves first from.
    """
    games = _played(answer, "fixed_even", ("Greedy", "greedy"), p)
    if isinstance(games, Verdict):
        return games
    for state, move in positions(games, rules_of(p)):
        even = [d for d in state.legal_moves if d % 2 == 0]
        if even and move != even[-1]:
            n = state.number
            return Verdict(
                "misconception",
                f"Your bot never forfeits, but it does not play like Buggy even: from {n} it played "
                f"{move}, and {n} has even divisors.",
                "Fix only the crash: where Buggy even has an even divisor to play, play what it plays.",
                "Keep Buggy even's line for the numbers that have an even divisor, and add a second case "
                "for the numbers that have none.",
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
    """More wins than losses against Largest odd, from every start up to CHECK_UPTO, both colours, no forfeit."""
    games = _played(answer, "my_bot", ("Largest odd", largest_odd), p)
    if isinstance(games, Verdict):
        return games
    won = sum(g.winner == ME for g in games)
    lost = len(games) - won
    score = f"Your bot won {won} and lost {lost} of {len(games)} games against Largest odd."
    perfect, met = make_player("perfect"), list(positions(games, rules_of(p))) if won > lost else []
    same = len(met) if all(perfect(state) == move for state, move in met) else 0
    if same >= SAME_AS_PERFECT:
        return Verdict(
            "misconception",
            f"{score} But in all {same} positions it met, it played exactly the move of the package's "
            'own Perfect player (make_player("perfect")), which reads the whole table of P- and '
            "N-positions. Handing that in is using the package's bot, not writing yours: well found, "
            "but the exercise is a strategy of your own.",
            "Write the rule yourself, from lesson 4: which numbers do you want to hand over, and which "
            "move hands one over?",
            "Start from largest_odd and change only what it does where it goes wrong.",
            key="package-perfect",
        )
    if won > lost:
        return Verdict("right", score)
    if won == lost:
        return Verdict(
            "partial",
            score + " A draw is not a win.",
            "Largest odd plays perfectly except from some numbers. Play it from 2, 4, 8, 16, ... "
            "and look for a move it misses.",
            "Compare Largest odd's move with every legal move from 16: which one hands over a losing number?",
            key="draw",
        )
    return Verdict(
        "miss",
        score,
        "Start from Largest odd's idea: from an even number, leave an odd one when you can.",
        "Begin with largest_odd's code; then look for the numbers where it goes wrong.",
        key=f"lost:{won}",
    )


def my_bot(state: GameState) -> int:
    """The model answer to exercise 3: the largest odd divisor, else the largest divisor (halving a power of 2)."""
    odd = [d for d in state.legal_moves if d % 2 == 1]
    return odd[-1] if odd else state.legal_moves[-1]


def _n_starts(p: Params) -> tuple[tuple[int, ...], list[int]]:
    rules = rules_of(p)
    lo, hi = (int(x) for x in p["start_range"])
    starts = draw_starts(rules, int(p["starts"]), int(p["seed"]), (lo, hi))
    table = tabulate(rules, max(starts))
    return starts, [n for n in starts if not table.is_p(n)]


@SPEC.check(1)
def twins_first_wins(answer: object, p: Params) -> Verdict:
    """Games the first player won in Perfect v Perfect twin: twice the number of N-starts drawn."""
    starts, n_starts = _n_starts(p)
    count = len(n_starts)
    return expect_number(
        answer,
        2 * count,
        misconceptions=[
            Misconception(
                "once",
                count if count else -1,
                "Each start is played twice: once with each twin moving first.",
                "Count the N-starts, then remember: each start gives two twin games, and in both the "
                "first player wins.",
            ),
            Misconception(
                "p-starts",
                2 * (len(starts) - count) if len(starts) != 2 * count else -1,
                "Those are the starts where the first player LOSES (P-positions).",
                "From a P-start the first player loses. Count the other starts, the N-starts.",
            ),
        ],
        hint="Who wins between two perfect players depends only on the start. From which starts does the player "
        "to move win?",
        stronger="Go through the start numbers one by one and label each P or N (lesson 4). Then think about how "
        "often each start is played.",
    )


# -- models ---------------------------------------------------------------------------


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """Twice the N-starts of the draw."""
    starts, n_starts = _n_starts(p)
    return 2 * len(n_starts), (
        f"The N-starts among {listing(starts)} are {listing(n_starts)}: from each, the player "
        "to move wins, and each start is played twice (each twin moving first once)."
    )


def fixed_even(state: GameState) -> int:
    """The model answer to exercise 2: Buggy even, with a legal move where there is no even divisor."""
    even = [d for d in state.legal_moves if d % 2 == 0]
    return even[-1] if even else state.legal_moves[0]


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Buggy even with a fallback."""
    return fixed_even, (
        "even = [d for d in state.legal_moves if d % 2 == 0]; return even[-1] if even else state.legal_moves[0]. "
        "When there is no even divisor, play a legal move (here the smallest) instead of calling max on nothing."
    )


def hand_over_p(state: GameState) -> int:
    """A bot that hands over a P-position when it can (the largest such divisor), else plays the largest divisor."""
    from duel_lessons.solving.oracle import oracle

    return (oracle(state.rules).winning_moves(state.number) or state.legal_moves)[-1]


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Largest odd, mended where it goes wrong (Divisor Duel), or a bot that hands over P-positions."""
    if rules_of(p).name == "divisor-duel":
        return (
            my_bot,
            "odd = [d for d in state.legal_moves if d % 2 == 1]; return odd[-1] if odd else "
            "state.legal_moves[-1]. Leave an odd number when you can (lesson 4); from a power of 2 halve it: "
            "16 - 8 = 8 and 64 - 32 = 32 win, where Largest odd plays 2.",
        )
    return (
        hand_over_p,
        "Hand your opponent a P-position whenever some move does (the largest such divisor), "
        "else play the largest divisor.",
    )
