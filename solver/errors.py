"""Errors that carry a message for the user (bad input, impossible positions)."""


class KozyriError(ValueError):
    """Bad input: malformed text, an impossible position, an illegal move.

    The command line prints the message on one line and exits with code 2.
    """
