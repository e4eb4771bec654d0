"""`duel-lessons solve`, `table` and `play --vs computer`, checked against a GameState brute force."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from duel_lessons import DIVISOR_DUEL, GameState, new_game
from duel_lessons.cli.app import main
from duel_lessons.solving.tables import TABLE_LIMIT

from books import shipped_books
from brute import Brute

BOOKS = [rules.name for rules in shipped_books()]


def run(argv: list[str], typed: str = "", stdin: io.StringIO | None = None) -> tuple[int, str, str]:
    """Run main() with scripted input; return (exit code, stdout, stderr). Never a traceback."""
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin if stdin is not None else io.StringIO(typed), out, err)
    assert "Traceback" not in err.getvalue() + out.getvalue()
    return code, out.getvalue(), err.getvalue()


def field(text: str, label: str) -> str:
    """The value after 'label:' in solve's text output."""
    found = re.search(rf"^{label}:\s+(.*)$", text, re.M)
    assert found, f"no {label!r} line in:\n{text}"
    return found.group(1)


# -- solve ------------------------------------------------------------------------------


@pytest.mark.parametrize("book", BOOKS)
@pytest.mark.parametrize("n", [4, 12, 13, 30, 45, 60, 64, 100])
def test_solve_text_matches_brute_force(book: str, n: int) -> None:
    brute = Brute.of(book)
    code, out, err = run(["solve", book, str(n)])
    assert (code, err) == (0, "")
    assert field(out, "Outcome").startswith(f"{brute.outcome(n)}-position")
    moves = brute.winning_moves(n)
    shown = field(out, "Winning moves")
    if moves:
        assert shown == ", ".join(map(str, moves))
    else:
        assert shown.startswith("none")
    assert field(out, "Remoteness").startswith(f"{brute.remoteness(n)} ")
    assert field(out, "Grundy value") == str(brute.grundy(n))


@pytest.mark.parametrize("book", BOOKS)
def test_solve_json_matches_brute_force(book: str) -> None:
    brute = Brute.of(book)
    for n in (6, 24, 36, 97):
        code, out, _ = run(["solve", book, str(n), "--json"])
        assert code == 0
        d = json.loads(out)
        assert (d["rules"], d["n"], d["outcome"]) == (book, n, brute.outcome(n))
        assert d["winning_moves"] == list(brute.winning_moves(n))
        assert (d["remoteness"], d["grundy"]) == (brute.remoteness(n), brute.grundy(n))
        assert d["explanation"] and d["source"] == "table"  # below 10**6 the oracle reads its table


@pytest.mark.parametrize(
    ("argv", "source", "words"),
    [
        (["divisor-duel", "60"], "table", "the solver's table (computed)"),
        (["divisor-duel", str(2**59)], "closed form", "a proved closed form"),
        (["number-factor", "1000000"], "table", "the solver's table (computed)"),
        (["number-factor", "1000001"], "closed form", "a proved closed form"),
        (["--allow-one", "divisor-duel", str(10**12)], "closed form", "a proved closed form"),
    ],
)
def test_solve_says_the_oracles_source_in_one_set_of_words(argv: list[str], source: str, words: str) -> None:
    from duel_lessons.solving.oracle import oracle

    code, out, _ = run(["solve", *argv])
    assert code == 0 and field(out, "Source") == words
    code, out, _ = run(["solve", *argv, "--json"])
    d = json.loads(out)
    rules = DIVISOR_DUEL.variant(allow_one=True) if argv[0] == "--allow-one" else argv[0]
    assert code == 0 and d["source"] == oracle(rules).source(d["n"]) == source


@pytest.mark.parametrize(
    ("flags", "rules"),
    [
        (["--divisors", "even"], DIVISOR_DUEL.variant(divisors="even")),
        (["--divisors", "prime"], DIVISOR_DUEL.variant(divisors="prime")),
        (["--misere"], DIVISOR_DUEL.variant(last_mover_wins=False)),
        (["--allow-one", "--divisors", "odd"], DIVISOR_DUEL.variant(allow_one=True, divisors="odd")),
        (["--move", "divide", "--divisors", "prime"], DIVISOR_DUEL.variant(move="divide", divisors="prime")),
    ],
)
def test_solve_custom_variants(flags: list[str], rules: object) -> None:
    brute = Brute.of(rules)  # type: ignore[arg-type]
    for n in (24, 30, 48, 81):
        code, out, _ = run(["solve", "divisor-duel", str(n), *flags, "--json"])
        assert code == 0
        d = json.loads(out)
        assert d["outcome"] == brute.outcome(n), n
        assert d["winning_moves"] == list(brute.winning_moves(n)), n
        assert d["remoteness"] == brute.remoteness(n)
        assert d["grundy"] == (brute.grundy(n) if brute.rules.last_mover_wins else None)


