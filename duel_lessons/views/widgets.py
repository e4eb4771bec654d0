"""Notebook widgets: a game board, P/N explorers and a variant builder.

The widgets are thin views.  Every rule, move, table and explanation comes from
:mod:`~duel_lessons.engine.game`, :mod:`~duel_lessons.solving.tables`, :mod:`~duel_lessons.play.players`,
:mod:`~duel_lessons.play.coach` and :mod:`~duel_lessons.views.plots`.  Each button calls a
plain method (``board.start_game()``, ``board.choose(15)``, ``board.hint()``...)
that a test can call directly; results and errors are written on the board
(an HTML message line or an ``Output``), so nothing is lost silently.

>>> board = GameBoard("divisor-duel", 60, opponent="computer")
>>> board.choose(15)             # 60 - 15 = 45, then the computer replies
>>> board.state.number < 45
True
"""

from __future__ import annotations

import base64
import io
import random
import re
import weakref
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from duel_lessons.engine.game import GameState, IllegalMoveError, LostTurn, Moved, Passed, new_game, other
from duel_lessons.engine.rules import (
    DIVISOR_DUEL,
    MAX_NUMBER,
    RULEBOOKS,
    BadStartError,
    DuelError,
    Rules,
    RulesError,
    get_rules,
    register,
)
from duel_lessons.play import coach
from duel_lessons.play.players import DEFAULT_TABLE_SIZE, LEVELS, Strategy, make_player, table_for, table_length
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import TABLE_LIMIT, Table, tabulate

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Most move buttons shown at once; the text box plays any other divisor.
MAX_BUTTONS = 60
#: Tables larger than this show a progress bar while they are computed.
PROGRESS_FROM = 200_000
#: FollowGame stops after this many moves (games from huge numbers can be very long).
MAX_FOLLOW = 500

PN_TOOLTIP = (
    "P = the player who must move from that number loses with best play; "
    "N = the player to move wins. Leaving your opponent a P-number is a winning move."
)
_WIDE = {"description_width": "initial"}
_TICK: dict[str, Any] = {"indent": False, "layout": {"width": "auto", "margin": "2px 1.5em 2px 0"}}


# -- small helpers -------------------------------------------------------------


def _op(rules: Rules) -> str:
    return "−" if rules.move == "subtract" else "÷"


def move_words(rules: Rules, n: int, d: int) -> str:
    """'60 − 15 = 45'."""
    return f"{n} {_op(rules)} {d} = {rules.result(n, d)}"


def parse_whole(text: str, what: str) -> int:
    """The whole number typed in a box, or DuelError with a message for the student."""
    typed = text.strip()
    if not typed:
        raise DuelError(f"Type a {what} first: a whole number such as 60.")
    digits = typed[1:] if typed[0] in "+-" else typed
    if not digits.isdigit():
        raise DuelError(f"{typed!r} is not a whole number. Type a {what} using digits only, such as 60.")
    if len(digits) > 25:
        raise DuelError(f"That {what} has {len(digits)} digits: it is too big (the largest is 10**18).")
    return int(typed)


def grouped(n: int) -> str:
    """Large numbers in groups of three digits, e.g. 1 000 000 (thin spaces)."""
    return str(n) if n < 10_000 else f"{n:,}".replace(",", "\u2009")


def html_message(text: str, error: bool = False) -> str:
    """A message line; errors are marked by a word and a border, not by colour only."""
    if not text:
        return ""
    if error:
        return (
            '<div class="duel-error" role="alert" style="border-left:4px solid #b00020;padding:2px 8px;'
            f'color:#b00020"><b>Problem:</b> {escape(text)}</div>'
        )
    return f'<div class="duel-info" role="status" style="padding:2px 8px">{escape(text)}</div>'


