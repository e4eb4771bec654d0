"""Layer 2, solving: tables for any variant, proved closed forms, and the oracle that chooses between them."""
