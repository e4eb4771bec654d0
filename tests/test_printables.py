"""`duel-lessons printables DEST` writes real PDFs and never overwrites without being asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from duel_lessons.cli import main
from duel_lessons.engine.rules import RULEBOOKS
from duel_lessons.teaching.printables import EXIT_TICKETS, PRINTABLES, rule_card_figures, write_printables

ROOT = Path(__file__).resolve().parents[1]


def pages(path: Path) -> int:
    """The number of pages in a PDF written by matplotlib (one /Type /Page object each)."""
    data = path.read_bytes()
    return data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") + data.count(b"/Type /Page>")


def test_every_printable_is_a_pdf(tmp_path: Path) -> None:
    written = write_printables(tmp_path / "out")
    assert sorted(p.name for p in written) == sorted(PRINTABLES)
    for path in written:
        assert path.read_bytes().startswith(b"%PDF"), path.name
        assert pages(path) >= 1, path.name
    assert pages(tmp_path / "out" / "rule-cards.pdf") == len(RULEBOOKS)
    assert pages(tmp_path / "out" / "exit-tickets.pdf") == (len(EXIT_TICKETS) + 1) // 2
    assert not list((tmp_path / "out").glob("tmp*")), "temporary files left behind"


def test_rule_cards_use_the_books_words() -> None:
    texts = [" ".join(t.get_text() for t in fig.axes[0].texts) for fig in rule_card_figures()]
    assert any("1 < d < N" in t for t in texts)
    assert len(texts) == len(RULEBOOKS)


def test_the_command_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["printables", str(tmp_path)]) == 0
    assert "exit-tickets.pdf" in capsys.readouterr().out
    before = (tmp_path / "hundred-square.pdf").stat().st_mtime_ns
    assert main(["printables", str(tmp_path)]) == 2
    assert "Not overwriting" in capsys.readouterr().err
    assert (tmp_path / "hundred-square.pdf").stat().st_mtime_ns == before
    assert main(["printables", str(tmp_path), "--overwrite"]) == 0
    (tmp_path / "afile").write_text("x")
    assert main(["printables", str(tmp_path / "afile")]) == 2


def test_the_teacher_guide_quotes_every_exit_ticket() -> None:
    guide = (ROOT / "docs" / "teacher-guide.md").read_text(encoding="utf-8")
    for lesson, (_title, questions) in EXIT_TICKETS.items():
        for question in questions:
            assert question in guide, f"lesson {lesson}'s exit ticket is not in the teacher guide: {question}"