def test_solve_text_example_from_the_brief() -> None:
    code, out, _ = run(["solve", "divisor-duel", "24", "--divisors", "even"])
    assert code == 0 and "even" in field(out, "Rules")
    assert field(out, "Winning moves") == "2, 6"  # 24-2 = 22 and 24-6 = 18 are 2 mod 4


def test_solve_huge_n_and_default_rules() -> None:
    code, out, _ = run(["solve", "1000000000000000000"])
    assert code == 0
    assert field(out, "Rules").startswith("Divisor Duel")
    assert field(out, "Outcome").startswith("N-position")
    assert "not computed above 10^6" in field(out, "Remoteness")
    code, out, _ = run(["solve", "factor-duel", "999999999999999989"])  # a prime: the game is over
    assert code == 0 and field(out, "Outcome").startswith("P") and field(out, "Remoteness").startswith("0 ")


# -- table ------------------------------------------------------------------------------


@pytest.mark.parametrize("book", BOOKS)
def test_table_csv_matches_brute_force(book: str) -> None:
    brute = Brute.of(book)
    code, out, _ = run(["table", book, "--upto", "80", "--format", "csv"])
    assert code == 0
    assert out.splitlines()[0] == "n,outcome,grundy,remoteness,winning_moves"
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["n"]) for r in rows] == list(range(1, 81))
    for r in rows:
        n = int(r["n"])
        assert r["outcome"] == brute.outcome(n), n
        assert int(r["grundy"]) == brute.grundy(n), n
        assert int(r["remoteness"]) == brute.remoteness(n), n
        assert tuple(int(d) for d in r["winning_moves"].split()) == brute.winning_moves(n), n


def test_table_from_and_json() -> None:
    brute = Brute.of("factor-duel")
    code, out, _ = run(["table", "factor-duel", "--from", "90", "--upto", "110", "--format", "json"])
    assert code == 0
    rows = json.loads(out)
    assert [r["n"] for r in rows] == list(range(90, 111))
    for r in rows:
        assert r["outcome"] == brute.outcome(r["n"])
        assert r["winning_moves"] == list(brute.winning_moves(r["n"]))


def test_table_text_is_aligned_with_a_title() -> None:
    code, out, _ = run(["table", "divisor-duel", "--upto", "20"])
    lines = out.splitlines()
    assert code == 0 and "Divisor Duel" in lines[0] and "12 P-positions" in lines[0]  # 1,2,3,5,7,8,9,11,...,19
    assert lines[2].split() == ["n", "outcome", "grundy", "remoteness", "winning", "moves"]
    assert len(lines) == 3 + 20
    assert len({line.index("  ") for line in lines[3:] if line.startswith(" ")}) == 1
    assert lines[-1].split()[:2] == ["20", "N"] and lines[-1].split()[4:] == ["5"]  # 20 - 5 = 15, odd


def test_table_formats_agree_with_the_solvers_exports() -> None:
    from duel_lessons.solving.tables import tabulate

    table = tabulate("number-factor", 700)
    for fmt, expected in (("csv", table.to_csv(3, 700)), ("json", table.to_json(3, 700) + "\n")):
        assert run(["table", "number-factor", "--from", "3", "--upto", "700", "--format", fmt])[1] == expected
    text = run(["table", "number-factor", "--from", "3", "--upto", "700"])[1]
    assert text.split("\n", 2)[2] == table.to_text(3, 700)


