"""What the game board shows, drawn from a position: frames for the play surface, the coach and the
history as HTML, and text for pages without widgets.

A part :class:`~duel_lessons.views.board.GameBoard` holds (``board.frame``).  It keeps no game of its
own: each call takes a :class:`~duel_lessons.engine.game.GameState` and a :class:`Scene` (what the
match adds to it: opponent, score, message, the P/N labels), so a position is drawn without a board.

>>> from duel_lessons.engine.game import new_game
>>> frame = BoardFrame()
>>> frame.status_text(new_game("divisor-duel", 12))
"Player 1's turn. Choose a divisor of 12: click its card or type it."
>>> frame.card_labels(new_game("divisor-duel", 6))
['6 − 2 = 4', '6 − 3 = 3']
>>> game_strip(new_game("divisor-duel", 12).play(6).play(3))
'12 −6→ 6 −3→ 3'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from duel_lessons.engine.game import GameState, LostTurn, Moved, Passed
from duel_lessons.engine.numbers import is_prime
from duel_lessons.play import coach
from duel_lessons.views.common import (
    grouped,
    move_words,
    op_symbol,
    position_html,
    position_text,
    prose,
    prose_html,
)
from duel_lessons.views.rectangles import MovePicture, move_picture, rectangle_svg, strip_picture
from duel_lessons.views.wording import DEFAULT_WORDING, BoardWording

__all__ = ["COACH_KEPT", "MAX_BUTTONS", "STRIP_ENDS", "BoardFrame", "Scene", "equation", "game_strip"]

#: Coach messages kept on the board (newest first).
COACH_KEPT = 4

#: Most move cards shown at once; the text box plays any other divisor.
MAX_BUTTONS = 60

#: A longer game's strip shows its first and last STRIP_ENDS steps, with "…" between.
STRIP_ENDS = 4


def game_strip(state: GameState) -> str:
    """The whole game in one short line of numbers and moves: ``60 −12→ 48 −6→ 42 …``.

    Each move is written on its arrow (``−d`` or ``÷d``); a pass is ``pass→`` and a divisor that lost the
    turn ``✗d→``.  A game of more than 2 × STRIP_ENDS steps keeps its first and last STRIP_ENDS, with
    ``…`` for the steps between (the history, under "Game so far", has them all).

    >>> from duel_lessons.engine.game import new_game
    >>> game_strip(new_game("divisor-duel", 60).play(12).play(6).play(21).play(7).play(7))
    '60 −12→ 48 −6→ 42 −21→ 21 −7→ 14 −7→ 7'
    >>> game_strip(new_game("division-duel", 30).play(5).play(3))
    '30 ÷5→ 6 ÷3→ 2'
    >>> g = new_game("divisor-duel", 64)
    >>> for _ in range(5):
    ...     g = g.play(2)
    >>> game_strip(g.play(2).play(2).play(2).play(2).play(2))
    '64 −2→ 62 −2→ 60 −2→ 58 −2→ 56 … 52 −2→ 50 −2→ 48 −2→ 46 −2→ 44'
    """
    sign = op_symbol(state.rules)
    steps = []
    for event in state.history:
        if isinstance(event, Moved):
            steps.append(f"{sign}{grouped(event.divisor)}→ {grouped(event.after)}")
        elif isinstance(event, Passed):
            steps.append(f"pass→ {grouped(event.number)}")
        elif isinstance(event, LostTurn):
            steps.append(f"✗{grouped(event.value)}→ {grouped(event.number)}")
    if len(steps) > 2 * STRIP_ENDS:
        return " ".join([grouped(state.start), *steps[:STRIP_ENDS], "…", _number_before(state, STRIP_ENDS),
                         *steps[-STRIP_ENDS:]])  # fmt: skip
    return " ".join([grouped(state.start), *steps])


def _number_before(state: GameState, last: int) -> str:
    """The number the game stood at before its last ``last`` events."""
    event = state.history[-last]
    return grouped(event.before if isinstance(event, Moved) else event.number)


def equation(picture: MovePicture) -> str:
    """The picture's maths in one line: what stays after the move is still a rectangle.

    >>> equation(move_picture(60, 12))
    '60 − 12 = 12 × (5 − 1) = 48'
    >>> equation(move_picture(30, 5, "divide")), equation(strip_picture(7))
    ('30 ÷ 5 = 6: one row of 6', '7 = 1 × 7 only: no other rectangle')
    """
    n, d, cols = grouped(picture.n), grouped(picture.d), picture.cols
    if picture.move == "subtract":
        return f"{n} − {d} = {d} × ({grouped(cols)} − 1) = {grouped(picture.result)}"
    if picture.rows == 1 and picture.d == 1 and picture.result == picture.n:
        return f"{n} = 1 × {n} only: no other rectangle"
    return f"{n} ÷ {d} = {grouped(cols)}: one row of {grouped(cols)}"


@dataclass(frozen=True)
class Scene:
    """What the match adds to a position when the board draws it.

    ``vs_computer``: Player 2 is the computer; ``score``: games won by Player 1 and Player 2;
    ``message``: the message line and whether it is a problem; ``pn``: the P/N labels are on, with
    ``winning`` the moves that leave a P-position (None: unknown).
    """

    vs_computer: bool = False
    score: tuple[int, int] = (0, 0)
    message: tuple[str, bool] = ("", False)
    pn: bool = False
    winning: frozenset[int] | None = field(default=None)


def position_key(state: GameState) -> str:
    """A name for the position ``state`` shows, the same in every redraw of it (a message, P/N shown).

    The browser sends it with a click, so the kernel plays a click made on any drawing of the position
    it is at, and refuses one made on a position it has left (:class:`~duel_lessons.views.board_view.OneMove`).

    >>> from duel_lessons.engine.game import new_game
    >>> game = new_game("divisor-duel", 12)
    >>> position_key(game) == position_key(new_game("divisor-duel", 12))
    True
    >>> position_key(game) == position_key(game.play(3))
    False
    """
    return f"{state.rules.name}:{hash(state.rules)}:{state.start}:{len(state.history)}:{state.number}:{state.passes}"


class BoardFrame:
    """Draws a position: ``words`` (every phrase), at most ``max_buttons`` cards, and the rectangles of dots
    when ``pictures`` is on (views.rectangles).

    >>> from duel_lessons.engine.game import new_game
    >>> f = BoardFrame().draw(new_game("divisor-duel", 60).play(12), Scene(vs_computer=True))
    >>> f["turn"], f["moved"]["equation"]
    ('Computer is thinking…', '60 − 12 = 12 × (5 − 1) = 48')
    """

    def __init__(
        self, words: BoardWording = DEFAULT_WORDING, max_buttons: int = MAX_BUTTONS, pictures: bool = True
    ) -> None:
        self.words = words
        self.max_buttons = max_buttons
        self.pictures = pictures

    def names(self, vs_computer: bool) -> tuple[str, str]:
        """The players' names: "You" and "Computer" against the computer, else "Player 1" and "Player 2"."""
        return (self.words.name(1, vs_computer), self.words.name(2, vs_computer))

    # -- text -------------------------------------------------------------------------

    def status_text(self, state: GameState, scene: Scene = Scene()) -> str:
        """Whose turn it is and what to do, or who won and why, in plain words."""
        frame = self.draw(state, scene)
        if frame["result"]:
            return f"{frame['result']['headline']} {frame['result']['why']}"
        return f"{frame['turn']}. {frame['instruction']}"

    def card_labels(self, state: GameState, scene: Scene = Scene()) -> list[str]:
        """The move cards ('60 − 15 = 45', with ' P' / ' N' when P/N is shown)."""
        return [(c["text"] + (f" {c['tag']}" if c["tag"] else "")) for c in self.draw(state, scene)["cards"]]

    def _summary(self, state: GameState, scene: Scene) -> tuple[str, list[str]]:
        frame = self.draw(state, scene)
        if frame["result"]:
            return f"{frame['result']['headline']} {frame['result']['why']}", []
        return f"{frame['turn']}.", [c["text"] for c in frame["cards"]]

    def text_summary(self, state: GameState, scene: Scene = Scene()) -> str:
        """The position in plain text, for pages without widgets (no "click a card")."""
        return position_text(state.rules.title, state.number, *self._summary(state, scene))

    def html_summary(self, state: GameState, scene: Scene = Scene()) -> str:
        """The position in HTML, for pages that cannot show widgets."""
        return position_html(state.rules.title, state.number, *self._summary(state, scene))

    def event_words(self, state: GameState, vs_computer: bool) -> str:
        """What the last event of ``state`` was, in the board's words ("You played 60 − 15 = 45.")."""
        event, words = state.history[-1], self.words
        who = words.name(event.player, vs_computer)
        if isinstance(event, Moved):
            move = move_words(state.rules, event.before, event.divisor)
            if vs_computer:
                return words.fill("you_played" if event.player == 1 else "computer_played", move=move)
            return words.fill("player_played", player=who, move=move)
        if isinstance(event, Passed):
            if vs_computer and event.player == 2:
                return words.fill("computer_passed", n=grouped(event.number))
            return words.fill("player_passed", player=who, n=grouped(event.number))
        text = words.fill("lost_turn", d=event.value, n=grouped(event.number), why=event.reason,
                          title=state.rules.title)  # fmt: skip
        return f"{text} {words.turn(state.to_move, vs_computer)}."

    def coach_html(self, lines: list[tuple[GameState, str]], now: GameState) -> str:
        """The coach's messages, newest first; those about an earlier position marked so."""
        parts = []
        for state, text in lines[:COACH_KEPT]:
            old = "" if state == now else " duel-old"
            label = "" if not old else "<small>(earlier position)</small> "
            parts.append(f'<div class="duel-coach-msg{old}">{label}{prose_html(text)}</div>')
        return "".join(parts)

    def history_html(self, state: GameState, vs_computer: bool) -> str:
        """The book's record of the game, in its own words ("Player 1's turn"), with what each side said."""
        book_names = (self.words.name(1, False), self.words.name(2, vs_computer))
        voices = (self.words.you, book_names[1]) if vs_computer else (self.words.you, self.words.you)
        history = escape(prose(state.transcript(book_names, voices)))
        return f'<div style="white-space:pre-wrap;margin:0">{history}</div>'

    # -- frames ---------------------------------------------------------------------

    def draw(self, state: GameState, scene: Scene = Scene(), last: bool = True) -> dict[str, Any]:
        """What the board shows for ``state`` (``last``: the final frame of a turn, with the move cards' pictures)."""
        words, rules, vs = self.words, state.rules, scene.vs_computer
        names = self.names(vs)
        thinking = vs and not state.is_over and state.to_move == 2
        human = not state.is_over and not thinking
        result = None
        if state.winner is not None:
            why = coach.game_over_explanation(state, names, say_winner=False)  # the banner says who won
            kind = ("win" if state.winner == 1 else "loss") if vs else "neutral"
            icon = {"win": "★", "loss": "✗", "neutral": "⚑"}[kind]
            result = {"kind": kind, "icon": icon, "headline": words.result(state.winner, vs), "why": prose(why),
                      "strip": game_strip(state)}  # fmt: skip
        moves = state.legal_moves if human else ()
        winning = scene.winning if scene.pn and moves else None
        cards = []
        pictures = self.pictures and last
        for d in moves[: self.max_buttons]:
            text = move_words(rules, state.number, d)
            tag = "" if winning is None else ("P" if d in winning else "N")
            tag_text = {"P": "P – leaves a losing number", "N": "N – leaves a winning number", "": ""}[tag]
            cards.append({"d": d, "text": text, "tag": tag, "tag_text": tag_text,
                          "label": f"Play {d}: {text}" + (f". {tag_text}" if tag else ""),
                          "tip": f"Play {d}: {text}",
                          "picture": self.picture(state, d) if pictures else None})  # fmt: skip
        more = ""
        if len(moves) > len(cards):
            more = f"Showing {len(cards)} of {len(moves)} allowed divisors; type any other one in the box."
        if scene.pn and moves and winning is None:
            more += " P/N unknown here: no table or formula covers this number."
        if state.is_over:
            turn, turn_kind, instruction = words.game_over, "over", ""
        elif thinking:  # an instruction line still, so nothing below it moves up while the computer thinks
            waiting = words.fill("computer_choosing", n=grouped(state.number))
            turn, turn_kind, instruction = words.thinking, "thinking", waiting
        else:
            turn = words.turn(state.to_move, vs)
            turn_kind = "you" if vs else f"p{state.to_move}"
            who = names[state.to_move - 1] if not vs else "you"
            instruction = (words.fill("must_pass", n=grouped(state.number), player=who) if state.must_pass
                           else words.fill("choose_divisor", n=grouped(state.number)))  # fmt: skip
        text, error = scene.message
        score = words.fill("score", you=names[0], a=scene.score[0], b=scene.score[1], them=names[1])
        spoken = result["headline"] + " " + result["why"] if result else f"{turn}. {instruction}"
        said = f"{words.problem} {prose(text)}" if error and text else prose(text)
        return {
            "position": position_key(state),
            "title": rules.title, "number": grouped(state.number), "turn": turn, "turn_kind": turn_kind,
            "instruction": instruction, "result": result, "cards": cards, "more": more.strip(),
            "can_type": human and not state.must_pass, "can_pass": human and state.must_pass,
            "show_pass": rules.when_stuck == "pass" and not state.is_over, "thinking": thinking,
            "over": state.is_over, "message": {"text": prose(text), "error": error},
            "pictures": bool(pictures), "picture": self.picture(state) if pictures and not cards else None,
            "moved": self.moved(state) if self.pictures else None,
            "announce": f"{said} {spoken}".strip(), "score": score,
            "region": words.fill("region", title=rules.title, start=grouped(state.start)),
            "words": {"entry_label": words.entry_label, "play": words.play_label, "pass": words.pass_label,
                      "play_again": words.play_again, "rematch": words.rematch, "problem": words.problem,
                      "kernel_lost": words.kernel_lost, "no_answer": words.no_answer,
                      "details": words.details, "strip": words.strip},
        }  # fmt: skip

    @staticmethod
    def picture(state: GameState, d: int | None = None) -> dict[str, str] | None:
        """The rectangle of dots for the move ``d`` (views.rectangles), or a prime's only strip when ``d`` is None."""
        n, move = state.number, state.rules.move
        if move not in ("subtract", "divide") or n < 2:
            return None
        if d is None:
            if n > 10**12 or not is_prime(n):
                return None
            picture = strip_picture(n)
        elif d < 1 or n % d:
            return None
        else:
            picture = move_picture(n, d, move)
        return {"svg": rectangle_svg(picture), "alt": picture.alt, "equation": equation(picture), "move": move}

    def moved(self, state: GameState) -> dict[str, str] | None:
        """The picture of the move that led to ``state`` (the board animates it once: the dots it takes
        away leave), with a ``key`` that names that move in this game."""
        if not state.history or not isinstance(event := state.history[-1], Moved):
            return None
        before = GameState(state.rules, event.before)
        picture = self.picture(before, event.divisor)
        if picture is None:
            return None
        return {**picture, "key": f"{state.start}:{len(state.history)}:{event.before}:{event.divisor}"}
