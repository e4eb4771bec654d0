"""Layer 1, rules and game state: rule books as data, the immutable game engine, transcripts."""
