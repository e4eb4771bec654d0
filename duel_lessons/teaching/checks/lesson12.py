"""Lesson 12, "Can your bot win the league?": the bot checks (never forfeit; beat Largest-odd) and the exercises.

The checks referee real games with :func:`duel_lessons.play.tournament.play_game` and
:func:`~duel_lessons.play.tournament.round_robin`, so a bot that crashes, hangs or cheats loses by forfeit
and cannot pass.

>>> p = {"rules": "divisor-duel", "starts": 10, "seed": 2026, "start_range": (10, 200), "check_upto": 30}
>>> SPEC.checks["3"](largest_odd, p).message
'Your bot won 19 and lost 19 of 38 games against Largest odd. A draw is not a win.'
>>> SPEC.checks["2"](lambda state: max(d for d in state.legal_moves if d % 2), p).kind
'miss'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import Rules
from duel_lessons.play.players import make_player
from duel_lessons.play.tournament import GameRecord, draw_starts, play_game, round_robin
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.feedback import Misconception, Verdict, expect_number, is_unanswered, unanswered

SPEC = register(LessonSpec("12", needs=("rules", "starts", "seed", "start_range", "check_upto")))

Bot = Callable[[GameState], int]
ME = "Your bot"


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


def games_against(bot: Bot, opponent: tuple[str, Bot], rules: Rules, upto: int) -> list[GameRecord]:
    """The bot against an opponent from every legal start up to ``upto``, once moving first and once second."""
    games = []
    for n in legal_starts(rules, upto):
        games.append(play_game((ME, bot), opponent, rules, n))
        games.append(play_game(opponent, (ME, bot), rules, n))
    return games


def _unwritten(bot: object, rules: Rules) -> bool:
    """A bot whose body is still ``...`` (it returns None or ...)."""
    if is_unanswered(bot):
        return True
    try:
        starts = legal_starts(rules, 60)
        return bool(starts) and callable(bot) and bot(new_game(rules, starts[-1])) in (None, ...)
    except Exception:  # a bot that crashes is an answer: the referee shows what went wrong
        return False


def _first_forfeit(games: list[GameRecord]) -> GameRecord | None:
    return next((g for g in games if g.loser == ME and g.forfeit is not None), None)


def _forfeit_verdict(game: GameRecord) -> Verdict:
    reason = game.forfeit or ""
    where = (
        f"From the start {game.start}, after the moves {list(game.moves)}"
        if game.moves
        else f"From the start {game.start}"
    )
    return Verdict(
        "miss",
        f"{where}, your bot forfeited: {reason}",
        "Look at the number your bot faced there. What is in state.legal_moves? What did your bot return?",
        "A bot must return one of state.legal_moves every time. Test it by hand: "
        "my_bot(new_game(rules, n)) for the number where it failed.",
        key=f"forfeit:{game.start}",
    )


@SPEC.check(2)
def never_forfeits(answer: object, p: Params) -> Verdict:
    """The fixed bot never crashes or cheats, against Greedy and Largest-odd, from every start up to CHECK_UPTO."""
    rules = rules_of(p)
    if _unwritten(answer, rules):
        return unanswered()
    if not callable(answer):
        return Verdict(
            "format", "Give the bot itself, the function name without brackets: fixed_odd.", key="format:not-a-function"
        )
    upto = int(p["check_upto"])
    for opponent in (("Greedy", make_player("greedy")), ("Largest odd", largest_odd)):
        bad = _first_forfeit(games_against(cast(Bot, answer), opponent, rules, upto))
        if bad is not None:
            return _forfeit_verdict(bad)
    return Verdict("right", f"No forfeit in {2 * 2 * len(legal_starts(rules, upto))} games.")


@SPEC.check(3)
def beats_largest_odd(answer: object, p: Params) -> Verdict:
    """More wins than losses against Largest-odd, from every start up to CHECK_UPTO, both colours, no forfeit."""
    rules = rules_of(p)
    if _unwritten(answer, rules):
        return unanswered()
    if not callable(answer):
        return Verdict(
            "format", "Give the bot itself, the function name without brackets: my_bot.", key="format:not-a-function"
        )
    upto = int(p["check_upto"])
    games = games_against(cast(Bot, answer), ("Largest odd", largest_odd), rules, upto)
    bad = _first_forfeit(games)
    if bad is not None:
        return _forfeit_verdict(bad)
    won = sum(g.winner == ME for g in games)
    lost = len(games) - won
    score = f"Your bot won {won} and lost {lost} of {len(games)} games against Largest odd."
    if won > lost:
        return Verdict("right", score)
    if won == lost:
        return Verdict(
            "partial",
            score + " A draw is not a win.",
            "Largest odd plays perfectly except from some powers of 2. Which ones, and what should it "
            "play there instead?",
            "From 16: 16 - 8 = 8, and 8 loses for the player to move. What does Largest odd play from 16?",
            key="draw",
        )
    return Verdict(
        "miss",
        score,
        "Start from Largest odd's idea: from an even number that is not a power of 2, subtract the odd part.",
        key=f"lost:{won}",
    )


@SPEC.check(1)
def twins_first_wins(answer: object, p: Params) -> Verdict:
    """Games the first player won in Perfect v Perfect twin: twice the number of N-starts drawn."""
    rules = rules_of(p)
    lo, hi = (int(x) for x in p["start_range"])
    starts = draw_starts(rules, int(p["starts"]), int(p["seed"]), (lo, hi))
    table = tabulate(rules, max(starts))
    n_starts = sum(not table.is_p(n) for n in starts)
    return expect_number(
        answer,
        2 * n_starts,
        misconceptions=[
            Misconception(
                "once",
                n_starts if n_starts else -1,
                "Each start is played twice: once with each twin moving first.",
                "Count the N-starts, then remember: each start gives two twin games, and in both the "
                "first player wins.",
            ),
            Misconception(
                "p-starts",
                2 * (len(starts) - n_starts) if len(starts) != 2 * n_starts else -1,
                "Those are the starts where the first player LOSES (P-positions).",
                "From a P-start the first player loses. Count the other starts, the N-starts.",
            ),
        ],
        hint="The first player wins exactly from the N-starts. Which of result.starts are N? (Lesson 4: odd numbers "
        "and 2, 8, 32, 128 are P.)",
        stronger="Go through result.starts one by one: odd, or 2, 8, 32, 128 means P. Count the others, then "
        "double: each start is played twice.",
    )


@SPEC.reveal("league")
def league(guess: object, p: Params) -> str:
    """The top of the section-3 league against the guessed winner."""
    rules = rules_of(p)
    entrants: dict[str, Bot | str] = {
        "Smallest": smallest,
        "Largest odd": largest_odd,
        "Random": "random",
        "Greedy": "greedy",
        "Perfect": "perfect",
        "Perfect twin": "perfect",
    }
    result = round_robin(
        entrants,
        rules,
        starts=int(p["starts"]),
        seed=int(p["seed"]),
        start_range=(int(p["start_range"][0]), int(p["start_range"][1])),
    )
    table = result.table()
    best = table[0].won
    top = [s.name for s in table if s.won == best]
    said = str(guess).strip()
    verdict = "Your guess is at the top." if said.lower() in {t.lower() for t in top} else f"You guessed {said!r}."
    return (
        f"**Top of the league: {', '.join(top)}, with {best} wins.** {verdict} Look at how close Largest odd "
        "comes to Perfect: section 4 explains why nobody wins every game."
    )
