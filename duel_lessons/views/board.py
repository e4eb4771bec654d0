"""The game board: play a duel in the notebook, against a friend or the computer.

The board is a thin view.  Games are played by :func:`~duel_lessons.engine.game.play_out`
(the student is one more strategy, :class:`Hand`, that waits until a card is clicked),
answers come from the coach and the oracle, and the words from :class:`BoardWording`.
Every button calls a plain method (``board.choose(15)``, ``board.play_typed("15")``,
``board.hint()``, ``board.start_game()``) that a test can call directly; results and
errors are written on the board, so nothing is lost silently.

GameBoard is the match (this module: the game, the score, moves, the computer's replies, the coach's
help) and holds two parts, each with its own small interface and no knowledge of the board:
``board.settings`` (board_settings.BoardSettings: the boxes under "Settings"; it reads them and calls the
board back to start a game) and ``board.frame`` (board_frame.BoardFrame: draws a GameState as the play
surface's frames, the coach, the history and text where widgets do not run).

>>> board = GameBoard("divisor-duel", 60, opponent="computer", delay=0)
>>> board.choose(15)             # 60 − 15 = 45, then the computer replies
>>> board.state.number < 45
True
>>> board.status_text
'Your turn. Choose a divisor of 40: click its card or type it.'
"""

from __future__ import annotations

import random
from typing import Any, Literal

import ipywidgets as w

from duel_lessons.engine.errors import DuelError, IllegalMoveError
from duel_lessons.engine.game import PASS, GameState, LostTurn, new_game, other, play_out
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.engine.starts import random_start
from duel_lessons.play import coach
from duel_lessons.play.players import LEVELS, Strategy, make_player
from duel_lessons.views.board_frame import COACH_KEPT, MAX_BUTTONS, BoardFrame, Scene
from duel_lessons.views.board_settings import BoardSettings
from duel_lessons.views.board_view import BoardView, Fold, Guard
from duel_lessons.views.common import (
    Hand,
    TextFallback,
    Turn,
    button,
    grouped,
    prose,
    read_box,
    rules_key,
    show_with_fallback,
)
from duel_lessons.views.tool_lock import locked
from duel_lessons.views.wording import DEFAULT_WORDING, BoardWording

__all__ = ["MAX_BUTTONS", "PN_TOOLTIP", "GameBoard", "Hand", "rules_key"]

PN_TOOLTIP = (
    "P = the player who must move from that number loses with best play; "
    "N = the player to move wins. Leaving your opponent a P-number is a winning move."
)