def _figure_output(fig: Figure, alt: str) -> dict[str, Any]:
    """A display_data output holding the figure as PNG, with ``alt`` as its text."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    png = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"output_type": "display_data", "data": {"image/png": png, "text/plain": alt}, "metadata": {}}


def _say(out: w.Output, text: str) -> None:
    """Append a paragraph of text to an Output (stored the same way under nbval and Lab)."""
    out.append_stdout(text.rstrip("\n") + "\n\n")


def output_text(out: w.Output) -> str:
    """All the text in an Output (for tests and for reading back what was shown)."""
    parts = []
    for item in out.outputs:
        if "text" in item:
            parts.append(str(item["text"]))
        elif "data" in item:
            parts.append(str(item["data"].get("text/plain", "")))
    return "".join(parts)


def tabulate_with_progress(rules: Rules, upto: int, bar: w.IntProgress) -> Table:
    """``tabulate(rules, upto)``, showing ``bar`` while a large table is computed."""
    if upto <= PROGRESS_FROM:
        return tabulate(rules, upto)
    bar.value = 0
    bar.description = f"Table to {upto:,}"
    bar.layout.display = ""

    def report(fraction: float) -> None:
        bar.value = round(100 * fraction)

    try:
        return tabulate(rules, upto, progress=report)
    finally:
        bar.layout.display = "none"


def _progress_bar() -> w.IntProgress:
    bar = w.IntProgress(value=0, min=0, max=100, description="Computing", style=_WIDE)
    bar.layout.display = "none"  # takes no room until a long computation starts
    return bar


def _rules_options(extra: dict[str, Rules]) -> list[tuple[str, str]]:
    """Dropdown entries (label, name) for every registered book and variant, then ``extra``."""
    books = {**RULEBOOKS, **{k: v for k, v in extra.items() if k not in RULEBOOKS}}
    return [(r.title if "/" in name else f"{r.title} ({name})", name) for name, r in books.items()]


# -- the game board -------------------------------------------------------------

_BOARDS: weakref.WeakSet[GameBoard] = weakref.WeakSet()


class GameBoard:
    """Play a duel in the notebook, against a friend or the computer.

    ``board.state`` is the current :class:`~duel_lessons.engine.game.GameState`.  Player 1
    is the student at the keyboard; against the computer, the computer is Player 2.
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
    ) -> None:
        book = get_rules(rules)
        if opponent not in ("human", "computer"):
            raise DuelError(f"opponent must be 'human' or 'computer', not {opponent!r}.")
        if level not in LEVELS:
            raise DuelError(f"Unknown level {level!r}. Known: {', '.join(LEVELS)}.")
        self.state: GameState = new_game(book, start, first)
        self.max_buttons = max_buttons
        self.score: dict[int, int] = {1: 0, 2: 0}
        self._extra: dict[str, Rules] = {} if book.name in RULEBOOKS else {book.name: book}
        self._rng = random.Random(seed)
        self._seed = seed
        self._first = first
        self._opponent = opponent
        self._scored = False
        self.computer: Strategy = make_player(level, seed)
        self._move_buttons: list[w.Button] = []
        self._busy = False  # True while the board itself sets a text box

        self.rules_box = w.Dropdown(
            options=_rules_options(self._extra), value=book.name, description="Rules",
            tooltip="Which rule book to play (new game)", style=_WIDE,
        ).add_class("duel-rules")  # fmt: skip
        self.start_box = w.Text(
            value=str(self.state.number), description="Start number", placeholder="e.g. 60",
            continuous_update=False, tooltip="Type a start number and press Enter for a new game", style=_WIDE,
            layout=w.Layout(width="16em"),
        ).add_class("duel-start")  # fmt: skip
        self.random_button = self._button("Random start", "Pick a random start from 10 to 99", "duel-random")
        self.first_box = w.ToggleButtons(
            options=self._first_options(opponent), value=first, description="Moves first",
            tooltips=["Player 1 (you) moves first", "Player 2 moves first"], style=_WIDE,
        ).add_class("duel-first")  # fmt: skip
        self.opponent_box = w.Dropdown(
            options=[("a friend (take turns)", "human"), ("the computer", "computer")], value=opponent,
            description="Opponent", tooltip="Play a friend on this screen, or the computer", style=_WIDE,
        ).add_class("duel-opponent")  # fmt: skip
        self.level_box = w.Dropdown(
            options=list(LEVELS), value=level, description="Computer level", style=_WIDE,
            tooltip="random: any move; greedy: the largest divisor; perfect: best play; coach: best play, explained",
            disabled=opponent != "computer",
        ).add_class("duel-level")  # fmt: skip
        self.new_button = self._button("New game", "Start a new game with the settings above", "duel-new")
        self.rematch_button = self._button("Rematch", "Same start, the other player moves first", "duel-rematch")
        self.reset_button = self._button("Reset score", "Set the match score back to 0 – 0", "duel-reset")
        self.score_html = w.HTML(layout=w.Layout(margin="0 0 0 1em")).add_class("duel-score")

        self.number_html = w.HTML().add_class("duel-number")
        self.status_html = w.HTML().add_class("duel-status")
        self.message = w.HTML().add_class("duel-message")
        self.moves_box = w.HBox(layout=w.Layout(flex_flow="row wrap", max_width="100%")).add_class("duel-moves")
        self.moves_note = w.HTML().add_class("duel-moves-note")
        self.divisor_box = w.Text(
            description="Divisor", placeholder="type any divisor", continuous_update=False, style=_WIDE,
            tooltip="Type a divisor and press Enter (or click Play)", layout=w.Layout(width="16em"),
        ).add_class("duel-divisor")  # fmt: skip
        self.play_button = self._button("Play", "Play the divisor typed in the box", "duel-play")
        self.pass_button = self._button("Pass", "Pass: allowed only when you have no legal move", "duel-pass")
        self.hint_button = self._button("Hint", "A nudge from the coach, without the answer", "duel-hint")
        self.explain_button = self._button("Explain", "The coach explains the best move and why", "duel-explain")
        self.pn_toggle = w.ToggleButton(value=False, description="Show P/N", tooltip=PN_TOOLTIP).add_class("duel-pn")
        self.coach_out = w.Output(layout=w.Layout(max_height="14em", overflow="auto")).add_class("duel-coach")
        self.history_html = w.HTML().add_class("duel-history")
        self.history_title = w.HTML()
        # column-reverse keeps the newest lines in view (the HTML sanitiser would drop these styles).
        history_box = w.Box(
            [self.history_html],
            layout=w.Layout(
                display="flex", flex_flow="column-reverse", overflow="auto", max_height="16em",
                border="1px solid #ccc", padding="2px 6px",
            ),
        ).add_class("duel-history-box")  # fmt: skip

        self.random_button.on_click(lambda _: self.random_start())
        self.new_button.on_click(lambda _: self.start_game())
        self.rematch_button.on_click(lambda _: self.rematch())
        self.reset_button.on_click(lambda _: self.reset_score())
        self.play_button.on_click(lambda _: self.play_typed())
        self.pass_button.on_click(lambda _: self.pass_turn())
        self.hint_button.on_click(lambda _: self.hint())
        self.explain_button.on_click(lambda _: self.explain())
        self.pn_toggle.observe(lambda _: self._refresh(), names="value")
        self.start_box.observe(self._start_entered, names="value")
        self.divisor_box.observe(self._divisor_entered, names="value")
        self.opponent_box.observe(self._opponent_changed, names="value")
        self.rules_box.observe(self._rules_changed, names="value")
        self.level_box.observe(lambda change: self._level_changed(), names="value")

        settings = w.VBox([
            w.HBox([self.rules_box, self.start_box, self.random_button], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.opponent_box, self.level_box], layout=w.Layout(flex_flow="row wrap")),
            self.first_box,
            w.HBox([self.new_button, self.rematch_button, self.reset_button, self.score_html],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
        ])  # fmt: skip
        play = w.VBox([
            self.number_html, self.status_html, self.message, self.moves_box, self.moves_note,
            w.HBox([self.divisor_box, self.play_button, self.pass_button], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.hint_button, self.explain_button, self.pn_toggle], layout=w.Layout(flex_flow="row wrap")),
            self.coach_out,
            self.history_title,
            history_box,
        ])  # fmt: skip
        self.widget = w.VBox([settings, w.HTML("<hr>"), play], layout=w.Layout(max_width="60em")).add_class(
            "duel-board"
        )
        _BOARDS.add(self)
        self._computer_turns()
        self._refresh()

    @staticmethod
    def _button(label: str, tooltip: str, css: str) -> w.Button:
        return w.Button(description=label, tooltip=tooltip, layout=w.Layout(width="auto")).add_class(css)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- names ----------------------------------------------------------------

    @property
    def vs_computer(self) -> bool:
        """Whether the current game is against the computer (the computer is Player 2)."""
        return self._opponent == "computer"

    @property
    def names(self) -> tuple[str, str]:
        """The players' names in the history and the coach's words."""
        return ("Player 1", "Computer") if self.vs_computer else ("Player 1", "Player 2")

    def _who(self, player: int) -> str:
        """'You' / 'Computer' against the computer, else 'Player 1' / 'Player 2'."""
        if self.vs_computer:
            return "You" if player == 1 else "Computer"
        return f"Player {player}"

    @staticmethod
    def _first_options(opponent: str) -> list[tuple[str, int]]:
        if opponent == "computer":
            return [("You", 1), ("Computer", 2)]
        return [("Player 1", 1), ("Player 2", 2)]

    # -- settings handlers ------------------------------------------------------

    def _opponent_changed(self, change: Any) -> None:
        first = self.first_box.value
        self.first_box.options = self._first_options(change["new"])
        self.first_box.value = first
        self.level_box.disabled = change["new"] != "computer"
        self._show_message("The new opponent plays from the next game: click New game.")

    def _rules_changed(self, change: Any) -> None:
        rules = self._chosen_rules()
        self._set_box(self.start_box, str(rules.default_start))
        self._show_message(
            f"{rules.title} chosen, from its usual start {rules.default_start}. "
            "Click New game to play it (the current game is unchanged)."
        )

    def _level_changed(self) -> None:
        self.computer = make_player(self.level_box.value, self._seed)
        if self.vs_computer:
            self._show_message(f"The computer now plays at level {self.level_box.value!r}.")

    def _start_entered(self, change: Any) -> None:
        if not self._busy:
            self.start_game()

    def _divisor_entered(self, change: Any) -> None:
        if not self._busy and change["new"].strip():
            self.play_typed()

    def _set_box(self, box: w.Text, value: str) -> None:
        """Set a text box without triggering its Enter handler."""
        self._busy = True
        try:
            box.value = value
        finally:
            self._busy = False

    def refresh_rules(self, select: str | None = None) -> None:
        """Re-read the registered variants into the Rules list (and select one)."""
        current = select or self.rules_box.value
        self.rules_box.options = _rules_options(self._extra)
        names = [name for _, name in self.rules_box.options]
        self.rules_box.value = current if current in names else self.state.rules.name

    def _chosen_rules(self) -> Rules:
        name = self.rules_box.value
        return self._extra[name] if name in self._extra else get_rules(name)

    # -- starting games ---------------------------------------------------------

    def start_game(self, start: int | None = None, first: int | None = None, rules: Rules | None = None) -> None:
        """Start a new game from the settings (or from this start, first player or rules).

        A bad start leaves the current game as it was and says why.
        """
        try:
            rules = rules or self._chosen_rules()
            n = parse_whole(self.start_box.value, "start number") if start is None else start
            if n > MAX_NUMBER:
                raise BadStartError(f"The start {n} is too big: the largest start is 10**18.")
            state = new_game(rules, n, self.first_box.value if first is None else first)
        except DuelError as error:
            self._show_message(f"{error} The current game is unchanged.", error=True)
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
        self.coach_out.outputs = ()
        self._show_message(f"New game of {rules.title} from {n}. {self._who(self._first)} moves first.")
        self._computer_turns()
        self._refresh()

    def random_start(self) -> None:
        """A new game from a random start between 10 and 99 that the rules allow."""
        rules = self._chosen_rules()
        for _ in range(1000):
            n = self._rng.randint(10, 99)
            try:
                rules.check_start(n)
            except BadStartError:
                continue
            self._set_box(self.start_box, str(n))
            self.start_game()
            return
        self._show_message(f"No start from 10 to 99 is allowed in {rules.title}; type one instead.", error=True)

    def rematch(self) -> None:
        """The same rules and start again, with the other player moving first."""
        rules = self.state.rules
        if rules.name in [name for _, name in self.rules_box.options]:
            self.rules_box.value = rules.name
        self.start_game(self.state.start, other(self._first), rules)

    def reset_score(self) -> None:
        """Set the match score back to 0 – 0 (the game goes on)."""
        self.score = {1: 0, 2: 0}
        self._show_message("Score reset to 0 – 0.")
        self._refresh()

    # -- moves --------------------------------------------------------------------

    def _human_may_move(self) -> bool:
        if self.state.is_over:
            self._show_message("The game is over. Click New game or Rematch to play again.", error=True)
            return False
        if self.vs_computer and self.state.to_move == 2:
            self._show_message("It is the computer's turn.", error=True)
            return False
        return True

    def choose(self, divisor: int) -> None:
        """The player to move plays ``divisor`` (a move button); the computer may reply."""
        if not self._human_may_move():
            return
        before = self.state
        try:
            self.state = before.play(divisor)
        except IllegalMoveError as error:
            self._show_message(f"{error} Choose again.", error=True)
            return
        self._show_message(
            f"{self._who(before.to_move)} played {divisor}: {move_words(before.rules, before.number, divisor)}."
        )
        self._after_human()

    def play_typed(self) -> None:
        """Play the divisor typed in the box, following the book on invalid moves."""
        text = self.divisor_box.value
        self._set_box(self.divisor_box, "")
        if not self._human_may_move():
            return
        try:
            value = parse_whole(text, "divisor")
        except DuelError as error:
            self._show_message(f"{error} Nothing was played; try again.", error=True)
            return
        before = self.state
        try:
            self.state = before.attempt(value)
        except IllegalMoveError as error:
            self._show_message(f"{error} Nothing was played; choose again.", error=True)
            return
        event = self.state.history[-1]
        if isinstance(event, LostTurn):
            self._show_message(
                f"{value} is not an allowed divisor of {before.number} ({event.reason}). "
                f"In {before.rules.title} an invalid move loses the turn, so it is now "
                f"{self._who(self.state.to_move)}'s turn.",
                error=True,
            )
        else:
            self._show_message(
                f"{self._who(before.to_move)} played {value}: {move_words(before.rules, before.number, value)}."
            )
        self._after_human()

    def pass_turn(self) -> None:
        """The player to move passes (only allowed when they have no legal move)."""
        if not self._human_may_move():
            return
        who = self._who(self.state.to_move)
        try:
            self.state = self.state.pass_turn()
        except IllegalMoveError as error:
            self._show_message(f"{error}", error=True)
            return
        self._show_message(f"{who} passed: {self.state.number} has no allowed divisor.")
        self._after_human()

    def _after_human(self) -> None:
        self._computer_turns()
        self._refresh()

    def _computer_turns(self) -> None:
        """Against the computer, let it move (or pass) while it is its turn."""
        while self.vs_computer and not self.state.is_over and self.state.to_move == 2:
            state = self.state
            if state.must_pass:
                self.state = state.pass_turn()
                self._add_message(f"The computer has no allowed divisor of {state.number}, so it passed.")
                continue
            try:
                d = self.computer(state)
            except DuelError as error:
                d = self._rng.choice(state.legal_moves)
                self._add_message(f"The computer could not find the best move ({error}) and played at random.")
            self.state = state.play(d)
            self._add_message(f"The computer played {d}: {move_words(state.rules, state.number, d)}.")
            explanation = getattr(self.computer, "last_explanation", "")
            if explanation:
                _say(self.coach_out, f"Coach (computer): {explanation}")

    # -- help -----------------------------------------------------------------------

    def hint(self) -> None:
        """A nudge from the coach, written below the board."""
        try:
            text = coach.hint(self.state, self.names)
        except DuelError as error:
            self._show_message(str(error), error=True)
            return
        _say(self.coach_out, f"Hint: {text}")

    def explain(self) -> None:
        """The coach's full explanation of the position, written below the board."""
        try:
            text = coach.explain(self.state, self.names)
        except DuelError as error:
            self._show_message(str(error), error=True)
            return
        _say(self.coach_out, f"Explain: {text}")

    def winning_results(self) -> set[int] | None:
        """The legal moves that leave a P-position (None if the coach cannot tell)."""
        try:
            return set(coach.winning_moves(self.state))
        except DuelError:
            return None

    # -- display ------------------------------------------------------------------

    def _show_message(self, text: str, error: bool = False) -> None:
        self.message.value = html_message(text, error)

    def _add_message(self, text: str) -> None:
        self.message.value += html_message(text)

    @property
    def message_text(self) -> str:
        """The message line as plain text (for tests)."""
        return (
            re.sub(r"<[^>]+>", "", self.message.value.replace("</div>", "\n"))
            .strip()
            .replace("&gt;", ">")
            .replace("&#x27;", "'")
        )

    def _refresh(self) -> None:
        """Redraw everything from ``self.state``."""
        state, rules = self.state, self.state.rules
        self._record_result()
        self.number_html.value = (
            f'<div style="font-size:1.1em">{escape(rules.title)} · current number</div>'
            '<div style="font-size:2.6em;font-weight:bold;line-height:1.2;overflow-wrap:anywhere">'
            f"{grouped(state.number)}</div>"
        )
        s1, s2 = self.score[1], self.score[2]
        self.score_html.value = f"<b>Score:</b> {self._who(1)} {s1} – {s2} {self._who(2)}"
        human_turn = not state.is_over and not (self.vs_computer and state.to_move == 2)
        self.pass_button.disabled = not (human_turn and state.must_pass)
        self.pass_button.button_style = "warning" if human_turn and state.must_pass else ""
        self.pn_toggle.icon = "check" if self.pn_toggle.value else ""
        you = " You are Player 1." if self.vs_computer else ""
        self.history_title.value = f"<b>Game so far</b> (in the rule book's words, newest at the bottom).{you}"
        self.play_button.disabled = self.divisor_box.disabled = not human_turn or state.must_pass
        self.hint_button.disabled = self.explain_button.disabled = False
        self._draw_moves(human_turn)
        self.status_html.value = f'<div style="font-size:1.2em">{self._status()}</div>'
        voices = ("You", self.names[1]) if self.vs_computer else ("You", "You")
        history = escape(state.transcript(self.names, voices))
        style = "margin:0;white-space:pre-wrap;font-size:0.95em;line-height:1.35"
        self.history_html.value = f'<pre style="{style}">{history}</pre>'

    def _status(self) -> str:
        state = self.state
        if state.winner is not None:
            winner = self._who(state.winner)
            words = "You win!" if winner == "You" else f"{winner} wins."
            why = coach.game_over_explanation(state, self.names).removeprefix("The game is over: ")
            why = why.removesuffix(f" {self.names[state.winner - 1]} wins.")
            return (
                '<div style="border:3px solid #333;border-radius:6px;padding:6px 10px">'
                f"<b>Game over: {words}</b><br>Why: {escape(why)}</div>"
            )
        who = self._who(state.to_move)
        if state.must_pass:
            if who == "You":
                return f"<b>Your turn</b>: {state.number} has no allowed divisor, so you must pass. Click <b>Pass</b>."
            return f"<b>{who}'s turn</b>: {state.number} has no allowed divisor, so {who} must pass. Click <b>Pass</b>."
        if who == "You":
            return f"<b>Your turn</b> (Player 1): choose a divisor of {state.number}."
        return f"<b>{who}'s turn</b>: choose a divisor of {state.number}."

    def _record_result(self) -> None:
        if not self._scored and self.state.winner is not None:
            self.score[self.state.winner] += 1
            self._scored = True

    def move_label(self, d: int, winning: set[int] | None) -> str:
        """A move button's label: '15 → 45', with ' (P)' or ' (N)' when P/N is shown."""
        state = self.state
        label = f"{d} → {state.rules.result(state.number, d)}"
        if self.pn_toggle.value and winning is not None:
            label += " (P)" if d in winning else " (N)"
        return label

    def _draw_moves(self, human_turn: bool) -> None:
        state = self.state
        for button in self._move_buttons:
            button.close()
        moves = state.legal_moves if human_turn else ()
        winning = self.winning_results() if self.pn_toggle.value and moves else None
        shown = moves[: self.max_buttons]
        self._move_buttons = []
        for d in shown:
            r = state.rules.result(state.number, d)
            tip = f"Play {d}: {move_words(state.rules, state.number, d)}."
            button = w.Button(description=self.move_label(d, winning), layout=w.Layout(width="auto", min_width="6.5em"))
            button.add_class("duel-move").add_class(f"duel-move-{d}")
            if winning is not None:
                good = d in winning
                button.button_style = "success" if good else "danger"
                tip += (
                    f" {r} is a P-position: whoever must move from it loses with best play, so this move wins."
                    if good
                    else f" {r} is an N-position: whoever moves from it can win, so this move lets your opponent win."
                )
            button.tooltip = tip
            button.on_click(lambda _, d=d: self.choose(d))
            self._move_buttons.append(button)
        self.moves_box.children = tuple(self._move_buttons)
        notes = []
        if len(moves) > len(shown):
            notes.append(f"Showing {len(shown)} of {len(moves)} allowed divisors; type any other one in the box.")
        if self.pn_toggle.value and moves:
            notes.append(
                "P/N unknown here: no table or formula covers this number."
                if winning is None
                else "(P) = leaves a P-position (a winning move); (N) = leaves an N-position (a losing move)."
            )
        self.moves_note.value = "<br>".join(f"<small>{escape(n)}</small>" for n in notes)


