"""Engine protocols: text protocols that let other programs drive kozyri's
engines (a layer above the games).

* :mod:`kozyri.protocols.gtp`: the Go Text Protocol subset Othello programs
  speak, for the Reversi engine.
"""
