"""Research environments on the engine (docs/research.md): install ``thousand[research]``.

* :mod:`thousand.envs.actions`: the dense action space (every move <-> one index);
* :mod:`thousand.envs.observation`: a seat's view as a vector and a string;
* :mod:`thousand.envs.pettingzoo`: the PettingZoo AEC environment, ``env(preset=...)``;
* :mod:`thousand.envs.openspiel`: the OpenSpiel game ``"thousand"`` (registered on import);
* :mod:`thousand.envs.openspiel_bots`: OpenSpiel's ISMCTS and MCTS as a ``thousand`` bot;
* :mod:`thousand.envs.worlds`: whole deals one seat cannot tell from the real one;
* :mod:`thousand.envs.fastsim`: random legal play of whole deals, in C on the solver's core.

Nothing is imported here, so that ``thousand.envs.actions`` needs no third-party package.
"""
