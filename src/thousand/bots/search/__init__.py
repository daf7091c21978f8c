"""``strong`` and ``expert``: search bots that sample the hidden cards and solve each deal.

Every decision is taken the same way (docs/search-bots.md): draw deals consistent with what
the seat has seen (:mod:`thousand.bots.sampling`), play each of them out with the
double-dummy solver (:mod:`thousand.solver`, every hand open), and choose the move whose
average outcome is best (perfect-information Monte Carlo, PIMC).  A module per phase says
how (:class:`SearchBot`, in :mod:`.bot`, is their searches put together):

* **Card play** (:mod:`.play`): every legal card solved in every sampled deal.
* **Exchange** (:mod:`.exchange`): candidate gives (or discards) solved, the weaker half
  dropped after each round of deals.
* **Contract, concede, redeal** (:mod:`.contract`): the declarer's totals over fresh
  samples give the chance of making each contract; the best expected deal value wins.
* **Bids and dark bids** (:mod:`.auction`), **talon buy-out** (:mod:`.buy`) and the
  two-player **talon choice** (:mod:`.talon_choice`) value a hand before it holds the talon
  as :mod:`.bids` says: the declarer takes the talon in each sampled deal, gives the cards
  the heuristic ranks best and the deal is solved.

What a move is worth (the *utility*) is the seat's own deal value, less ``beta`` times the
mean deal value of its two opponents (``beta`` = 0.5: in a three-player game an opponent's
point costs about half as much as one's own point gains; with two players ``beta_two`` = 1
times the one opponent's, whose deal value as defender is all the defence's points, the
talon not chosen among them, as the engine scores it).  The solver's value is the
declarer's total, so for a defender the split of the defenders' points between him and his
partner is taken as even; a defender's own declarations are added to his side.  The declarer
counts a contract as made in a sampled deal only with ``margin`` points to spare: the solver
sees every card, a real declarer does not.  Deal values are the engine's (:mod:`.stakes`).

Budgets are per decision (:mod:`.config`): a time limit with a cap on the samples
(``min_samples`` are always drawn).  The samples of a decision come from a random source
seeded with the bot's seed and the position, so with a fixed number of samples
(``time_limit=None``) a decision is reproducible.  Each phase's search hands back its
:class:`Samples`, which the bot chooses from and :mod:`thousand.bots.valuation` reports.
"""

from .bot import SearchBot, expert, strong
from .config import EXPERT, STRONG, SearchConfig
from .play import position
from .samples import Samples, first_best
from .samples import _Budget as _Budget
from .stakes import stakes

__all__ = [
    "EXPERT",
    "STRONG",
    "Samples",
    "SearchBot",
    "SearchConfig",
    "expert",
    "first_best",
    "position",
    "stakes",
    "strong",
]
