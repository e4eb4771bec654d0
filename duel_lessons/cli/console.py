"""Where the terminal reads and writes: the :class:`Console`, and text any terminal can show.

Messages use a few characters beyond ASCII (``÷``, ``−``, ``×``, ``–``, ``…``, ``→``,
``misère``).  A terminal whose encoding cannot show them (a Windows console in
cp1252, ``PYTHONIOENCODING=ascii``, an old ``LC_ALL=C`` system) gets ASCII
stand-ins instead of a crash: :func:`make_safe` sets the error handler
``"duel-ascii"`` on a stream, which writes ``/`` for ``÷``, ``-`` for ``−``, ``x``
for ``×``, ``...`` for ``…``, ``->`` for ``→``, drops accents (``misere``) and
writes ``?`` for anything else.  Typed bytes that are not valid in the input's
encoding become ``�`` (and are then refused as a number, like any other slip).

>>> import io
>>> raw = io.BytesIO()
>>> out = make_safe(io.TextIOWrapper(raw, encoding="ascii"))
>>> _ = out.write("60 ÷ 2 − 1 × 3 … misère →")
>>> out.flush(); raw.getvalue()
b'60 / 2 - 1 x 3 ... misere ->'
"""

from __future__ import annotations

import codecs
import contextlib
import io
import sys
import unicodedata
from dataclasses import dataclass, field
from typing import TextIO

#: Typed input longer than this is refused without trying to read it as a number.
MAX_INPUT = 1000
#: The most characters of an overlong line read and dropped; input with no line end within this (``< /dev/zero``)
#: is not typed text, and ends the input.
MAX_DROPPED = 1_000_000

#: Control characters (escape codes, bells, carriage returns) written as ``\x1b`` when printed: a file or
#: notebook name, or a bot's message, cannot move the cursor, recolour or retitle the teacher's terminal.
_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if chr(c) not in "\n\t"}


def safe_text(text: str) -> str:
    r"""``text`` with its control characters (but newlines and tabs) written out, safe for a terminal.

    >>> print(safe_text("lesson\x1b[2J.ipynb"))
    lesson\x1b[2J.ipynb
    """
    return text.translate(_CONTROLS)


#: ASCII stand-ins for the characters the package's messages use.
ASCII_FALLBACKS: dict[str, str] = {
    "÷": "/",
    "−": "-",
    "–": "-",
    "—": "-",
    "×": "x",
    "·": ".",
    "…": "...",
    "→": "->",
    "←": "<-",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "²": "^2",
    "³": "^3",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "\u00a0": " ",
    "\ufffd": "?",
}

ERRORS = "duel-ascii"


def ascii_fallback(char: str) -> str:
    """The ASCII stand-in for one character (``?`` if there is none).

    >>> ascii_fallback("÷"), ascii_fallback("è"), ascii_fallback("⑧")
    ('/', 'e', '8')
    """
    if char in ASCII_FALLBACKS:
        return ASCII_FALLBACKS[char]
    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii() and c.isprintable())
    return plain or "?"


def _fallback_errors(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(ascii_fallback(c) for c in bad), error.end


codecs.register_error(ERRORS, _fallback_errors)


def make_safe(stream: TextIO, *, reading: bool = False) -> TextIO:
    """``stream`` set to write ASCII stand-ins (or, ``reading``, to decode bad bytes as ``�``).

    Streams that cannot be reconfigured (a StringIO) are returned unchanged: they hold any text.
    """
    if isinstance(stream, io.TextIOWrapper):  # (None, a stream Python started without, is returned as it is)
        with contextlib.suppress(ValueError, OSError, LookupError):  # closed, or no error handling
            stream.reconfigure(errors="replace" if reading else ERRORS)
    return stream


def isatty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (False for anything that cannot say)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class OutputError(Exception):
    """The terminal's output cannot be written (a full disk, a closed pipe); the OSError is the cause."""


@dataclass
class Console:
    """Where the game reads typed lines and prints its text.

    When input does not come from a terminal (a pipe or a file), the typed
    value is echoed after the prompt, so the output reads like a session.
    """

    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)

    def say(self, *lines: str) -> None:
        """Print lines of text (OutputError if they cannot be written)."""
        self.write("".join(line + "\n" for line in lines))

    def write(self, text: str) -> None:
        """Print text as it is, no newline added (OutputError if it cannot be written)."""
        try:
            if self.stdout is None:  # Python started with its standard output closed
                raise OSError(9, "standard output is closed")
            self.stdout.write(safe_text(text))
            self.stdout.flush()
        except (OSError, ValueError) as error:  # ValueError: a stream closed meanwhile
            raise OutputError(str(error)) from (error if isinstance(error, OSError) else OSError(9, str(error)))

    def warn(self, message: str) -> None:
        """Print an error message on stderr (silently dropped if stderr itself cannot be written)."""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.stderr.write(safe_text(message) + "\n")
            self.stderr.flush()

    def ask(self, question: str) -> str:
        """Print a prompt and return the typed line (EOFError at end of input).

        At most ``MAX_INPUT + 1`` characters are kept; the rest of a longer line
        is read and dropped.
        """
        self.write(question)
        if self.stdin is None:  # Python started with its standard input closed
            raise EOFError
        try:
            line = self.stdin.readline(MAX_INPUT + 2)
        except ValueError:  # closed meanwhile
            raise EOFError from None
        if not line:
            raise EOFError
        if not line.endswith("\n") and len(line) > MAX_INPUT:
            dropped = 0
            while True:  # drop the rest of an overlong line
                rest = self.stdin.readline(65536)
                dropped += len(rest)
                if not rest or rest.endswith("\n"):
                    break
                if dropped > MAX_DROPPED:
                    raise EOFError  # not lines of typed text (such as /dev/zero): the input has ended
        text = line.rstrip("\r\n")[: MAX_INPUT + 1]
        if not isatty(self.stdin):
            shown = text if len(text) <= 60 else text[:40] + "..."
            self.write("".join(c if c.isprintable() else "?" for c in shown) + "\n")
        return text
