"""The words for people, in Russian and English, in one package: the grammar every text is
written in (``grammar``), the message catalogue (``catalogue``: what the engine's codes and
events say), the rules' texts and the option words (``rules``), the typed-move vocabulary
(``vocabulary``) and the pages' own words (``pages``).

The words build on the engine alone, and the engine imports none of them (the contracts in
pyproject.toml say so): the engine speaks in codes and plain data, and every front end —
the terminal, the pages through the server, the command line — words them here.
"""
