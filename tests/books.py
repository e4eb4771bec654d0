"""Read the rule books shipped in docs/rulebooks (the specification)."""

from __future__ import annotations

from pathlib import Path

BOOKS = Path(__file__).resolve().parents[1] / "docs" / "rulebooks"


def book_text(book: str) -> str:
    """The text of rule book ``book`` ("000" to "004"), with its mis-encodings repaired."""
    (path,) = BOOKS.glob(f"{book}_*.txt")
    return path.read_text(encoding="utf-8").replace("รท", "÷").replace("â€”", "—")


def transcript_block(book: str) -> str:
    """The book's command-line transcript: its first unindented code block."""
    lines = book_text(book).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("```"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[start + 1 : end]).strip("\n") + "\n"
