"""The Own Trumps agents: baselines (:mod:`.simple`), UCT with proofs
(:mod:`.mcts`), perfect-information Monte Carlo (:mod:`.pimc`) and
information-set MCTS (:mod:`.ismcts`) over the trees of :mod:`.trees`.
They see one seat's observation (:mod:`.base`); the registry is
:mod:`kozyri.agents`."""
