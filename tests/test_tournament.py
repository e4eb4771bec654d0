"""Round-robin tournaments: broken strategies forfeit, the rest carries on, results are reproducible."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import sympy
from matplotlib.figure import Figure

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import DuelError, get_rules
from duel_lessons.play.players import make_player
from duel_lessons.play.sandbox import BotFile
from duel_lessons.play.tournament import GameRecord, TournamentResult, draw_starts, play_game, round_robin
from duel_lessons.play.unisolated import UNISOLATED_FLAG
from duel_lessons.solving.tables import tabulate
from duel_lessons.views.league import league_plot


def raises(state: GameState) -> int:
    return 1 // (state.number - state.number)  # ZeroDivisionError


def returns_zero(state: GameState) -> int:
    return 0


def returns_text(state: GameState) -> int:
    return "6"  # type: ignore[return-value]


def returns_none(state: GameState) -> int:
    return None  # type: ignore[return-value]


def returns_float(state: GameState) -> int:
    return float(state.legal_moves[0])  # type: ignore[return-value]


def returns_true(state: GameState) -> int:
    return True


def spins(state: GameState) -> int:
    """Computes for 0.4 s of CPU time, over the limit."""
    end = time.process_time() + 0.4
    while time.process_time() < end:
        pass
    return state.legal_moves[0]


def wrong_number(state: GameState) -> int:
    """A divisor of 3N, not of N."""
    return int(max(d for d in sympy.divisors(3 * state.number) if d < 3 * state.number))


def exits(state: GameState) -> int:
    sys.exit(1)


def mutator(state: GameState) -> int:
    """Forces a change on the (frozen) state it is given, then plays a legal move from the real number."""
    move = state.legal_moves[-1]
    object.__setattr__(state, "number", 4)
    object.__setattr__(state, "to_move", 1)
    return move


def numpy_player(state: GameState) -> int:
    return np.int64(state.legal_moves[0])  # type: ignore[return-value]


BROKEN = {
    "raises": raises,
    "zero": returns_zero,
    "text": returns_text,
    "none": returns_none,
    "float": returns_float,
    "true": returns_true,
    "spins": spins,
    "wrong number": wrong_number,
    "exits": exits,
}


def replay_is_legal(game: GameRecord, rules_name: str) -> GameState:
    """Replay a game's moves on a fresh engine: every move legal, the end as recorded."""
    state = new_game(rules_name, game.start)
    for move in game.moves:
        state = state.pass_turn() if move is None else state.play(move)
    return state


@pytest.fixture(scope="module")
def broken_result() -> TournamentResult:
    entrants = {**BROKEN, "mutator": mutator, "numpy": numpy_player, "perfect": make_player("perfect")}
    return round_robin(entrants, starts=2, seed=5, time_limit=0.05)


def test_broken_strategies_forfeit_and_the_tournament_carries_on(broken_result: TournamentResult) -> None:
    result = broken_result
    n = len(result.names)
    assert len(result.games) == n * (n - 1) // 2 * 2 * 2
    for game in result.games:
        assert {game.winner, game.loser} == set(game.players)
    forfeited = Counter(g.loser for g in result.forfeits())
    rows = {s.name: s for s in result.table()}
    for name in BROKEN:
        assert rows[name].forfeits > 0 and forfeited[name] == rows[name].forfeits
        # a broken strategy forfeits every game in which it has to move
        assert all(g.forfeit is not None for g in result.games if g.loser == name)
    for name in ("mutator", "numpy", "perfect"):
        assert rows[name].forfeits == 0
    assert rows["perfect"].won == rows["perfect"].played  # every opponent here is broken or naive


def test_forfeit_reasons_and_tracebacks(broken_result: TournamentResult) -> None:
    reasons = {g.loser: (g.forfeit or "", g.traceback) for g in broken_result.forfeits()}
    assert "raised ZeroDivisionError" in reasons["raises"][0]
    trace = reasons["raises"][1]
    assert trace is not None and "Traceback" in trace and "in raises" in trace and "ZeroDivisionError" in trace
    assert "raised SystemExit" in reasons["exits"][0]
    assert "'6' (str), not a whole number" in reasons["text"][0]
    assert "None (NoneType)" in reasons["none"][0]
    assert "(float)" in reasons["float"][0] and "True (bool)" in reasons["true"][0]
    assert "played 0" in reasons["zero"][0] and "illegal move" in reasons["zero"][0]
    assert "time limit of 0.05 s" in reasons["spins"][0]
    assert "illegal move" in reasons["wrong number"][0]
    for name in ("text", "spins", "zero"):
        assert reasons[name][1] is None  # only exceptions have a traceback
    text = broken_result.to_text()
    assert "raised ZeroDivisionError" in text and "forfeits" in text
    html = broken_result._repr_html_()
    assert "<details>" in html and "ZeroDivisionError" in html and "<table>" in html


