"""Layer 4, the terminal: the game as in the rule books' transcripts, and the command-line tools.

Modules: :mod:`~duel_lessons.cli.app` (the parser, the list of subcommands, ``main``),
:mod:`~duel_lessons.cli.console` (reading and writing), :mod:`~duel_lessons.cli.options`
(shared flags), :mod:`~duel_lessons.cli.terminal` (``play``), :mod:`~duel_lessons.cli.sum_play`
(``play --sum``), :mod:`~duel_lessons.cli.tools` (``rules``, ``solve``, ``table``),
:mod:`~duel_lessons.views.files` (safe output files), :mod:`~duel_lessons.cli.copies`
(``student-copies``, ``answer-key``).
"""

from duel_lessons.cli.app import main

__all__ = ["main"]
