"""Every phrase the boards show, in one place, so a teacher changes "Your turn" once.

GameBoard and SumBoard both read a :class:`BoardWording`.  Placeholders:
``{player}`` a player's name ("Player 2", "Computer"), ``{n}`` the current number,
``{title}`` the rule book's title, ``{d}`` a divisor, ``{move}`` a move in symbols
("60 − 15 = 45"), ``{why}`` a reason, ``{you}`` / ``{them}`` the two sides' names.

>>> words = BoardWording(your_turn="Your go")
>>> words.your_turn
'Your go'
>>> BoardWording().fill("player_wins", player="Player 2")
'Player 2 wins!'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoardWording:
    """The words on the game boards (GameBoard, SumBoard); change a field to change every board."""

    you: str = "You"
    computer: str = "Computer"
    player: str = "Player {k}"
    your_turn: str = "Your turn"
    player_turn: str = "{player}'s turn"
    choose_divisor: str = "Choose a divisor of {n}: click its card or type it."
    choose_component: str = "Choose one number and a divisor."
    must_pass: str = "{n} has no allowed divisor, so {player} must pass: press Pass."
    thinking: str = "Computer is thinking…"
    computer_choosing: str = "The computer is choosing a divisor of {n}."
    you_win: str = "You win!"
    you_lose: str = "You lose – the computer wins this time."
    player_wins: str = "{player} wins!"
    game_over: str = "Game over"
    you_played: str = "You played {move}."
    player_played: str = "{player} played {move}."
    computer_played: str = "The computer played {move}."
    computer_passed: str = "The computer has no allowed divisor of {n}, so it passed."
    player_passed: str = "{player} passed: {n} has no allowed divisor."
    lost_turn: str = "{d} is not an allowed divisor of {n} ({why}). In {title} an invalid move loses the turn."
    new_game: str = "New game of {title} from {n}. {first}."
    moves_first_you: str = "move first"
    moves_first_other: str = "moves first"
    not_your_turn: str = "It is the computer's turn."
    over_already: str = "The game is over. Press New game or Rematch to play again."
    unchanged: str = "The current game is unchanged."
    try_again: str = "Nothing was played; try again."
    score: str = "Score: {you} {a} – {b} {them}"
    play_again: str = "New game"
    rematch: str = "Rematch"
    pass_label: str = "Pass"
    play_label: str = "Play"
    entry_label: str = "Type a divisor"
    settings: str = "Settings"
    history: str = "Game so far"
    coach: str = "Coach"
    problem: str = "Problem:"
    region: str = "{title} from {start}: game board"
    nothing_typed: str = "Nothing was typed: type an allowed divisor of {n} in the box, or click a card."
    kernel_lost: str = "The kernel restarted: run this cell again."
    no_answer: str = "No answer from the kernel. If it stopped or restarted, run this cell again."
    details: str = "The dots in words"
    strip: str = "The whole game"

    def fill(self, field: str, **values: object) -> str:
        """The phrase ``field`` with its placeholders filled in."""
        return str(getattr(self, field)).format(**values)

    def name(self, player: int, vs_computer: bool) -> str:
        """'You' / 'Computer' against the computer, else 'Player 1' / 'Player 2'."""
        if vs_computer:
            return self.you if player == 1 else self.computer
        return self.player.format(k=player)

    def turn(self, player: int, vs_computer: bool) -> str:
        """'Your turn', "Computer's turn" or "Player 2's turn"."""
        if vs_computer and player == 1:
            return self.your_turn
        return self.player_turn.format(player=self.name(player, vs_computer))

    def result(self, winner: int, vs_computer: bool) -> str:
        """'You win!', the loss line, or 'Player 2 wins!'."""
        if vs_computer:
            return self.you_win if winner == 1 else self.you_lose
        return self.player_wins.format(player=self.name(winner, vs_computer))

    def moves_first(self, player: int, vs_computer: bool) -> str:
        """'You move first' / 'Computer moves first' (never "You moves first")."""
        who = self.name(player, vs_computer)
        verb = self.moves_first_you if vs_computer and player == 1 else self.moves_first_other
        return f"{who} {verb}"


#: The wording every board uses unless it is given its own.
DEFAULT_WORDING = BoardWording()

__all__ = ["DEFAULT_WORDING", "BoardWording"]