def test_a_mutating_strategy_cannot_change_the_referees_game(broken_result: TournamentResult) -> None:
    games = [g for g in broken_result.games if "mutator" in g.players and g.forfeit is None]
    assert games
    for game in games:
        end = replay_is_legal(game, "divisor-duel")
        assert end.is_over and game.winner == game.players[(end.winner or 0) - 1]


def test_seeded_runs_are_reproducible() -> None:
    a = round_robin(["random", "random", "greedy"], starts=6, seed=11)
    b = round_robin(["random", "random", "greedy"], starts=6, seed=11)
    c = round_robin(["random", "random", "greedy"], starts=6, seed=12)
    assert a.names == ("Random", "Random (2)", "Greedy")
    assert a.games == b.games and a.starts == b.starts
    assert a.starts != c.starts
    assert a.starts == draw_starts(get_rules("divisor-duel"), 6, 11, (10, 200))
    wins = a.head_to_head()
    assert wins[("Greedy", "Random")] + wins[("Random", "Greedy")] == 12  # 6 starts, both colours
    assert sum(wins.values()) == len(a.games) == 36
    assert "Head to head" in a.to_text()


def test_perfect_wins_from_every_n_position_and_as_second_from_p() -> None:
    result = round_robin(["random", "greedy", "perfect"], rules="divisor-duel", starts=25, seed=2)
    table = tabulate("divisor-duel", 200)
    checked = 0
    for game in result.games:
        if "Perfect" not in game.players:
            continue
        first = game.players[0] == "Perfect"
        if first == (table.outcome_of(game.start) == "N"):
            assert game.winner == "Perfect", game
            checked += 1
        replay_is_legal(game, "divisor-duel")
    assert checked >= 40
    assert result.table()[0].name == "Perfect"


def test_starts_are_legal_for_the_rules() -> None:
    result = round_robin(["random", "perfect"], rules="division-duel", starts=8, seed=1, start_range=(2, 40))
    assert all(not sympy.isprime(n) and n > 1 for n in result.starts)
    assert len(set(result.starts)) == 8
    with pytest.raises(DuelError, match="No number from 2 to 3 can start"):
        draw_starts(get_rules("division-duel"), 3, 0, (2, 3))


def test_number_factor_passes_are_played_by_the_referee() -> None:
    result = round_robin(["random", "greedy"], rules="number-factor", starts=4, seed=3, start_range=(10, 60))
    assert any(None in g.moves for g in result.games)
    for game in result.games:
        assert game.forfeit is None
        end = replay_is_legal(game, "number-factor")
        assert end.is_over and game.winner == game.players[(end.winner or 0) - 1]


def test_one_game_and_bad_input() -> None:
    rules = get_rules("divisor-duel")
    game = play_game(("a", make_player("greedy")), ("b", raises), rules, 7)  # 7 is prime: a cannot move
    assert game.winner == "b" and game.forfeit is None and game.moves == ()
    with pytest.raises(DuelError, match="two entrants"):
        round_robin(["random"])
    with pytest.raises(DuelError, match="Unknown player level"):
        round_robin(["random", "genius"])
    with pytest.raises(DuelError, match="not a strategy"):
        round_robin({"a": make_player("random"), "b": 42})  # type: ignore[dict-item]


def test_plot_and_table(broken_result: TournamentResult) -> None:
    rows = broken_result.table()
    assert [r.won for r in rows] == sorted((r.won for r in rows), reverse=True)
    assert rows[0].win_percent == 100.0
    fig = league_plot(broken_result)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_title() and ax.get_xlabel() == "games" and ax.get_ylabel() == "entrant"
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["won", "lost", "lost by forfeit"]
    assert any("% won" in t.get_text() for t in ax.texts)


def test_fixed_starts_and_bad_settings() -> None:
    result = round_robin(["random", "greedy"], starts=[60, 45, 30], seed=1)
    assert result.starts == (60, 45, 30)
    assert sorted({g.start for g in result.games}) == [30, 45, 60]
    assert len(result.games) == 6
    for bad in (0, -3, [], True):
        with pytest.raises(DuelError, match="start"):
            round_robin(["random", "greedy"], starts=bad)  # type: ignore[arg-type]
    with pytest.raises(DuelError):
        round_robin(["random", "greedy"], rules="division-duel", starts=[60, 7])  # 7 is prime
    with pytest.raises(DuelError, match="at most 10,000"):
        round_robin(["random", "greedy"], starts=[60, 10**12])  # a game of up to 10**12 moves
    far = round_robin(["random", "greedy"], rules="division-duel", starts=[10**18], time_limit=0.5)
    assert len(far.games) == 2 and len(far.games[0].moves) < 70
    for limit in (float("nan"), float("inf"), 0, -1.0, "1"):
        with pytest.raises(DuelError, match="time limit"):
            round_robin(["random", "greedy"], starts=2, time_limit=limit)  # type: ignore[arg-type]


