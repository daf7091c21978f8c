"""The engine: the rules of Тысяча and nothing else (docs/architecture.md).

The rules and their options (:mod:`.rules`, each option declared once as its field; the
shape of a declaration in :mod:`.options`), the cards (:mod:`.cards`) and moves
(:mod:`.moves`), one deal (:mod:`.deal`) with its card-play rules (:mod:`.play_rules`), a
whole game (:mod:`.game`) and its score sheet (:mod:`.scoring`), what a seat may see
(:mod:`.view`), the table that runs a game for seats and says what happened
(:mod:`.table`, :mod:`.protocol`), the messages a client sends it
(:mod:`.client_messages`), the game record (:mod:`.record`), the strict reading of outside
JSON (:mod:`.strict_json`), dealing (:mod:`.draws`) and its commitments
(:mod:`.fairness`), and why a move is illegal as codes (:mod:`.errors`).

It does no input or output (but :mod:`.message_files`, a tool of development run by hand,
which writes the files made from the client messages' declarations), reads no clock, and
imports nothing of the project outside itself: the words for people
(:mod:`thousand.words`), the solver, the bots and the front ends build on it.
"""