# -- explorers --------------------------------------------------------------------

#: The P/N explorer's pictures: name -> draw(rules, lo, hi).
PLOT_KINDS = ("number line", "hundred square", "Grundy values", "remoteness")


def draw_plot(kind: str, rules: Rules, lo: int, hi: int) -> Figure:
    """One of the PLOT_KINDS for n = lo .. hi (matplotlib is loaded only when a plot is drawn)."""
    from duel_lessons.views import plots

    if kind in PLOT_KINDS:  # the registry's calling convention: fn(rules, upto, *, start=...)
        spec = plots.PLOTS[kind]
        return spec.draw(rules, lo, min(hi, lo + spec.max_upto - 1) if kind == "hundred square" else hi)
    raise DuelError(f"Unknown plot {kind!r}. Known: {', '.join(PLOT_KINDS)}.")


class PNExplorer:
    """Choose rules, a range of n and a kind of plot; the P/N picture is redrawn."""

    def __init__(self, rules: Rules | str = "divisor-duel", lo: int = 1, hi: int = 60, largest: int = 2000) -> None:
        book = get_rules(rules)
        self._extra = {} if book.name in RULEBOOKS else {book.name: book}
        self.rules_box = w.Dropdown(
            options=_rules_options(self._extra), value=book.name, description="Rules", style=_WIDE,
            tooltip="Which rule book to explore",
        )  # fmt: skip
        self.range_slider = w.IntRangeSlider(
            value=(lo, hi), min=1, max=largest, description="n from, to", continuous_update=False, style=_WIDE,
            tooltip="The range of numbers to plot", layout=w.Layout(width="36em"),
        )  # fmt: skip
        self.plot_box = w.Dropdown(options=list(PLOT_KINDS), value="number line", description="Plot", style=_WIDE,
                                   tooltip="Which picture to draw")  # fmt: skip
        self.message = w.HTML().add_class("duel-message")
        self.out = w.Output().add_class("duel-plot")
        self.draws = 0
        for box in (self.rules_box, self.range_slider, self.plot_box):
            box.observe(lambda _: self.redraw(), names="value")
        self.widget = w.VBox([
            w.HBox([self.rules_box, self.plot_box], layout=w.Layout(flex_flow="row wrap")),
            self.range_slider, self.message, self.out,
        ]).add_class("duel-explorer")  # fmt: skip
        self.redraw()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def redraw(self) -> None:
        """Draw the chosen plot for the chosen rules and range into the Output."""
        name = self.rules_box.value
        rules = self._extra.get(name) or get_rules(name)
        lo, hi = self.range_slider.value
        kind = self.plot_box.value
        try:
            fig = draw_plot(kind, rules, lo, hi)
        except DuelError as error:
            self.message.value = html_message(str(error), error=True)
            return
        self.message.value = ""
        self.out.outputs = (_figure_output(fig, f"{kind} of {rules.title}, n = {lo} to {hi}"),)
        self.draws += 1


