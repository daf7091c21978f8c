"""The engine: the rules of Тысяча and nothing else (docs/architecture.md).

The rules and their options (:mod:`.rules`), the cards (:mod:`.cards`) and moves
(:mod:`.moves`), one deal (:mod:`.deal`) with its card-play rules (:mod:`.play_rules`), a
whole game (:mod:`.game`), what a seat may see (:mod:`.view`), the table that runs a game
for seats and says what happened (:mod:`.table`, :mod:`.protocol`), the game record
(:mod:`.record`), dealing (:mod:`.draws`) and its commitments (:mod:`.fairness`), and why
a move is illegal as codes (:mod:`.errors`).

It does no input or output, reads no clock, and imports nothing of the project outside
itself: the words for people (:mod:`thousand.words`), the solver, the bots and the front
ends build on it.
"""
