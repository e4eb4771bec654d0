"""A picture of divisibility: N dots as a d × (N/d) rectangle, one for each divisor d.

A divisor d of N is a way to lay N dots out in d equal rows (of N/d dots each).  A move then
reads off the picture: **subtracting d** takes away one column (d dots, one from each row),
leaving d rows of N/d − 1, so the result N − d is still d × something; **dividing by d** keeps
one row, N/d dots.  A prime has only the 1 × N strip (and its turn N × 1): no rectangle with two
rows or more, so no divisor to play.

:func:`dot_arrays` lists the arrays, :func:`move_picture` describes one move's picture in
numbers and words, :func:`rectangle_svg` draws it, and :class:`Rectangles` shows it in a
notebook (the game board draws the same picture for the move card that has the focus).

>>> [(a.rows, a.cols) for a in dot_arrays(12)]
[(1, 12), (2, 6), (3, 4), (4, 3), (6, 2), (12, 1)]
>>> pic = move_picture(12, 3)
>>> pic.rows, pic.cols, pic.kept_rows, pic.kept_cols, pic.result
(3, 4, 3, 3, 9)
>>> print(pic.alt)
12 dots in 3 rows of 4. Subtracting 3 takes away one column of 3 dots: 9 dots are left, in 3 rows of 3.
>>> move_picture(12, 3, "divide").alt
'12 dots in 3 rows of 4. Dividing by 3 keeps one row: 4 dots are left.'
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Literal

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.numbers import MAX_NUMBER, divisors

__all__ = ["DotArray", "MovePicture", "Rectangles", "dot_arrays", "move_picture", "rectangle_svg", "strip_picture"]

Move = Literal["subtract", "divide"]

#: The largest N whose divisors :func:`dot_arrays` lists (sympy factorises it at once).
MAX_ARRAYS = 10**12
#: The picture's box in px; dots are drawn while each is at least MIN_DOT px apart, else a shaded block.
WIDTH, HEIGHT, MIN_DOT, MAX_DOT = 420, 140, 5.0, 22.0


@dataclass(frozen=True)
class DotArray:
    """N dots in ``rows`` equal rows of ``cols`` (rows × cols = N)."""

    rows: int
    cols: int


@dataclass(frozen=True)
class MovePicture:
    """The picture of one move: N as ``rows`` × ``cols``; ``kept_rows`` × ``kept_cols`` are left after it."""

    n: int
    d: int
    move: Move
    rows: int
    cols: int
    kept_rows: int
    kept_cols: int
    result: int
    alt: str


def _check(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise DuelError(f"A picture needs a whole number N >= 1, not {n!r}.")
    if n > MAX_NUMBER:
        raise DuelError("The largest number is 10**18.")
    return n


def dot_arrays(n: int) -> list[DotArray]:
    """Every way to lay ``n`` dots out in equal rows: d rows of n/d for each divisor d, fewest rows first.

    >>> dot_arrays(7)
    [DotArray(rows=1, cols=7), DotArray(rows=7, cols=1)]
    """
    n = _check(n)
    if n > MAX_ARRAYS:
        raise DuelError(f"{n} is too big to list its arrays here (at most 10**12).")
    return [DotArray(d, n // d) for d in divisors(n)]


def _g(n: int) -> str:
    """Digits in groups of three from 10 000 on (thin spaces), as on the board."""
    return str(n) if n < 10_000 else f"{n:,}".replace(",", "\u2009")


def _rows_of(count: int, cols: int) -> str:
    return f"{_g(count)} row{'s' if count != 1 else ''} of {_g(cols)}"


def move_picture(n: int, d: int, move: Move = "subtract") -> MovePicture:
    """The picture of the move d from n: n as d rows of n/d, and what the move leaves.

    >>> move_picture(7, 1).alt
    '7 dots in 1 row of 7. Subtracting 1 takes away one column of 1 dot: 6 dots are left, in 1 row of 6.'
    """
    n, d = _check(n), _check(d)
    if n % d:
        raise DuelError(f"{d} does not divide {n}: {n} dots do not make {d} equal rows.")
    cols = n // d
    shape = f"{_g(n)} dots in {_rows_of(d, cols)}."
    if move == "subtract":
        left = n - d
        column = f"{_g(d)} dot{'s' if d != 1 else ''}"
        rest = f", in {_rows_of(d, cols - 1)}" if left else ""
        alt = f"{shape} Subtracting {_g(d)} takes away one column of {column}: {_g(left)} dots are left{rest}."
        return MovePicture(n, d, move, d, cols, d if left else 0, cols - 1, left, alt.replace(" 1 dots", " 1 dot"))
    if move == "divide":
        dots = f"{_g(cols)} dot{'s are' if cols != 1 else ' is'}"
        alt = f"{shape} Dividing by {_g(d)} keeps one row: {dots} left."
        return MovePicture(n, d, move, d, cols, 1, cols, cols, alt)
    raise DuelError(f"Unknown move {move!r}: 'subtract' or 'divide'.")


def strip_picture(n: int) -> MovePicture:
    """A prime's only picture: the 1 × n strip (no rectangle with two rows or more, so no move).

    >>> strip_picture(7).alt
    '7 dots make only one row of 7 (or 7 rows of 1): no rectangle with 2 rows or more.'
    """
    n = _check(n)
    alt = f"{_g(n)} dots make only one row of {_g(n)} (or {_g(n)} rows of 1): no rectangle with 2 rows or more."
    return MovePicture(n, 1, "divide", 1, n, 1, n, n, alt)


def rectangle_svg(picture: MovePicture) -> str:
    """The picture as an inline SVG (no fonts, no emoji): kept dots filled, the dots a move takes away hollow.

    Drawn in ``currentColor`` so it takes the text colour of any theme.  Too many dots to tell apart
    (closer than MIN_DOT px) are drawn as a block, with the part taken away hatched.

    >>> svg = rectangle_svg(move_picture(6, 2))
    >>> svg.count("<circle"), svg.count('class="dg-gone"')
    (6, 2)
    """
    rows, cols = picture.rows, picture.cols
    step = min(MAX_DOT, WIDTH / cols, HEIGHT / rows)
    label = escape(picture.alt, quote=True)
    if step >= MIN_DOT:
        width, height = cols * step, rows * step
        radius = step * 0.36
        dots = []
        for r in range(rows):
            for c in range(cols):
                kept = r < picture.kept_rows and c < picture.kept_cols
                cls = "dg-kept" if kept else "dg-gone"
                x, y = (c + 0.5) * step, (r + 0.5) * step
                dots.append(f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"/>')
        body = "".join(dots)
    else:  # a block: the kept part solid, the rest outlined
        width = WIDTH if cols >= rows else max(24.0, HEIGHT * cols / rows)
        height = HEIGHT if rows > cols else max(24.0, WIDTH * rows / cols)
        kept_w = width * picture.kept_cols / cols
        kept_h = height * picture.kept_rows / rows
        if picture.kept_cols < cols:  # the column taken away stays visible, however thin it really is
            kept_w = min(kept_w, width - 4)
        if picture.kept_rows < rows:
            kept_h = min(kept_h, height - 4)
        body = (
            f'<rect class="dg-gone" x="0.5" y="0.5" width="{width - 1:.1f}" height="{height - 1:.1f}"/>'
            f'<rect class="dg-kept" x="0.5" y="0.5" width="{max(kept_w - 1, 0):.1f}" '
            f'height="{max(kept_h - 1, 0):.1f}"/>'
        )
    return (
        f'<svg class="dg-dots" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" role="img" aria-label="{label}">{body}</svg>'
    )


class Rectangles:
    """N as rectangles of dots, in a notebook: ``Rectangles(12)`` shows every d × (12/d) array,
    ``Rectangles(12, 3)`` the move 12 − 3 (``move="divide"``: 12 ÷ 3).

    Each picture has its words under it (the text alternative a screen reader reads too).

    >>> print(Rectangles(12, 3).text)
    12 dots in 3 rows of 4. Subtracting 3 takes away one column of 3 dots: 9 dots are left, in 3 rows of 3.
    >>> Rectangles(12).text.splitlines()[1]
    '2 rows of 6'
    """

    def __init__(self, n: int, d: int | None = None, move: Move = "subtract") -> None:
        self.n, self.d, self.move = _check(n), d, move
        if d is None:
            self.pictures = [
                MovePicture(n, a.rows, "divide", a.rows, a.cols, a.rows, a.cols, n, _rows_of(a.rows, a.cols))
                for a in dot_arrays(n)
            ]
        else:
            self.pictures = [move_picture(n, d, move)]

    @property
    def text(self) -> str:
        """The pictures in words, one line each."""
        return "\n".join(p.alt for p in self.pictures)

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        figures = "".join(
            f'<figure class="dg-picture" style="margin:4px 16px 8px 0;display:inline-block;vertical-align:top">'
            f"{rectangle_svg(p)}<figcaption>{escape(p.alt)}</figcaption></figure>"
            for p in self.pictures
        )
        style = (
            "<style>.dg-rects .dg-kept{fill:currentColor;stroke:currentColor}"
            ".dg-rects .dg-gone{fill:none;stroke:currentColor;stroke-width:1.2;stroke-dasharray:2 2}</style>"
        )
        return f'<div class="dg-rects" style="color:var(--jp-ui-font-color0,#111)">{style}{figures}</div>'
