"""kozyri: exact analysis of Own Trumps and Reversi."""
