"""Engine protocols: text protocols that let other programs drive kozyri's
engines, above the live game (docs/engine-protocol.md).

* :mod:`kozyri.protocols.engine`: ``kozyri engine``, the Own Trumps engine's
  line protocol and its JSON Lines form (:mod:`.messages`: the JSON
  vocabulary every front end speaks and the stateless requests;
  :mod:`.analysis`: the analysis behind ``analyze``; :mod:`.transport`: the
  framing and the threads; the clocks are the play floor's,
  :mod:`kozyri.play.clock`; :mod:`.lines`:
  bounded line reading). Its games are the session floor's
  (:mod:`kozyri.play`: a :class:`~kozyri.play.Session`, or a
  :class:`~kozyri.play.SeatTable` for a game held by one seat);
* :mod:`kozyri.protocols.gtp`: the Go Text Protocol subset Othello programs
  speak, for the Reversi engine.
* :mod:`kozyri.protocols.client`: the Own Trumps engine as a Python object
  in python-chess's shape (``Engine.in_process()``, ``Engine.popen()``:
  ``play``, ``analyse``, ``analysis``, ``quit``), docs/engine-api.md.
"""
