"""The game board: play a duel in the notebook, against a friend or the computer.

The board is a thin view.  Games are played by :func:`~duel_lessons.engine.game.play_out`
(the student is one more strategy, :class:`Hand`, that waits until a card is clicked),
answers come from the coach and the oracle, and the words from :class:`BoardWording`.
Every button calls a plain method (``board.choose(15)``, ``board.play_typed("15")``,
``board.hint()``, ``board.start_game()``) that a test can call directly; results and
errors are written on the board, so nothing is lost silently.

>>> board = GameBoard("divisor-duel", 60, opponent="computer", delay=0)
>>> board.choose(15)             # 60 − 15 = 45, then the computer replies
>>> board.state.number < 45
True
>>> board.status_text
'Your turn. Choose a divisor of 40: click a card, or type it and press Enter.'
"""

from __future__ import annotations

import random
from html import escape
from typing import Any, Literal

import ipywidgets as w

from duel_lessons.engine.errors import DuelError, IllegalMoveError
from duel_lessons.engine.game import PASS, GameState, LostTurn, Moved, Passed, new_game, other, play_out
from duel_lessons.engine.numbers import is_prime
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.engine.starts import random_start
from duel_lessons.play import coach
from duel_lessons.play.players import LEVELS, Strategy, make_player
from duel_lessons.views.board_view import BoardView, Fold, Guard
from duel_lessons.views.common import (
    WIDE,
    Hand,
    TextFallback,
    Turn,
    button,
    grouped,
    move_words,
    position_html,
    position_text,
    prose,
    prose_html,
    read_box,
    rules_for,
    rules_key,
    rules_options,
    show_with_fallback,
)
from duel_lessons.views.rectangles import move_picture, rectangle_svg, strip_picture
from duel_lessons.views.wording import DEFAULT_WORDING, BoardWording

__all__ = ["MAX_BUTTONS", "PN_TOOLTIP", "GameBoard", "Hand", "rules_key"]