def test_table_output_file(tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    code, out, _ = run(["table", "number-factor", "--upto", "30", "--format", "csv", "--output", str(target)])
    assert code == 0 and str(target) in out
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert len(rows) == 30 and rows[29]["outcome"] == "N" and rows[28]["outcome"] == "P"  # 30 composite, 29 prime


def test_table_large_csv_is_streamed(tmp_path: Path) -> None:
    target = tmp_path / "big.csv"
    code, _, _ = run(["table", "--upto", "50000", "--format", "csv", "--output", str(target)])
    assert code == 0
    with target.open(encoding="utf-8") as f:
        assert sum(1 for _ in f) == 50_001


# -- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "divisor-duel", "abc"], "'abc'"),
        (["solve", "divisor-duel", "0"], "positive"),
        (["solve", "divisor-duel", "-7"], "-7"),
        (["solve", "divisor-duel", "1000000000000000001"], "from 1 to 10**18"),
        (["solve", "divisor-duel"], "Give the number N"),
        (["solve", "nonsense", "12"], "Unknown rule book"),
        (["solve", "divisor-duel", "20000000", "--misere"], "largest table"),
        (["table", "--upto", "0"], "at least 1"),
        (["table", "--upto", "ten"], "'ten'"),
        (["table", "--upto", str(TABLE_LIMIT + 1)], "too large"),
        (["table", "--upto", "5", "--from", "9"], "larger than --upto"),
        (["table", "--upto", "5", "--from", "0"], "at least 1"),
        (["table", "--upto", "5", "--format", "xml"], "invalid choice"),
        (["table", "nonsense", "--upto", "5"], "Unknown rule book"),
        (["table"], "--upto"),
        (["table", "--upto", "5", "--output", "/nonexistent-dir/t.csv"], "Cannot write"),
        (["play", "--level", "perfect"], "--vs computer"),
        (["play", "--computer-first"], "--vs computer"),
        (["play", "--vs", "computer", "--computer-first", "--first", "1"], "--first"),
        (["play", "--vs", "computer", "--level", "genius"], "invalid choice"),
    ],
)
def test_bad_input_is_a_clear_error(argv: list[str], words: str) -> None:
    code, out, err = run(argv)
    assert code == 2
    assert words in err
    assert out == ""


# -- games against the computer ---------------------------------------------------------------

Policy = Callable[[GameState], int]


