"""Render games in a rule book's own words (its :class:`~duel_lessons.engine.rules.Wording`).

The terminal game prints these pieces one by one; :func:`render` joins them
into the transcript of a whole game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from duel_lessons.engine.events import Event, Moved, Passed, other
from duel_lessons.engine.rules import Rules

if TYPE_CHECKING:  # the game imports this module to render itself; only the type is needed here
    from duel_lessons.engine.game import GameState

Names = tuple[str, str]


def _lines(template: str, **values: object) -> list[str]:
    return template.format(**values).splitlines() if template else []


def stuck_reason(rules: Rules, n: int) -> str:
    """Why there is no legal move from n, as a sentence."""
    if rules.is_kind(n, "prime"):
        return f"{n} is a prime number. No proper divisors."
    return f"{n} has no allowed divisors ({rules.divisor_words})."


def opening_lines(rules: Rules, start: int) -> list[str]:
    """The lines printed once before the first turn."""
    return _lines(rules.wording.opening, n=start, title=rules.title)


def turn_lines(state: GameState, names: Names) -> list[str]:
    """The turn's heading and the current number, before the player chooses."""
    w = state.rules.wording
    lines = _lines(w.turn, player=names[state.to_move - 1])
    if state.legal_moves:
        divisors = w.separator.join(map(str, state.legal_moves))
        return lines + _lines(w.show, n=state.number, divisors=divisors)
    return lines + _lines(w.show_stuck, n=state.number)


def prompt(state: GameState, names: Names) -> str:
    """The question asking the player to move for a divisor."""
    return state.rules.wording.prompt.format(player=names[state.to_move - 1], n=state.number)


def event_lines(event: Event, rules: Rules, names: Names, you: str = "You") -> list[str]:
    """What is said after a move, a pass or a lost turn.

    ``you`` fills the books' second-person ``{you}`` ("You chose 5."); a computer
    player's name goes there instead.
    """
    w = rules.wording
    player = names[event.player - 1]
    if isinstance(event, Moved):
        op = "-" if rules.move == "subtract" else "÷"
        return _lines(w.moved, player=player, you=you, n=event.before, d=event.divisor, new=event.after, op=op)
    if isinstance(event, Passed):
        return _lines(w.passed, player=player, n=event.number, why=stuck_reason(rules, event.number))
    why = f"{event.reason[0].upper()}{event.reason[1:]}."
    return _lines(w.lost_turn, player=player, n=event.number, why=why)


def end_lines(state: GameState, names: Names) -> list[str]:
    """The result, in the book's words (empty while the game goes on)."""
    if state.winner is None or state.loser is None:
        return []
    w, rules, n = state.rules.wording, state.rules, state.number
    values = {"n": n, "winner": names[state.winner - 1], "loser": names[state.loser - 1]}
    if state.ending == "stuck":
        why = f"{names[state.to_move - 1]} has no legal move from {n}."
        return turn_lines(state, names) + _lines(w.end_stuck, why=why, **values)
    if state.ending == "passes":
        return _lines(w.end_passes, **values)
    what = f"{n}, a prime number" if rules.is_kind(n, "prime") else str(n)
    if state.history:
        why = f"{names[other(state.to_move) - 1]} moved to {what}."
        if state.ending == "reached-loss":
            why += " Whoever moves there loses."
        heading = []
    else:
        why = f"The game starts at {what}, so {names[state.to_move - 1]} cannot move."
        heading = _lines(w.turn, player=names[state.to_move - 1])
    return heading + _lines(w.end_reached, why=why, **values)


def render(state: GameState, names: Names = ("Player 1", "Player 2"), you: Names = ("You", "You")) -> str:
    """The whole game so far as the terminal game would have printed it.

    ``you`` fills the books' second-person ``{you}`` for each player: give a
    computer player its name there, e.g. ``("You", "Computer")``.
    """
    rules = state.rules
    out = opening_lines(rules, state.start)
    if out:
        out.append("")
    for event in state.history:
        number = event.before if isinstance(event, Moved) else event.number
        before = replace(state, number=number, to_move=event.player, passes=0, history=())
        out += turn_lines(before, names)
        if not isinstance(event, Passed):
            value = event.divisor if isinstance(event, Moved) else event.value
            out.append(prompt(before, names) + str(value))
        out += event_lines(event, rules, names, you=you[event.player - 1])
        out.append("")
    out += end_lines(state, names)
    return "\n".join(out).rstrip("\n") + "\n"