#: Most move cards shown at once; the text box plays any other divisor.
MAX_BUTTONS = 60
#: Coach messages kept on the board (newest first).
COACH_KEPT = 4

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
    ``rectangles`` (the focused card's move as a rectangle of dots, views.rectangles).

    One action at a time: while a move is played and answered the board is busy and ignores
    clicks and keys, so a double-click plays one move.  Keyboard only: type a divisor and
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
        self.max_buttons = max_buttons
        self.score: dict[int, int] = {1: 0, 2: 0}
        self.switches = {"hints": hints, "explain": explain, "show_pn": show_pn, "rectangles": rectangles}
        self._extra: dict[str, Rules] = {} if rules_key(book) == book.name else {rules_key(book): book}
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
        self._busy = False  # True while the board itself sets a text box
        self._turn = Turn()

        self.view = BoardView(delay=float(delay), large=bool(large))
        self.view.on_action = self._action
        self.guard = Guard()
        self._build_settings(book, opponent, level, first)
        self.hint_button = button("Hint", "A question from the coach; press again for more help", "duel-hint")
        self.explain_button = button("Explain", "The coach explains the best move and why", "duel-explain")
        self.pn_toggle = w.ToggleButton(value=False, description="Show P/N", tooltip=PN_TOOLTIP).add_class("duel-pn")
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
        self.pn_toggle.observe(lambda _: self._refresh(), names="value")
        self.history = Fold(wording.history, history_box, css="duel-history-fold")
        tools = w.HBox([self.hint_button, self.explain_button, self.pn_toggle], layout=w.Layout(flex_flow="row wrap"))
        self.settings = Fold(wording.settings, self._settings_box, css="duel-settings")  # folded away
        children = [self.guard, self.view, tools, self.coach_html, self.history, self.settings]
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

    def _build_settings(self, book: Rules, opponent: str, level: str, first: int) -> None:
        self.rules_box = w.Dropdown(
            options=rules_options(self._extra), value=rules_key(book), description="Rules",
            tooltip="Which rule book to play (new game)", style=WIDE,
        ).add_class("duel-rules")  # fmt: skip
        self.start_box = w.Text(
            value=str(self.state.number), description="Start number", placeholder="e.g. 60",
            continuous_update=False, tooltip="Type a start number and press Enter for a new game", style=WIDE,
            layout=w.Layout(width="16em"),
        ).add_class("duel-start")  # fmt: skip
        self.random_button = button("Random start", "Pick a random start from 10 to 99", "duel-random")
        self.first_box = w.ToggleButtons(
            options=self._first_options(opponent), value=first, description="Who moves first",
            tooltips=["Player 1 moves first", "Player 2 moves first"], style=WIDE,
        ).add_class("duel-first")  # fmt: skip
        self.opponent_box = w.Dropdown(
            options=[("a friend (take turns)", "human"), ("the computer", "computer")], value=opponent,
            description="Opponent", tooltip="Play a friend on this screen, or the computer", style=WIDE,
        ).add_class("duel-opponent")  # fmt: skip
        self.level_box = w.Dropdown(
            options=list(LEVELS), value=level, description="Computer level", style=WIDE,
            tooltip="random: any move; greedy: the largest divisor; perfect: best play; coach: best play, explained",
            disabled=opponent != "computer",
        ).add_class("duel-level")  # fmt: skip
        self.new_button = button("New game", "Start a new game with these settings", "duel-new")
        self.rematch_button = button("Rematch", "Same start, the other player moves first", "duel-rematch")
        self.reset_button = button("Reset score", "Set the match score back to 0 – 0", "duel-reset")
        guarded = self.guard.guarded
        self.random_button.on_click(guarded(self.random_start))
        self.new_button.on_click(guarded(self.start_game))
        self.rematch_button.on_click(guarded(self.rematch))
        self.reset_button.on_click(guarded(self.reset_score))
        self.start_box.observe(lambda _: None if self._busy else self.start_game(), names="value")
        self.opponent_box.observe(self._opponent_changed, names="value")
        self.rules_box.observe(self._rules_changed, names="value")
        self.level_box.observe(lambda _: self._level_changed(), names="value")
        row = w.Layout(flex_flow="row wrap", align_items="center")
        self._settings_box = w.VBox([
            w.HBox([self.rules_box, self.start_box, self.random_button], layout=row),
            w.HBox([self.opponent_box, self.level_box], layout=row),
            self.first_box,
            w.HBox([self.new_button, self.rematch_button, self.reset_button], layout=row),
        ])  # fmt: skip

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, with the position as text and HTML where widgets do not render (nbconvert, GitHub)."""
        return TextFallback(self.widget, self.text_summary(), self.html_summary())._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """The board, then the position as text/HTML (shown only where the board cannot run)."""
        show_with_fallback(self.widget, self.text_summary(), self.html_summary())

    def _summary(self) -> tuple[str, list[str]]:
        """Whose turn it is (or the result) and the moves, for pages without widgets (no "click a card")."""
        frame = self._frame(self.state)
        if frame["result"]:
            return f"{frame['result']['headline']} {frame['result']['why']}", []
        return f"{frame['turn']}.", self.card_labels

    def text_summary(self) -> str:
        """The position in plain text.

        >>> print(GameBoard("divisor-duel", 6, opponent="computer").text_summary())
        Divisor Duel: current number 6. Your turn.
        Moves: 6 − 2 = 4, 6 − 3 = 3.
        (The board is a widget: open the notebook in JupyterLab or Voilà to play.)
        """
        return position_text(self.state.rules.title, self.state.number, *self._summary())

    def html_summary(self) -> str:
        """The position in HTML, for pages that cannot show widgets."""
        return position_html(self.state.rules.title, self.state.number, *self._summary())

    # -- names ----------------------------------------------------------------

    @property
    def vs_computer(self) -> bool:
        """Whether the current game is against the computer (the computer is Player 2)."""
        return self._opponent == "computer"

    @property
    def names(self) -> tuple[str, str]:
        """The players' names in the history and the coach's words (the same as the headline's: "You" and
        "Computer" against the computer)."""
        return (self._who(1), self._who(2))

    def _who(self, player: int) -> str:
        return self.words.name(player, self.vs_computer)

    def _first_options(self, opponent: str) -> list[tuple[str, int]]:
        vs = opponent == "computer"
        return [(self.words.name(1, vs), 1), (self.words.name(2, vs), 2)]

    # -- settings handlers ------------------------------------------------------

    def _opponent_changed(self, change: Any) -> None:
        first = self.first_box.value
        self.first_box.options = self._first_options(change["new"])
        self.first_box.value = first
        self.level_box.disabled = change["new"] != "computer"
        self._show_message("The new opponent plays from the next game: press New game.")

    def _rules_changed(self, change: Any) -> None:
        rules = self._chosen_rules()
        self._set_box(self.start_box, str(rules.default_start))
        self._show_message(
            f"{rules.title} chosen, from its usual start {rules.default_start}. "
            "Press New game to play it (the current game is unchanged)."
        )

    def _level_changed(self) -> None:
        self.computer = make_player(self.level_box.value, self._seed)
        if self.vs_computer:
            self._show_message(f"The computer now plays at level {self.level_box.value!r}.")

    def _set_box(self, box: w.Text, value: str) -> None:
        """Set a text box without triggering its Enter handler."""
        self._busy = True
        try:
            box.value = value
        finally:
            self._busy = False

    def add_rules(self, rules: Rules, select: bool = True) -> None:
        """Offer a Rules value (a variant) in the Rules list, and choose it."""
        key = rules_key(rules)
        if key != rules.name:
            self._extra[key] = rules
        self.rules_box.options = rules_options(self._extra)
        if select:
            self.rules_box.value = key

    def refresh_rules(self, select: str | None = None) -> None:
        """Re-read the Rules list (and select a key in it)."""
        current = select or self.rules_box.value
        self.rules_box.options = rules_options(self._extra)
        keys = [key for _, key in self.rules_box.options]
        self.rules_box.value = current if current in keys else rules_key(self.state.rules)

    def _chosen_rules(self) -> Rules:
        return rules_for(self.rules_box.value, self._extra)

    # -- starting games ---------------------------------------------------------

    def start_game(self, start: int | None = None, first: int | None = None, rules: Rules | None = None) -> None:
        """Start a new game from the settings (or from this start, first player or rules).

        A bad start leaves the current game as it was and says why.
        """
        try:
            rules = rules or self._chosen_rules()
            n = read_box(self.start_box.value, "the start number") if start is None else start
            state = new_game(rules, n, self.first_box.value if first is None else first)
        except DuelError as error:
            self._show_message(f"{error} {self.words.unchanged}", error=True)
            return
        if self.opponent_box.value != self._opponent:
            self.score = {1: 0, 2: 0}  # a different opponent is a different match
        self._opponent = self.opponent_box.value
        self._first = state.to_move
        self.first_box.options = self._first_options(self._opponent)
        self.first_box.value = self._first
        self._set_box(self.start_box, str(n))
        self.state = state
        self._scored = False
        self._coach_lines = []
        first_words = self.words.moves_first(self._first, self.vs_computer)
        self._message = (self.words.fill("new_game", title=rules.title, n=grouped(n), first=first_words), False)
        self._advance(None, keep_message=True)

    def random_start(self) -> None:
        """A new game from a random legal start between 10 and 99 (engine.starts.random_start)."""
        rules = self._chosen_rules()
        try:
            n = random_start(rules, 10, 99, self._rng)
        except DuelError as error:
            self._show_message(f"{error} Type a start instead.", error=True)
            return
        self._set_box(self.start_box, str(n))
        self.start_game()

    def rematch(self) -> None:
        """The same rules and start again, with the other player moving first."""
        rules = self.state.rules
        if rules_key(rules) in [key for _, key in self.rules_box.options]:
            self.rules_box.value = rules_key(rules)
        self.start_game(self.state.start, other(self._first), rules)

    def play_again(self) -> None:
        """The same rules, start and first player again (the board's New game card)."""
        self.start_game(self.state.start, self._first, self.state.rules)

    def reset_score(self) -> None:
        """Set the match score back to 0 – 0 (the game goes on)."""
        self.score = {1: 0, 2: 0}
        self._show_message("Score reset to 0 – 0.")

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
        try:
            value = read_box("" if text is None else text, "a divisor")
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
            self._turn.lines.append(self._event_words(state))
            self._turn.states.append(state)
            if self.vs_computer and state.to_move == 2 and not state.is_over and state.history[-1].player == 1:
                # The student's own move shows at once ("Computer is thinking…"), before the reply is computed
                # (the first reply loads the solver: about a second on a cold kernel).
                self.view.show([self._frame(state, last=False)])
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

    def _event_words(self, state: GameState) -> str:
        event, words = state.history[-1], self.words
        who = self._who(event.player)
        if isinstance(event, Moved):
            move = move_words(state.rules, event.before, event.divisor)
            if self.vs_computer:
                return words.fill("you_played" if event.player == 1 else "computer_played", move=move)
            return words.fill("player_played", player=who, move=move)
        if isinstance(event, Passed):
            if self.vs_computer and event.player == 2:
                return words.fill("computer_passed", n=grouped(event.number))
            return words.fill("player_passed", player=who, n=grouped(event.number))
        assert isinstance(event, LostTurn)
        text = words.fill("lost_turn", d=event.value, n=grouped(event.number), why=event.reason,
                          title=state.rules.title)  # fmt: skip
        return f"{text} {words.turn(state.to_move, self.vs_computer)}."

    # -- help -----------------------------------------------------------------------

    def hint(self, stage: int | None = None) -> None:
        """The coach's hint, in stages: 1 a question, 2 a nudge, 3 the move (each press goes one further)."""
        if not self.switches["hints"]:
            self._show_message("Hints are switched off on this board.", error=True)
            return
        self._hint_stage = min(3, self._hint_stage + 1) if stage is None else stage
        try:
            stage_now: Literal[1, 2, 3] = 1 if self._hint_stage <= 1 else 2 if self._hint_stage == 2 else 3
            text = coach.hint(self.state, self.names, stage=stage_now)
        except DuelError as error:
            self._show_message(str(error), error=True)
            return
        self._add_coach(f"Hint: {text}", self.state)
        self._refresh(announce=f"Hint: {prose(text)}")

    def explain(self) -> None:
        """The coach's full explanation of the position."""
        if not self.switches["explain"]:
            self._show_message("Explanations are switched off on this board.", error=True)
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

    def winning_results(self) -> set[int] | None:
        """The legal moves that leave a P-position (None if the coach cannot tell)."""
        try:
            return set(coach.winning_moves(self.state))
        except DuelError:
            return None

    def _add_coach(self, text: str, state: GameState) -> None:
        if self._coach_lines and self._coach_lines[0] == (state, text):
            return  # the same words for the same position: said once (pressing Hint again after the game)
        self._coach_lines = [(state, text), *self._coach_lines][:COACH_KEPT]

    @property
    def coach_text(self) -> str:
        """The coach's messages as plain text, newest first."""
        return "\n\n".join(prose(text) for _, text in self._coach_lines)

    # -- display ------------------------------------------------------------------

    def _show_message(self, text: str, error: bool = False) -> None:
        self._message = (text, error)
        self._refresh()

    @property
    def message_text(self) -> str:
        """The message line as plain text (for tests)."""
        return prose(self._message[0])

    @property
    def status_text(self) -> str:
        """Whose turn it is and what to do, or who won and why, in plain words."""
        frame = self._frame(self.state)
        if frame["result"]:
            return f"{frame['result']['headline']} {frame['result']['why']}"
        return f"{frame['turn']}. {frame['instruction']}"

    @property
    def card_labels(self) -> list[str]:
        """The move cards shown now ('60 − 15 = 45', with ' P' / ' N' when P/N is shown)."""
        return [(c["text"] + (f" {c['tag']}" if c["tag"] else "")) for c in self._frame(self.state)["cards"]]

    def _record_result(self) -> None:
        if not self._scored and self.state.winner is not None:
            self.score[self.state.winner] += 1
            self._scored = True

    def _frame(self, state: GameState, last: bool = True) -> dict[str, Any]:
        """What the board shows for ``state`` (``last``: the final frame of a turn, with the message)."""
        words, rules, vs = self.words, state.rules, self.vs_computer
        thinking = vs and not state.is_over and state.to_move == 2
        human = not state.is_over and not thinking
        result = None
        if state.winner is not None:
            why = coach.game_over_explanation(state, self.names, say_winner=False)  # the banner says who won
            kind = ("win" if state.winner == 1 else "loss") if vs else "neutral"
            icon = {"win": "★", "loss": "✗", "neutral": "⚑"}[kind]
            result = {"kind": kind, "icon": icon, "headline": words.result(state.winner, vs), "why": prose(why)}
        moves = state.legal_moves if human else ()
        show_pn = self.switches["show_pn"] and self.pn_toggle.value
        winning = self.winning_results() if show_pn and moves and state is self.state else None
        cards = []
        pictures = self.switches["rectangles"] and last
        for d in moves[: self.max_buttons]:
            text = move_words(rules, state.number, d)
            tag = "" if winning is None else ("P" if d in winning else "N")
            tag_text = {"P": "P – leaves a losing number", "N": "N – leaves a winning number", "": ""}[tag]
            cards.append({"d": d, "text": text, "tag": tag, "tag_text": tag_text,
                          "label": f"Play {d}: {text}" + (f". {tag_text}" if tag else ""),
                          "tip": f"Play {d}: {text}",
                          "picture": self._picture(state, d) if pictures else None})  # fmt: skip
        more = ""
        if len(moves) > len(cards):
            more = f"Showing {len(cards)} of {len(moves)} allowed divisors; type any other one in the box."
        if show_pn and moves and winning is None:
            more += " P/N unknown here: no table or formula covers this number."
        if state.is_over:
            turn, turn_kind, instruction = words.game_over, "over", ""
        elif thinking:
            turn, turn_kind, instruction = words.thinking, "thinking", ""
        else:
            turn = words.turn(state.to_move, vs)
            turn_kind = "you" if vs else f"p{state.to_move}"
            who = self._who(state.to_move) if not vs else "you"
            instruction = (words.fill("must_pass", n=grouped(state.number), player=who) if state.must_pass
                           else words.fill("choose_divisor", n=grouped(state.number)))  # fmt: skip
        text, error = self._message if last else (self._turn.words_until(state), False)
        score = words.fill("score", you=self._who(1), a=self.score[1], b=self.score[2], them=self._who(2))
        spoken = result["headline"] + " " + result["why"] if result else f"{turn}. {instruction}"
        return {
            "title": rules.title, "number": grouped(state.number), "turn": turn, "turn_kind": turn_kind,
            "instruction": instruction, "result": result, "cards": cards, "more": more.strip(),
            "can_type": human and not state.must_pass, "can_pass": human and state.must_pass,
            "show_pass": rules.when_stuck == "pass" and not state.is_over, "thinking": thinking,
            "over": state.is_over, "message": {"text": prose(text), "error": error},
            "pictures": bool(pictures), "picture": self._picture(state) if pictures and not cards else None,
            "announce": f"{prose(text)} {spoken}".strip(), "score": score,
            "words": {"entry_label": words.entry_label, "play": words.play_label, "pass": words.pass_label,
                      "play_again": words.play_again, "rematch": words.rematch, "problem": words.problem},
        }  # fmt: skip

    @staticmethod
    def _picture(state: GameState, d: int | None = None) -> dict[str, str] | None:
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
        return {"svg": rectangle_svg(picture), "alt": picture.alt}

    def _refresh(self, steps: list[GameState] | None = None, announce: str = "") -> None:
        """Redraw everything from ``self.state`` (``steps``: the positions to show on the way there;
        ``announce``: what a screen reader says instead of the position, such as a hint)."""
        shown = [s for s in (steps or []) if s is not self.state] + [self.state]
        frames = [self._frame(s, last=s is self.state) for s in shown]
        if announce:
            frames[-1]["announce"] = announce
        self.view.show(frames)
        self.pn_toggle.description = "Hide P/N" if self.pn_toggle.value else "Show P/N"  # no symbol font needed
        parts = []
        for i, (state, text) in enumerate(self._coach_lines):
            old = "" if state == self.state else " duel-old"
            label = "" if not old else "<small>(earlier position)</small> "
            parts.append(f'<div class="duel-coach-msg{old}">{label}{prose_html(text)}</div>' if i < COACH_KEPT else "")
        self.coach_html.value = "".join(parts)
        # The book's record of the game, in its own words ("Player 1's turn"), with what each side said.
        book_names = (self.words.name(1, False), self.names[1])
        voices = (self.words.you, self.names[1]) if self.vs_computer else (self.words.you, self.words.you)
        history = escape(prose(self.state.transcript(book_names, voices)))
        self.history_html.value = f'<div style="white-space:pre-wrap;margin:0">{history}</div>'
