"""Type stub of the optional C core (built from _native/core.c by setup.py)."""

from collections.abc import Mapping

SOURCE_HASH: str

class Core:
    # options: PlayOptions.native(), read by name (native_options.PLAY); hands and trick
    # cards are the engine's cards, mapped inside to the search's strength order.  seats: 3,
    # or 2 for the game for two (then hands has two masks).
    def __init__(
        self,
        options: Mapping[str, int | tuple[int, ...]],
        declarer: int,
        log2_entries: int = 18,
        seats: int = 3,
    ) -> None: ...
    def search(
        self,
        hands: tuple[int, ...],
        leader: int,
        trick: tuple[int, ...],
        trump: int,
        tdecl: int,
        aces: int,
        nodecl: bool,
        alpha: int,
        beta: int,
        declared_suits: int = 0,
    ) -> tuple[int, int]: ...
    def clear(self) -> None: ...
