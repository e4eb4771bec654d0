"""Tools a lesson unlocks: Show P/N, Explain and the coach's last hint wait for the student's guess.

A board's Show P/N labels every move with what lessons 03–04 ask students to discover, and the
coach's explanation and its last hint name P- and N-positions.  In a student's lesson these wait
until the student has committed the lesson's guesses: the lesson (:class:`~duel_lessons.teaching.lesson.Lesson`,
student edition) sets the lock when it is made; every board asks it when a tool is used or drawn, so a
board cell edited to ``show_pn=True``, or a toggle flipped in code, says what opens the tool and shows
nothing before.  Without a lesson (the app, a teacher's notebook) nothing is locked.

>>> set_lock(lambda tool: "Make your guess first." if tool == "show_pn" else None)
>>> locked("show_pn"), locked("explain")
('Make your guess first.', None)
>>> set_lock(None); locked("show_pn") is None
True
"""

from __future__ import annotations

from collections.abc import Callable

#: The tools a lesson may lock: the P/N labels, the coach's explanation, the hint that names the move.
TOOLS = ("show_pn", "explain", "last_hint")

_lock: list[Callable[[str], str | None]] = []


def set_lock(lock: Callable[[str], str | None] | None) -> None:
    """Use ``lock(tool)`` (a message saying what opens the tool, or None when it is open) from now on."""
    _lock[:] = [] if lock is None else [lock]


def locked(tool: str) -> str | None:
    """Why ``tool`` is locked (what opens it), or None when it may be used."""
    if not _lock:
        return None
    try:
        return _lock[0](tool)
    except Exception:  # a lesson's lock that fails keeps the tool shut, never breaks the board
        return "This tool opens later in the lesson."