class FollowGame:
    """Step through best play (perfect against perfect) from a chosen start."""

    def __init__(self, rules: Rules | str = "divisor-duel", start: int | None = None) -> None:
        self.rules = get_rules(rules)
        self.states: list[GameState] = []
        self._busy = False
        self.start_box = w.Text(
            value=str(self.rules.default_start if start is None else start), description="Start number",
            continuous_update=False, style=_WIDE, tooltip="Type a start and press Enter", layout=w.Layout(width="16em"),
        )  # fmt: skip
        self.go_button = GameBoard._button("Show best play", "Play the game perfect against perfect", "duel-follow")
        self.prev_button = GameBoard._button("◀ Prev", "One move back", "duel-prev")
        self.next_button = GameBoard._button("Next ▶", "One move forward", "duel-next")
        self.step_slider = w.IntSlider(value=0, min=0, max=0, description="Move", style=_WIDE,
                                       tooltip="Which position of the game to show")  # fmt: skip
        self.progress = _progress_bar()
        self.message = w.HTML().add_class("duel-message")
        self.view = w.HTML().add_class("duel-follow-view")
        self.start_box.observe(lambda _: None if self._busy else self.compute(), names="value")
        self.go_button.on_click(lambda _: self.compute())
        self.prev_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(1))
        self.step_slider.observe(lambda _: self.show(), names="value")
        self.widget = w.VBox([
            w.HBox([self.start_box, self.go_button], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.prev_button, self.step_slider, self.next_button]),
            self.progress, self.message, self.view,
        ]).add_class("duel-follow-game")  # fmt: skip
        self.compute()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def compute(self) -> None:
        """Play the whole game with best play from the start in the box."""
        try:
            n = parse_whole(self.start_box.value, "start number")
            state = new_game(self.rules, n)
            if n <= DEFAULT_TABLE_SIZE:
                tabulate_with_progress(self.rules, table_length(n, DEFAULT_TABLE_SIZE), self.progress)
            player = make_player("perfect")
            states = [state]
            while not state.is_over and len(states) <= MAX_FOLLOW:
                state = state.pass_turn() if state.must_pass else state.play(player(state))
                states.append(state)
        except DuelError as error:
            self.message.value = html_message(f"{error} The game shown is unchanged.", error=True)
            return
        cut = not states[-1].is_over
        self.message.value = html_message(f"Only the first {MAX_FOLLOW} moves are shown." if cut else "")
        self.states = states
        self.step_slider.max = len(states) - 1
        if self.step_slider.value == 0:
            self.show()
        else:
            self.step_slider.value = 0

    def step(self, delta: int) -> None:
        """Move the slider one step back (-1) or forward (+1)."""
        self.step_slider.value = max(0, min(self.step_slider.max, self.step_slider.value + delta))

    @property
    def current(self) -> GameState:
        """The position shown."""
        return self.states[int(self.step_slider.value)]

    def describe(self, state: GameState) -> str:
        """Outcome and remoteness of a position, in words."""
        n, rules = state.number, state.rules
        table = table_for(rules, n)
        if table is not None:
            outcome: str = table.outcome_of(n)
            far = f"{int(table.remoteness[n])}"
        else:
            form = closed_form(rules)
            outcome = "?" if form is None else ("P" if form.is_p(n) else "N")
            far = "unknown (beyond the table)"
        meaning = "the player to move loses with best play" if outcome == "P" else "the player to move wins"
        return f"{n} is {'a P' if outcome == 'P' else 'an N'}-position ({meaning}); remoteness {far} (moves left)."

    def show(self) -> None:
        """Show the position at the slider's step."""
        if not self.states:
            return
        i = self.step_slider.value
        state = self.current
        line = " → ".join(
            f"<b>[{s.number}]</b>" if k == i else str(s.number)
            for k, s in enumerate(self.states)
            if k == 0 or isinstance(s.history[-1], Moved)
        )
        if state.is_over:
            now = escape(coach.game_over_explanation(state))
        else:
            who = f"Player {state.to_move}"
            nxt = self.states[i + 1].history[-1] if i + 1 < len(self.states) else None
            best = (
                f" Best play: {move_words(state.rules, state.number, nxt.divisor)}."
                if isinstance(nxt, Moved)
                else " Best play: pass."
                if isinstance(nxt, Passed)
                else ""
            )
            now = escape(f"{who} to move. {self.describe(state)}{best}")
        self.view.value = (
            f"<div><b>Position {i} of {len(self.states) - 1}</b>: {now}</div>"
            f'<div style="margin-top:4px;overflow-wrap:anywhere">Game: {line}</div>'
        )
        self.prev_button.disabled = i == 0
        self.next_button.disabled = i == len(self.states) - 1


