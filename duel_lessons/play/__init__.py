"""Layer 3, players: computer players, the coach, sums of games and tournaments."""
