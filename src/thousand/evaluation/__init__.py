"""Tools that measure players against each other: none of them is a player.

``arena`` plays whole games between bots (the one place where bots meet the engine) and
counts wins; ``duplicate`` deals the same cards to every seating so that the luck of the
deal cancels; ``tournament`` holds a tournament (pairings, standings) for people and bots,
and plays a bots' ladder; ``jobs`` runs their work in several processes.

They live apart from :mod:`thousand.bots` because they build on the bots (and on the
engine's whole :class:`~thousand.engine.game.Game`, which no bot may touch), while no bot
needs them: the import-linter contracts in ``pyproject.toml`` keep it that way.  The front
ends (``thousand arena``, ``thousand tournament``, the site's tournaments) import them.
"""