class ScriptedHuman(io.StringIO):
    """Typed input for Player 1: follows the game from the announced computer moves and asks ``policy``."""

    def __init__(self, out: io.StringIO, start: GameState, policy: Policy, first_words: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.out, self.state, self.policy = out, start, policy
        self.read_upto = 0
        self.words = list(first_words)
        self.turns = 0

    def sync(self) -> None:
        """Follow the computer's announced moves (and any passes) since the last look."""
        text = self.out.getvalue()
        for d in re.findall(r"^Computer chooses (\d+)\.$", text[self.read_upto :], re.M):
            while self.state.must_pass:
                self.state = self.state.pass_turn()
            self.state = self.state.play(int(d))  # the computer's moves are legal
        while self.state.must_pass:
            self.state = self.state.pass_turn()
        self.read_upto = len(text)

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        self.sync()
        if self.words:
            return self.words.pop(0) + "\n"
        self.turns += 1
        assert self.turns < 200, "the game does not end"
        assert self.state.to_move == 1, "asked to move on the computer's turn"
        d = self.policy(self.state)
        self.state = self.state.play(d)
        return f"{d}\n"


def play_vs_computer(
    book: str, start: int, policy: Policy, level: str = "perfect", computer_first: bool = False
) -> tuple[str, ScriptedHuman]:
    argv = ["play", book, "--start", str(start), "--vs", "computer", "--level", level, "--seed", "3"]
    if computer_first:
        argv.append("--computer-first")
    out, err = io.StringIO(), io.StringIO()
    human = ScriptedHuman(out, new_game(book, start, 2 if computer_first else 1), policy)
    code = main(argv, human, out, err)
    assert (code, err.getvalue()) == (0, "")
    human.sync()
    assert human.state.is_over
    return out.getvalue(), human


def smallest(state: GameState) -> int:
    return state.legal_moves[0]


def largest(state: GameState) -> int:
    return state.legal_moves[-1]


def middle(state: GameState) -> int:
    return state.legal_moves[len(state.legal_moves) // 2]


@pytest.mark.parametrize(("book", "start"), [("divisor-duel", 45), ("divisor-duel", 32), ("factor-duel", 27)])
@pytest.mark.parametrize("policy", [smallest, largest, middle], ids=lambda p: p.__name__)
def test_perfect_computer_wins_from_a_p_start(book: str, start: int, policy: Policy) -> None:
    assert Brute.of(book).outcome(start) == "P"
    out, human = play_vs_computer(book, start, policy)
    assert human.state.winner == 2
    assert re.search(r"Computer wins", out) and not re.search(r"Player 1 wins", out)


@pytest.mark.parametrize(("book", "start"), [(b, s) for b in BOOKS for s in (30, 60)] + [("factor-duel", 100)])
@pytest.mark.parametrize("level", ["perfect", "random", "greedy", "coach"])
def test_winning_moves_beat_every_level_from_an_n_start(book: str, start: int, level: str) -> None:
    brute = Brute.of(book)
    assert brute.outcome(start) == "N"
    out, human = play_vs_computer(book, start, lambda s: brute.winning_moves(s.number)[0], level)
    assert human.state.winner == 1
    assert re.search(r"Player 1 wins", out) and "Computer wins" not in out


def test_computer_first_from_a_p_start_loses() -> None:
    brute = Brute.of("divisor-duel")
    out, human = play_vs_computer("divisor-duel", 45, lambda s: brute.winning_moves(s.number)[0], computer_first=True)
    assert human.state.winner == 1
    assert out.index("Computer's turn") < out.index("Player 1's turn")


def test_the_computer_is_announced_in_the_books_words() -> None:
    out, _ = play_vs_computer("divisor-duel", 60, smallest)
    assert "Game Start! Current Number (N): 60" in out and "Computer's turn." in out
    chosen = re.findall(r"^Computer chooses (\d+)\.\nSubtracting \1 from (\d+)\. New N is (\d+)\.$", out, re.M)
    assert chosen and all(int(n) - int(d) == int(new) for d, n, new in chosen)


def test_hint_and_explain_against_the_coach() -> None:
    out, err = io.StringIO(), io.StringIO()
    human = ScriptedHuman(out, new_game("divisor-duel", 60), smallest, ("hint", "?", "explain", "HINT "))
    code = main(["play", "--vs", "computer", "--level", "coach"], human, out, err)
    assert code == 0
    text = out.getvalue()
    assert text.count("Coach: ") == 4
    first_reply = text.split("Coach: ")[1].splitlines()[0]
    assert "15" not in first_reply  # a hint does not give the answer away
    explained = text.split("Coach: ")[3].splitlines()[0]
    assert "Subtract 15" in explained and "3, 5, 15" in explained
    assert text.count("Enter your chosen divisor:") >= 5  # asked again after each question


def test_hint_in_a_hot_seat_game_but_no_explain() -> None:
    code, out, _ = run(["play", "divisor-duel", "--start", "12"], "hint\nexplain\n3\n3\n3\n")
    assert code == 0
    assert "Coach: " in out and "Only hints here" in out
    assert "Player 1 wins" in out  # 12 - 3 = 9, 9 - 3 = 6, 6 - 3 = 3: Player 2 is stuck at a prime


def test_no_coach_against_the_perfect_player() -> None:
    code, out, _ = run(["play", "--vs", "computer", "--level", "perfect"], "hint\n")
    assert code == 1  # input ended
    assert "The coach is not in this game" in out and "--level coach" in out


def test_help_documents_the_new_commands() -> None:
    assert all(word in run(["--help"])[1] for word in ("solve", "table", "Custom variants"))
    play = run(["play", "--help"])[1]
    assert all(word in play for word in ("--vs", "--level", "--computer-first", "hint", "explain", "Player 2"))
    assert "n,outcome,grundy,remoteness,winning_moves" in run(["table", "--help"])[1]
    assert "--json" in run(["solve", "--help"])[1]


# -- issue 13 §3: files, encodings, refusals ---------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def cli(
    argv: list[str], env: dict[str, str] | None = None, stdin: str = "", stdout: object = None
) -> tuple[int, bytes, bytes]:
    """Run ``python -m duel_lessons`` in a fresh process; return (exit code, stdout bytes, stderr bytes)."""
    import os
    import subprocess
    import sys

    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "duel_lessons", *argv],
        input=stdin.encode(),
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        env=full,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout or b"", done.stderr