class GameBoard:
    """Play a duel in the notebook, against a friend or the computer.

    ``board.state`` is the current :class:`~duel_lessons.engine.game.GameState`.  Player 1
    is the student at the keyboard; against the computer, the computer is Player 2.
    Teacher switches: ``hints``, ``explain`` and ``show_pn`` (the coach's buttons), ``large``
    (large type for a projector; ``board.large = True`` switches later), ``delay`` (seconds
    before the computer's move is shown), ``wording`` (every phrase on the board) and
    ``rectangles`` (the focused card's move as a rectangle of dots, views.rectangles; a move
    played animates its picture: the dots it takes away leave, unless the browser asks for
    reduced motion; at the end the whole game shows as one strip, board_frame.game_strip).

    One move per intention: while a move is played and answered (the computer's reply included),
    and for 400 ms after the click, the board is busy and ignores clicks and keys, so a double-click
    plays one move; the kernel checks again (board_view.OneMove).  While the computer thinks the
    cards stay, greyed, and nothing on the board moves.  If the kernel restarts, the board says so
    ("run this cell again") instead of waiting.  Keyboard only: type a divisor and
    press Enter (arrow keys move between the cards); the focus stays on the board after every
    move, and on "New game" at the end; "Game so far" and "Settings" are buttons (Tab, then
    Enter).  To reach the board in JupyterLab without the mouse, run its cell with Ctrl+Enter
    (the cell stays selected), press Esc, then Tab until a card has the focus (past the cell's
    toolbar).  In Voilà, Tab reaches it.  Where widgets do not run (nbconvert HTML, GitHub),
    the board shows its position as text.
    """

    def __init__(
        self,
        rules: Rules | str = "divisor-duel",
        start: int | None = None,
        opponent: str = "human",
        level: str = "perfect",
        first: int = 1,
        seed: int | None = None,
        max_buttons: int = MAX_BUTTONS,
        *,
        hints: bool = True,
        explain: bool = True,
        show_pn: bool = True,
        large: bool = False,
        delay: float = 0.6,
        wording: BoardWording = DEFAULT_WORDING,
        rectangles: bool = True,
    ) -> None:
        book = get_rules(rules)
        if opponent not in ("human", "computer"):
            raise DuelError(f"opponent must be 'human' or 'computer', not {opponent!r}.")
        if level not in LEVELS:
            raise DuelError(f"Unknown level {level!r}. Known: {', '.join(LEVELS)}.")
        self.words = wording
        self.state: GameState = new_game(book, start, first)
        self.score: dict[int, int] = {1: 0, 2: 0}
        self.switches = {"hints": hints, "explain": explain, "show_pn": show_pn, "rectangles": rectangles}
        self._rng = random.Random(seed)
        self._seed = seed
        self._first = first
        self._opponent = opponent
        self._scored = False
        self._hint_stage = 0
        self._coach_lines: list[tuple[GameState, str]] = []
        self._message = ("", False)
        self.hand = Hand()
        self.computer: Strategy = make_player(level, seed)
        self._turn = Turn()

        self.frame = BoardFrame(wording, max_buttons, pictures=rectangles)
        self.view = BoardView(delay=float(delay), large=bool(large))
        self.view.on_action = self._action
        self.guard = Guard(live=False)  # the play surface has the board's one live region
        self.settings = BoardSettings(
            book, self.state.number, opponent, level, first, words=wording, guard=self.guard,
            on_new=self.start_game, on_random=self.random_start, on_rematch=self.rematch, on_reset=self.reset_score,
            on_level=self._level_changed, on_say=self._show_message,
        )  # fmt: skip
        self.hint_button = button("Hint", "A question from the coach; press again for more help", "duel-hint")
        self.explain_button = button("Explain", "The coach explains the best move and why", "duel-explain")
        self.pn_toggle = w.ToggleButton(value=False, description="Show P/N", tooltip=PN_TOOLTIP)
        self.pn_toggle.add_class("duel-pn").add_class("dg-guarded")  # busy while the board answers a move
        self.hint_button.layout.display = "" if hints else "none"
        self.explain_button.layout.display = "" if explain else "none"
        self.pn_toggle.layout.display = "" if show_pn else "none"
        self.coach_html = w.HTML().add_class("duel-coach").add_class("duel-coach-text")
        self.history_html = w.HTML().add_class("duel-history")
        history_box = w.Box(
            [self.history_html],
            layout=w.Layout(display="flex", flex_flow="column-reverse", overflow="auto", max_height="14em",
                            border="1px solid #999", padding="2px 8px"),
        ).add_class("duel-history-box")  # fmt: skip
        self.hint_button.on_click(self.guard.guarded(self.hint))
        self.explain_button.on_click(self.guard.guarded(self.explain))
        self.pn_toggle.observe(lambda change: self.guard.answered(lambda: self._pn_changed(change)), names="value")
        self.history = Fold(wording.history, history_box, css="duel-history-fold")
        tools = w.HBox([self.hint_button, self.explain_button, self.pn_toggle], layout=w.Layout(flex_flow="row wrap"))
        children = [self.guard, self.view, tools, self.coach_html, self.history, self.settings.fold]
        if not (hints or explain or show_pn):
            children.remove(tools)
        self.widget = w.VBox(children, layout=w.Layout(max_width="64em")).add_class("duel-board")
        self.large = large
        self._advance(None)

    @property
    def large(self) -> bool:
        """Large type for a projector (every text on the board bigger, none smaller)."""
        return bool(self.view.large)

    @large.setter
    def large(self, value: bool) -> None:
        self.view.large = bool(value)
        if value:
            self.widget.add_class("duel-large-type")
        else:
            self.widget.remove_class("duel-large-type")

    def show_board(self) -> None:
        """Bring the board into view with the focus on its first card (the builder's "Play it")."""
        self.view.request_focus()

    # -- what the board shows (drawn by board.frame) --------------------------------

    @property
    def vs_computer(self) -> bool:
        """Whether the current game is against the computer (the computer is Player 2)."""
        return self._opponent == "computer"

    @property
    def names(self) -> tuple[str, str]:
        """The players' names ("You" and "Computer" against the computer)."""
        return self.frame.names(self.vs_computer)

    def _scene(self, state: GameState | None = None, last: bool = True) -> Scene:
        """What the match adds to ``state`` (the current one by default) for the frame to draw."""
        state = self.state if state is None else state
        pn = bool(self.switches["show_pn"] and self.pn_toggle.value and state is self.state and not state.is_over
                  and locked("show_pn") is None)  # fmt: skip
        winning = self._winning_results() if pn else None
        message = self._message if last else (self._turn.words_until(state), False)
        return Scene(self.vs_computer, (self.score[1], self.score[2]), message, pn, winning)

    def text_summary(self) -> str:
        """The position in plain text.

        >>> print(GameBoard("divisor-duel", 6, opponent="computer").text_summary())
        Divisor Duel: current number 6. Your turn.
        Moves: 6 − 2 = 4, 6 − 3 = 3.
        (The board is a widget: open the notebook in JupyterLab or Voilà to play.)
        """
        return self.frame.text_summary(self.state, self._scene())

    def html_summary(self) -> str:
        """The position in HTML, for pages that cannot show widgets."""
        return self.frame.html_summary(self.state, self._scene())

    @property
    def status_text(self) -> str:
        """Whose turn it is and what to do, or who won and why, in plain words."""
        return self.frame.status_text(self.state, self._scene())

    @property
    def card_labels(self) -> list[str]:
        """The move cards shown now ('60 − 15 = 45', with ' P' / ' N' when P/N is shown)."""
        return self.frame.card_labels(self.state, self._scene())

    @property
    def message_text(self) -> str:
        """The message line as plain text (for tests)."""
        return prose(self._message[0])

    @property
    def coach_text(self) -> str:
        """The coach's messages as plain text, newest first."""
        return "\n\n".join(prose(text) for _, text in self._coach_lines)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, with the position as text and HTML where widgets do not render (nbconvert, GitHub)."""
        return TextFallback(self.widget, self.text_summary(), self.html_summary())._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """The board, then the position as text/HTML (shown only where the board cannot run)."""
        show_with_fallback(self.widget, self.text_summary(), self.html_summary())

    def _show_message(self, text: str, error: bool = False) -> None:
        self._message = (text, error)
        self._refresh()

    def _refresh(self, steps: list[GameState] | None = None, announce: str = "") -> None:
        """Redraw everything from ``self.state`` (``steps``: the positions to show on the way there;
        ``announce``: what a screen reader says instead of the position, such as a hint)."""
        shown = [s for s in (steps or []) if s is not self.state] + [self.state]
        frames = [self.frame.draw(s, self._scene(s, last=s is self.state), last=s is self.state) for s in shown]
        if announce:
            frames[-1]["announce"] = announce
        self.view.show(frames)
        self.pn_toggle.description = "Hide P/N" if self.pn_toggle.value else "Show P/N"  # no symbol font needed
        self.coach_html.value = self.frame.coach_html(self._coach_lines, self.state)
        self.history_html.value = self.frame.history_html(self.state, self.vs_computer)

    # -- moves --------------------------------------------------------------------

    def _human_may_move(self) -> bool:
        if self.state.is_over:
            self._show_message(self.words.over_already, error=True)
            return False
        if self.vs_computer and self.state.to_move == 2:
            self._show_message(self.words.not_your_turn, error=True)
            return False
        return True

    def choose(self, divisor: int) -> None:
        """The player to move plays ``divisor`` (a card); the computer may reply."""
        if self._human_may_move():
            self._advance(divisor)

    def play_typed(self, text: str | None = None) -> None:
        """Play the divisor typed in the box (read by engine.numbers.read_number)."""
        if not self._human_may_move():
            return
        n = grouped(self.state.number)
        if not (text or "").strip(" \t\r\n"):  # names the number, and no example that could be a winning move
            self._show_message(self.words.fill("nothing_typed", n=n), error=True)
            return
        try:
            value = read_box(text or "", f"a divisor of {n}", example=False)
        except DuelError as error:
            self._show_message(f"{error} {self.words.try_again}", error=True)
            return
        self._advance(value)

    def pass_turn(self) -> None:
        """The player to move passes (only allowed when they have no legal move)."""
        if self._human_may_move():
            self._advance(PASS)

    def _action(self, content: dict[str, Any]) -> None:
        """A message from the browser: a card, a typed divisor, pass, new game or rematch."""
        kind, seq = content.get("kind"), self.view.seq
        self._dispatch(kind, content)
        if self.view.seq == seq:
            self._refresh()  # always an answer: the browser waits for one before it takes the next click

    def _dispatch(self, kind: object, content: dict[str, Any]) -> None:
        if kind == "card" and isinstance(content.get("d"), int):
            self.choose(int(content["d"]))
        elif kind == "typed":
            self.play_typed(str(content.get("text", "")))
        elif kind == "pass":
            self.pass_turn()
        elif kind == "again":
            self.play_again()
        elif kind == "rematch":
            self.rematch()

    def _strategies(self) -> dict[int, Any]:
        if not self.vs_computer:
            return {1: self.hand, 2: self.hand}
        return {1: self.hand, 2: self._computer_move}

    def _computer_move(self, state: GameState) -> object:
        try:
            return self.computer(state)
        except DuelError as error:
            self._note(f"The computer could not find the best move ({error}) and played at random.")
            return self._rng.choice(state.legal_moves)

    def _note(self, text: str) -> None:
        self._turn.notes.append(text)

    def _advance(self, move: object, keep_message: bool = False) -> None:
        """Play the student's move (None: no move, just let the computer play) and show every step."""
        self._turn = Turn()
        before = self.state
        self.hand.pending = move

        def seen(state: GameState) -> None:
            self._turn.lines.append(self.frame.event_words(state, self.vs_computer))
            self._turn.states.append(state)
            if self.vs_computer and state.to_move == 2 and not state.is_over and state.history[-1].player == 1:
                # The student's own move shows at once ("Computer is thinking…"), before the reply is computed
                # (the first reply loads the solver: about a second on a cold kernel).
                self.view.show([self.frame.draw(state, self._scene(state, last=False), last=False)])
            if self.vs_computer and state.history[-1].player == 2:
                explanation = getattr(self.computer, "last_explanation", "")
                if explanation and self.switches["explain"]:
                    self._add_coach(f"Coach (computer): {explanation}", state)

        try:
            self.state = play_out(self.state, self._strategies(), on_event=seen)
        except IllegalMoveError as error:
            self.hand.pending = None
            self.state = self._turn.states[-1] if self._turn.states else before
            why = self.words.try_again if move is not PASS else ""
            self._show_message(f"{error} {why}".strip(), error=True)
            return
        finally:
            self.hand.pending = None
        if not keep_message or self._turn.lines:
            lines = ([self._message[0]] if keep_message and self._message[0] else []) + self._turn.lines
            lines += self._turn.notes
            self._message = (" ".join(lines), any(isinstance(s.history[-1], LostTurn) for s in self._turn.states))
        if self.state is not before:
            self._hint_stage = 0
        self._record_result()
        self._refresh(steps=[before, *self._turn.states] if self._turn.states and move is None else self._turn.states)

    # -- help -----------------------------------------------------------------------

    def hint(self, stage: int | None = None) -> None:
        """The coach's hint, in stages: 1 a question, 2 a nudge, 3 the move (each press goes one further)."""
        if not self.switches["hints"]:
            self._show_message("Hints are switched off on this board.", error=True)
            return
        self._hint_stage = min(3, self._hint_stage + 1) if stage is None else stage
        why = locked("last_hint") if self._hint_stage >= 3 else None
        if why is not None:  # the last hint names the move and what it leaves: it waits as Show P/N does
            self._hint_stage = 2
            self._show_message(f"🔒 The last hint: {why}", error=True)
            return
        try:
            stage_now: Literal[1, 2, 3] = 1 if self._hint_stage <= 1 else 2 if self._hint_stage == 2 else 3
            text = coach.hint(self.state, self.names, stage=stage_now)
        except DuelError as error:
            self._show_message(str(error), error=True)
            return
        self._add_coach(f"Hint: {text}", self.state)
        self._refresh(announce=f"Hint: {prose(text)}")

    def _pn_changed(self, change: dict[str, object]) -> None:
        why = locked("show_pn") if change.get("new") else None
        if why is not None:  # a locked tool says what opens it and shows nothing
            self.pn_toggle.value = False
            self._show_message(f"🔒 Show P/N: {why}", error=True)
            return
        self._refresh()

    def explain(self) -> None:
        """The coach's full explanation of the position."""
        if not self.switches["explain"]:
            self._show_message("Explanations are switched off on this board.", error=True)
            return
        why = locked("explain")
        if why is not None:
            self._show_message(f"🔒 Explain: {why}", error=True)
            return
        try:
            text = coach.explain(self.state, self.names)
            if not self.state.is_over and hasattr(coach, "situation"):  # core: explain() has no situation line
                text = f"{coach.situation(self.state, self.names)} {text}"
        except DuelError as error:
            self._show_message(str(error), error=True)
            return
        self._add_coach(f"Explain: {text}", self.state)
        self._refresh(announce=f"Explain: {prose(text)}")

    def _winning_results(self) -> frozenset[int] | None:
        """The legal moves that leave a P-position (None if the coach cannot tell)."""
        try:
            return frozenset(coach.winning_moves(self.state))
        except DuelError:
            return None

    def _add_coach(self, text: str, state: GameState) -> None:
        if self._coach_lines and self._coach_lines[0] == (state, text):
            return  # the same words for the same position: said once (pressing Hint again after the game)
        self._coach_lines = [(state, text), *self._coach_lines][:COACH_KEPT]

    def _record_result(self) -> None:
        if not self._scored and self.state.winner is not None:
            self.score[self.state.winner] += 1
            self._scored = True

    # -- starting games (the settings ask, the board starts) ------------------------

    def start_game(self, start: int | None = None, first: int | None = None, rules: Rules | None = None) -> None:
        """Start a new game from the settings (or from this start, first player or rules).

        A bad start leaves the current game as it was and says why.
        """
        settings = self.settings
        try:
            rules = rules or settings.rules()
            n = settings.start() if start is None else start
            state = new_game(rules, n, settings.first if first is None else first)
        except DuelError as error:
            self._show_message(f"{error} {self.words.unchanged}", error=True)
            return
        if settings.opponent != self._opponent:
            self.score = {1: 0, 2: 0}  # a different opponent is a different match
        self._opponent = settings.opponent
        self._first = state.to_move
        settings.show_game(n, self._first, self._opponent)
        self.state = state
        self._scored = False
        self._coach_lines = []
        first_words = self.words.moves_first(self._first, self.vs_computer)
        self._message = (self.words.fill("new_game", title=rules.title, n=grouped(n), first=first_words), False)
        self._advance(None, keep_message=True)

    def random_start(self) -> None:
        """A new game from a random legal start between 10 and 99 (engine.starts.random_start)."""
        rules = self.settings.rules()
        try:
            n = random_start(rules, 10, 99, self._rng)
        except DuelError as error:
            self._show_message(f"{error} Type a start instead.", error=True)
            return
        self.settings.set_start(n)
        self.start_game()

    def rematch(self) -> None:
        """The same rules and start again, with the other player moving first."""
        rules = self.state.rules
        self.settings.select(rules)
        self.start_game(self.state.start, other(self._first), rules)

    def play_again(self) -> None:
        """The same rules, start and first player again (the board's New game card)."""
        self.start_game(self.state.start, self._first, self.state.rules)

    def reset_score(self) -> None:
        """Set the match score back to 0 – 0 (the game goes on)."""
        self.score = {1: 0, 2: 0}
        self._show_message("Score reset to 0 – 0.")

    def add_rules(self, rules: Rules, select: bool = True) -> None:
        """Offer a Rules value (a variant) in the Rules list, and choose it."""
        self.settings.add_rules(rules, select)

    def refresh_rules(self, select: str | None = None) -> None:
        """Re-read the Rules list (and select a key in it)."""
        self.settings.refresh_rules(select, self.state.rules)

    def _level_changed(self, level: str) -> None:
        self.computer = make_player(level, self._seed)
        if self.vs_computer:
            self._show_message(f"The computer now plays at level {level!r}.")
