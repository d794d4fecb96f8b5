"""Right and wrong answers for notebook 02's question on max^n (three players)."""
from ttt_lib import teach
from ttt_lib.search import maxn

CASES = [
    (teach.check_02_maxn, maxn(teach.PlayersTree(teach.TREE_02_PLAYERS)),
     [(2, 6, 2), (6, 1, 6), (6, 2, 1), (3, 1, 5), (9, 9, 9), (5, 3), "5 3 4", [1, 7, 3]]),
]