@pytest.mark.parametrize(
    ("name", "fmt", "first_line"),
    [("t.csv", "csv", "n,outcome,grundy,remoteness,winning_moves"), ("t.JSON", "json", '[{"n": 1'),
     ("t.txt", "text", "Factor Duel"), ("t.dat", "text", "Factor Duel")],
)  # fmt: skip
def test_table_output_format_follows_the_extension(tmp_path: Path, name: str, fmt: str, first_line: str) -> None:
    target = tmp_path / name
    code, out, _ = run(["table", "factor-duel", "--upto", "12", "--output", str(target)])
    assert code == 0 and f"as {fmt} to" in out
    assert target.read_text(encoding="utf-8").startswith(first_line)
    if fmt == "json":
        assert [row["n"] for row in json.loads(target.read_text(encoding="utf-8"))] == list(range(1, 13))


def test_table_format_that_contradicts_the_extension_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    code, _, err = run(["table", "--upto", "5", "--format", "json", "--output", str(target)])
    assert code == 2 and "--format json" in err and "csv" in err and not target.exists()
    assert run(["table", "--upto", "5", "--format", "csv", "--output", str(target)])[0] == 0  # agreeing is fine


def test_table_never_overwrites_without_force(tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    target.write_text("my own work\n", encoding="utf-8")
    code, _, err = run(["table", "--upto", "5", "--output", str(target)])
    assert code == 2 and "already exists" in err and "--force" in err
    assert target.read_text(encoding="utf-8") == "my own work\n"
    assert run(["table", "--upto", "5", "--output", str(target), "--force"])[0] == 0
    assert target.read_text(encoding="utf-8").count("\n") == 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]  # no temporary file left


