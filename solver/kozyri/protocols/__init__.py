"""Engine protocols: text protocols that let other programs drive kozyri's
engines, above the live game (docs/engine-protocol.md).

* :mod:`kozyri.protocols.engine`: ``kozyri engine``, the Own Trumps engine's
  line protocol and its JSON Lines form (:mod:`.messages`: the JSON
  vocabulary every front end speaks; :mod:`.analysis`: the analysis behind
  ``analyze``; :mod:`.games`: a game held by one seat; :mod:`.lines`:
  bounded line reading);
* :mod:`kozyri.protocols.gtp`: the Go Text Protocol subset Othello programs
  speak, for the Reversi engine.
"""
