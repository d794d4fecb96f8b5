import pytest

from ttt_lib import BitBoard, ListBoard
from ttt_lib.game import reachable


@pytest.fixture(scope="session")
def all_bitboards():
    """The 5,478 reachable positions (X opens), as BitBoards, breadth-first."""
    return list(reachable(BitBoard()).values())


@pytest.fixture(scope="session")
def all_listboards():
    """The same positions found by searching with the list board."""
    return list(reachable(ListBoard()).values())