class VariantBuilder:
    """Build a custom Divisor Duel variant from menus, see its table and plot, and play it."""

    def __init__(self, board: GameBoard | None = None) -> None:
        self.board = board
        self.rules: Rules | None = None
        self.table: Table | None = None
        self.move_box = w.Dropdown(
            options=[("subtract d (N → N − d)", "subtract"), ("divide by d (N → N ÷ d)", "divide")],
            description="Move", style=_WIDE, tooltip="What a move does to the number",
        )  # fmt: skip
        self.family_box = w.Dropdown(
            options=["all", "even", "odd", "prime"], description="Divisors allowed", style=_WIDE,
            tooltip="Which proper divisors d (1 < d < N) may be used",
        )  # fmt: skip
        self.one_box = w.Checkbox(description="allow d = 1", tooltip="May a player use the divisor 1?", **_TICK)
        self.prime_box = w.Checkbox(
            description="reaching a prime wins", tooltip="Whoever moves to a prime wins at once", **_TICK
        )
        self.misere_box = w.Checkbox(
            description="misère: the last player to move loses", tooltip="Turn the winning rule upside down", **_TICK
        )
        self.upto_box = w.BoundedIntText(
            value=100, min=10, max=TABLE_LIMIT, description="Table up to", style=_WIDE,
            tooltip="Solve every start from 1 to this number", layout=w.Layout(width="16em"),
        )  # fmt: skip
        self.build_button = GameBoard._button("Build", "Make the variant and solve it", "duel-build")
        self.play_button = GameBoard._button(
            "Play it", "Add the variant to the game board's Rules list", "duel-play-it"
        )
        self.progress = _progress_bar()
        self.message = w.HTML().add_class("duel-message")
        self.description = w.HTML().add_class("duel-variant-rules")
        self.out = w.Output().add_class("duel-variant-out")
        self.build_button.on_click(lambda _: self.build())
        self.play_button.on_click(lambda _: self.play_it())
        self.widget = w.VBox([
            w.HBox([self.move_box, self.family_box], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.one_box, self.prime_box, self.misere_box], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.upto_box, self.build_button, self.play_button], layout=w.Layout(flex_flow="row wrap")),
            self.progress, self.message, self.description, self.out,
        ]).add_class("duel-variant-builder")  # fmt: skip

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def changes(self) -> dict[str, object]:
        """The rule fields that differ from Divisor Duel, from the menus."""
        chosen: dict[str, object] = {
            "move": self.move_box.value,
            "divisors": self.family_box.value,
            "allow_one": self.one_box.value,
            "win_on_reaching": "prime" if self.prime_box.value else "none",
            "last_mover_wins": not self.misere_box.value,
        }
        return {k: v for k, v in chosen.items() if getattr(DIVISOR_DUEL, k) != v}

    def words(self) -> str:
        """The menu choices in plain words, e.g. 'divide, prime divisors, misère'."""
        words = [self.move_box.value, f"{self.family_box.value} divisors"]
        words += ["1 allowed"] if self.one_box.value else []
        words += ["reaching a prime wins"] if self.prime_box.value else []
        words += ["misère"] if self.misere_box.value else []
        return ", ".join(words)

    def build(self) -> Rules | None:
        """Make the variant, solve it and show its rules, first rows and plot."""
        changes = self.changes()
        if changes:
            name = "divisor-duel/" + ",".join(f"{k}={str(v).lower()}" for k, v in sorted(changes.items()))
            try:
                rules = DIVISOR_DUEL.variant(name, title="Divisor Duel variant: " + self.words(), **changes)
            except RulesError as error:
                self.message.value = html_message(f"These choices do not make a game: {error}", error=True)
                return None
        else:
            rules = DIVISOR_DUEL
        try:
            table = tabulate_with_progress(rules, self.upto_box.value, self.progress)
            fig = draw_plot("number line", rules, 1, min(table.upto, 100))
        except DuelError as error:
            self.message.value = html_message(str(error), error=True)
            return None
        self.rules, self.table = rules, table
        same = " These are the book's own rules." if rules is DIVISOR_DUEL else ""
        self.message.value = html_message(f"Built {rules.name}.{same} Click 'Play it' to play it on the game board.")
        self.description.value = "<br>".join(escape(line) for line in rules.describe().splitlines())
        first_p = ", ".join(map(str, table.p_positions()[:30]))
        summary = f"{table.count_p():,} P-positions from 1 to {table.upto:,}. The first: {first_p}"
        self.out.outputs = (
            {
                "output_type": "stream",
                "name": "stdout",
                "text": summary + "\n\n" + table.to_text(1, min(table.upto, 20)),
            },
            _figure_output(fig, f"number line of {rules.title}"),
        )
        return rules

    def play_it(self) -> None:
        """Register the variant so the game boards can offer it (building it first if needed)."""
        rules = self.rules if self.rules is not None and self.rules.game_key() == self._key() else self.build()
        if rules is None:
            return
        register(rules)
        boards = set(_BOARDS) | ({self.board} if self.board is not None else set())
        for board in boards:
            board.refresh_rules(select=rules.name)
        self.message.value = html_message(
            f"{rules.title} is now in the game board's Rules list. Choose a start and click New game."
        )

    def _key(self) -> tuple[object, ...]:
        try:
            return DIVISOR_DUEL.variant("key", **self.changes()).game_key()
        except RulesError:
            return ()


__all__ = ["FollowGame", "GameBoard", "PNExplorer", "VariantBuilder", "output_text", "parse_whole"]
