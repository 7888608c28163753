"""The engine tests' helpers (see ``dealing.py``), handed to tests as the ``kit`` fixture."""

from __future__ import annotations

import pytest
from dealing import action, complete_deal, make_round, run, snapshot, tiles_of


class Kit:
    """The helpers above, handed to tests as the ``kit`` fixture (so no test imports
    ``conftest`` by name)."""

    complete_deal = staticmethod(complete_deal)
    make_round = staticmethod(make_round)
    action = staticmethod(action)
    run = staticmethod(run)
    snapshot = staticmethod(snapshot)
    tiles_of = staticmethod(tiles_of)


@pytest.fixture(scope="session")
def kit() -> type[Kit]:
    return Kit
