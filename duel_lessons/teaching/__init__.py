"""Layer 4, teaching: self-checking exercises, student copies and the answer key."""