def test_table_never_writes_through_a_symlink(tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "t.csv"
    link.symlink_to(precious)
    for extra in ([], ["--force"]):
        code, _, err = run(["table", "--upto", "5", "--output", str(link), *extra])
        assert code == 2 and "symbolic link" in err
    assert precious.read_text(encoding="utf-8") == "keep me\n" and link.is_symlink()
    dangling = tmp_path / "new.csv"
    dangling.symlink_to(tmp_path / "nowhere.csv")
    assert run(["table", "--upto", "5", "--output", str(dangling)])[0] == 2
    assert not (tmp_path / "nowhere.csv").exists()


def test_ctrl_c_while_writing_a_table_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from duel_lessons.cli import tools

    real = tools.table_lines

    def interrupted(*args: object) -> object:
        for i, line in enumerate(real(*args)):  # type: ignore[arg-type]
            if i == 15_000:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(tools, "table_lines", interrupted)
    target = tmp_path / "big.csv"
    code, _, err = run(["table", "--upto", "50000", "--output", str(target)])
    assert code == 130 and "Interrupted" in err
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary one


def test_ctrl_c_leaves_an_existing_file_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from duel_lessons.cli import tools

    def interrupted(*args: object) -> object:
        yield "n,outcome\n"
        raise KeyboardInterrupt

    monkeypatch.setattr(tools, "table_lines", interrupted)
    target = tmp_path / "t.csv"
    target.write_text("old table\n", encoding="utf-8")
    assert run(["table", "--upto", "50", "--output", str(target), "--force"])[0] == 130
    assert target.read_text(encoding="utf-8") == "old table\n" and len(list(tmp_path.iterdir())) == 1


def test_table_into_a_folder_or_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    assert "is a folder" in run(["table", "--upto", "5", "--output", str(tmp_path)])[2]
    assert "does not exist" in run(["table", "--upto", "5", "--output", str(tmp_path / "no" / "t.csv")])[2]
    assert "--force only applies" in run(["table", "--upto", "5", "--force"])[2]


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_a_terminal_that_cannot_show_every_character_gets_ascii_stand_ins(encoding: str) -> None:
    env = {"PYTHONIOENCODING": encoding}
    code, out, err = cli(["play", "number-factor", "--start", "4"], env, stdin="2\n")
    assert code == 0 and b"Traceback" not in err
    shown = {"ascii": b"Calculating 4 / 2...", "cp1252": "Calculating 4 ÷ 2...".encode("cp1252")}
    assert shown[encoding] in out  # the book's "4 ÷ 2", where the terminal can show it
    code, out, err = cli(["solve", "divisor-duel", "30", "--misere"], env)
    assert code == 0 and b"Traceback" not in err and {"ascii": b"misere", "cp1252": b"mis\xe8re"}[encoding] in out
    code, out, err = cli(["play", "--sum", "12", "division-duel:18"], env, stdin="2 6\n١٢ ２\n")
    assert code == 1 and b"Traceback" not in err
    assert {"ascii": b"18 / 6 = 3", "cp1252": "18 ÷ 6 = 3".encode("cp1252")}[encoding] in out
    assert b"is not a move" in out  # the typed Arabic-Indic and full-width digits, refused and shown


def test_lc_all_c_does_not_crash() -> None:
    code, out, err = cli(["play", "division-duel", "--start", "12"], {"LC_ALL": "C", "LANG": "C"}, stdin="6\n2\n")
    assert code == 0 and b"Traceback" not in err and b"Player" in out


def test_writing_to_a_full_disk_is_a_one_line_error() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system (it is Linux-only)")
    for argv in (["rules"], ["table", "--upto", "50000"], ["--help"], ["play"]):
        with open("/dev/full", "wb") as full:
            code, _, err = cli(argv, stdin="15\n", stdout=full)
        text = err.decode()
        assert code == 74, (argv, text)
        assert text.count("\n") == 1 and "cannot write the output" in text and "No space left" in text


def test_a_closed_pipe_ends_quietly() -> None:
    import subprocess
    import sys

    shell = f"{sys.executable} -m duel_lessons table --upto 100000 | head -2"
    done = subprocess.run(
        shell, shell=True, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    )
    assert done.stdout.splitlines()[0].startswith("Divisor Duel") and done.stderr == ""


def test_the_computer_refuses_a_start_it_cannot_play_before_the_game() -> None:
    code, out, err = run(["play", "--misere", "--start", "20000000", "--vs", "computer"], "2\n")
    assert code == 2 and out == ""  # nothing printed: the game never started
    assert "cannot play" in err and "20,000,000" in err and "--level random" in err
    code, out, err = run(["play", "--misere", "--start", "20000000", "--vs", "computer", "--level", "random"], "2\n")
    assert code == 1 and "Current number: 20000000" in out  # a random player needs no table: the game starts
    code, out, _ = run(["play", "--misere", "--random-start", "20000000", "30000000", "--vs", "computer"])
    assert code == 2 and out == ""


def test_solve_without_a_closed_form_near_ten_million_refuses_quickly_unless_asked_to_wait() -> None:

    from duel_lessons.cli.tools import QUICK_TABLE
    from duel_lessons.solving import tables

    for flags in (["--misere"], ["--misere", "--allow-one"], ["--misere", "--divisors", "prime"]):
        tables.clear_cache()
        code, out, err = run(["solve", "divisor-duel", "9999999", *flags])
        assert tables.cache_info().tables == 0  # refused at once: no table was built
        assert code == 2 and out == "" and "--wait" in err and "9,999,999" in err
    n = QUICK_TABLE + 1
    code, out, err = run(["solve", "divisor-duel", str(n), "--misere", "--wait"])
    assert code == 0 and "Building the solver's table" in err
    lost = field(out, "Outcome").startswith("P-position")
    assert lost == field(out, "Winning moves").startswith("none")  # answered, and consistently


def test_a_misere_table_writes_no_grundy_value_as_a_dash_in_text_and_minus_one_in_csv() -> None:
    """Misère Divisor Duel, by hand: 4 -> 2 only (P, one move left), 5 prime (no move), 6 -> 4 wins."""
    text = run(["table", "divisor-duel", "--misere", "--from", "4", "--upto", "6"])[1]
    assert text.splitlines()[3:] == ["4        P       -           1", "5        N       -           0",
                                     "6        N       -           2  2"]  # fmt: skip
    csv = run(["table", "divisor-duel", "--misere", "--from", "4", "--upto", "4", "--format", "csv"])[1]
    assert csv == "n,outcome,grundy,remoteness,winning_moves\n4,P,-1,1,\n"
