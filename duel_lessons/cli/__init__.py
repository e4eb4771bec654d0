"""Layer 4, the terminal: the game as in the rule books' transcripts, and the command-line tools."""

from duel_lessons.cli.main import main

__all__ = ["main"]
