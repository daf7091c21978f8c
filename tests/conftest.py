"""What every test shares: a data folder of its own.

``thousand play`` saves every game after every move into the user's data folder
(``$XDG_DATA_HOME/thousand/saves``, docs/record.md), and ``thousand serve`` keeps its
default database there: the tests point ``XDG_DATA_HOME`` at a temporary folder for the
whole run, so that no test game lands among a player's saves (where ``thousand play
--resume`` would pick it) and no test reads the player's own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))
    yield
    if before is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = before