def test_tournament_module_does_not_import_the_views_layer() -> None:
    import subprocess

    code = "import sys, duel_lessons.play.tournament; print([m for m in sys.modules if 'views' in m])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_bot_output_is_kept_and_shown(tmp_path: object) -> None:
    def chatty(state: GameState) -> int:
        print(f"thinking about {state.number}")
        return state.legal_moves[0]

    result = round_robin({"chatty": chatty, "greedy": "greedy"}, starts=[12], time_limit=0.5)
    assert "thinking about 12" in result.outputs["chatty"]
    assert "thinking about 12" in result._repr_html_()
    assert "chatty: 0 forfeits" in result.bot_report()


def test_a_computer_player_that_fails_forfeits_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Level names run in the referee; even so, an error is a forfeit, not a crash of the tournament."""
    import duel_lessons.play.tournament as tournament

    def refusing(level: str, seed: int | None = None) -> object:
        def player(state: GameState) -> int:
            raise DuelError(f"cannot solve {state.number}")

        return player

    monkeypatch.setattr(tournament, "make_player", refusing)
    result = round_robin({"perfect": "perfect", "first": lambda s: s.legal_moves[0]}, starts=[60], time_limit=0.5)
    reasons = [g.forfeit or "" for g in result.games if g.loser == "perfect"]
    assert len(reasons) == 2 and all(r.startswith("raised DuelError: cannot solve") for r in reasons)


# -- where nothing can isolate other people's bot files ---------------------------------------------


def _no_isolation(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a Binder session: no bubblewrap, and no namespaces for a worker (user namespaces are off)."""
    import duel_lessons.play.isolation as isolation
    import duel_lessons.play.sandbox as sandbox

    for module in (isolation, sandbox):
        monkeypatch.setattr(module, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
        monkeypatch.setattr(module, "own_namespaces_here", lambda: False)


def test_the_class_tournament_refuses_bot_files_unless_the_risk_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command says why and what to install, and runs nothing; with the flag it runs the class all the same."""
    from duel_lessons.cli.app import main

    _no_isolation(monkeypatch)
    for name, pick in (("ana", "0"), ("ben", "-1")):
        (tmp_path / f"{name}.py").write_text(f"def move(state):\n    return state.legal_moves[{pick}]\n")
    command = ["tournament", str(tmp_path), "--starts", "1"]
    assert main(command) == 2
    said = capsys.readouterr()
    assert "bubblewrap (bwrap) is not installed" in said.err and "apt-get install bubblewrap" in said.err
    assert "no process may make namespaces of its own" in said.err
    assert UNISOLATED_FLAG in said.err and said.out == ""  # refused before anything is said or run
    assert main([*command, UNISOLATED_FLAG]) == 0
    said = capsys.readouterr()
    assert "bots are not in namespaces of their own" in said.out
    assert "ana" in said.out and "ben" in said.out  # the league table


def test_round_robin_refuses_bot_files_but_runs_the_callers_own_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lesson 12's checks give the student's own bot as a function, in the student's own session: it runs."""
    _no_isolation(monkeypatch)
    bot = Path(__file__).parent / "no-such-bot.py"  # never read: refused before any bot starts
    with pytest.raises(DuelError, match=UNISOLATED_FLAG):
        round_robin([BotFile(bot, "def move(state):\n    return 1\n"), "random"], starts=[12])
    result = round_robin({"mine": lambda s: s.legal_moves[0], "random": "random"}, starts=[12], time_limit=0.5)
    assert len(result.games) == 2


def test_root_that_may_not_change_user_is_refused_even_with_namespaces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Namespaces alone would leave a root bot every capability inside them: refused; an ordinary user is not."""
    import duel_lessons.play.isolation as isolation

    monkeypatch.setattr(isolation, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    monkeypatch.setattr(isolation, "own_namespaces_here", lambda: True)
    monkeypatch.setattr(isolation, "is_root", lambda: True)
    monkeypatch.setattr(isolation, "can_change_user", lambda: False)
    refusal = isolation.bots_unisolated() or ""
    assert "may not change user (CAP_SETUID)" in refusal and "would run as root" in refusal
    monkeypatch.setattr(isolation, "can_change_user", lambda: True)
    assert isolation.bots_unisolated() is None
    monkeypatch.setattr(isolation, "is_root", lambda: False)
    assert isolation.bots_unisolated() is None
    monkeypatch.setattr(isolation, "bubblewrap", lambda: (False, ""))
    monkeypatch.setattr(isolation, "own_namespaces_here", lambda: False)
    assert isolation.bots_unisolated() is None  # bubblewrap runs


def test_the_tournament_and_the_class_report_share_one_flag() -> None:
    """One constant, the words the class report has always used."""
    from duel_lessons.cli.app import build_parser

    for command, needed in (("tournament", ["bots"]), ("class-report", ["hand-ins"])):
        args = build_parser(command).parse_args([command, *needed, UNISOLATED_FLAG])
        assert args.run_untrusted_code_without_isolation is True
