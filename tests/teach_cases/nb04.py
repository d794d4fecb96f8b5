"""Right and wrong answers for the exercises of notebook 04 (the write-it ordering too)."""
from ttt_lib import BitBoard, teach
from ttt_lib.search import line_score
from ttt_lib.teach.nb04 import SPEEDUPS_04, speedup_nodes

WINS_BLOCKS_THEN = [4, 0, 2, 6, 8, 1, 3, 5, 7]  # centre, corners, edges


def fewest_nodes(text):
    return min(SPEEDUPS_04, key=lambda name: speedup_nodes(text, name))


# ---------------------------------------------------------------- orderings, right and wrong

def by_line_score(state):  # the line score after each move, for the player to move
    return sorted(state.moves(), key=lambda m: state.to_move * line_score(state.play(m)),
                  reverse=True)


def completes(state, move, digit):
    cells = state.cells()
    return any(move in line and all(cells[c] == digit for c in line if c != move)
               for line in state.lines())


def wins_blocks_centre(state):  # written from scratch: win, block, centre, corners, edges
    mine, theirs = (1, 2) if state.to_move == 1 else (2, 1)
    return sorted(state.moves(), key=lambda m: (not completes(state, m, mine),
                                                not completes(state, m, theirs),
                                                WINS_BLOCKS_THEN.index(m)))


def as_given(state):  # no ordering at all
    return state.moves()


def worst_first(state):  # sorted the wrong way round
    return sorted(state.moves(), key=lambda m: state.to_move * line_score(state.play(m)))


def x_view_only(state):  # best for X first, at O's nodes too
    return sorted(state.moves(), key=lambda m: line_score(state.play(m)), reverse=True)


def centre_corners_only(state):  # a fixed preference: helps, not enough
    return sorted(state.moves(), key=WINS_BLOCKS_THEN.index)


def best_two(state):  # a subset
    return by_line_score(state)[:2]


def first_twice(state):  # a duplicate
    moves = by_line_score(state)
    return moves + moves[:1]


def as_a_set(state):
    return set(state.moves())


def loops(state):
    while True:
        pass


def stub(state):
    raise NotImplementedError


CASES = [
    (teach.check_04_line_score, line_score(BitBoard.from_text(teach.BOARD_04_LINE_SCORE)),
     [8, -80, 1, 0, 12]),
    (teach.check_04_speedup, fewest_nodes(teach.BOARD_04_SPEEDUP),
     ["table", "symmetric table", "heuristic order", "killers", "PVS", "threats"]),
]
# check_04_ordering is a write-it: its right and wrong functions are the WRITE_IT entry below
# (a CASES entry would run the same calls again)

WRITE_IT = [
    (teach.check_04_ordering, [by_line_score, wins_blocks_centre],
     {as_given: "no better than plain order", worst_first: "worst moves first",
      x_view_only: "for the player to move", centre_corners_only: "wins and blocks first",
      best_two: "left out", first_twice: "comes twice", as_a_set: "return a list",
      loops: "ran for more than", stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.search import heuristic_order, threat_order  # noqa: E402


def numpy_line_score(state):  # np.argsort; the moves come back as np.int64
    moves = np.array(state.moves())
    scores = np.array([state.to_move * line_score(state.play(int(m))) for m in moves])
    return list(moves[np.argsort(-scores, kind="stable")])


def library_heuristic(state):
    return heuristic_order(state, state.moves())


def library_threats(state):
    return threat_order(state, state.moves())


WRITE_IT[0][1].append(numpy_line_score)
CHEATS = [(teach.check_04_ordering, {library_heuristic: "heuristic_order",
                                     library_threats: "threat_order"})]


# ------------------------------------------ the table search (transpositions), right and wrong
import math  # noqa: E402

from ttt_lib.search import AlphaBeta, alphabeta, negamax  # noqa: E402

INF = math.inf


def settles(value, flag, alpha, beta):
    return flag == "exact" or (flag == "lower" and value >= beta) or (
        flag == "upper" and value <= alpha)


def soft_tuples(state, alpha, beta, table):  # fail-soft, (value, flag) keyed by state.key()
    entry = table.get(state.key())
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -soft_tuples(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    flag = "upper" if best <= alpha else "lower" if best >= beta else "exact"
    table[state.key()] = (best, flag)
    return best


def hard_dicts(state, alpha, beta, table):  # fail-hard, dicts keyed by the state itself
    if state in table:
        entry = table[state]
        if entry["flag"] == 0:
            return entry["value"]
        if entry["flag"] == 1 and entry["value"] >= beta:
            return beta
        if entry["flag"] == -1 and entry["value"] <= alpha:
            return alpha
    if state.is_terminal():
        return state.to_move * state.utility()
    start = alpha
    for move in state.moves():
        value = -hard_dicts(state.play(move), -beta, -alpha, table)
        if value >= beta:
            table[state] = {"value": beta, "flag": 1}
            return beta
        alpha = max(alpha, value)
    table[state] = {"value": alpha, "flag": 0 if alpha > start else -1}
    return alpha


class Entry:
    def __init__(self, lower, upper):
        self.lower, self.upper = lower, upper


def narrowing_entries(state, alpha, beta, table):  # bounds narrow the window; text + mover
    key = (state.to_text(), state.to_move)
    entry = table.get(key, Entry(-INF, INF))
    if entry.lower >= beta or entry.lower == entry.upper:
        return entry.lower
    if entry.upper <= alpha:
        return entry.upper
    low, high = max(alpha, entry.lower), min(beta, entry.upper)
    if state.is_terminal():
        best = state.to_move * state.utility()
    else:
        best, a = -INF, low
        for move in state.moves():
            best = max(best, -narrowing_entries(state.play(move), -high, -a, table))
            a = max(a, best)
            if a >= high:
                break
    lower = best if best > low else entry.lower
    upper = best if best < high else entry.upper
    table[key] = Entry(max(lower, entry.lower), min(upper, entry.upper))
    return best


def symmetric_exact_only(state, alpha, beta, table):  # canonical keys, exact values only
    key = state.canonical_key()
    if key in table:
        return table[key]
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -symmetric_exact_only(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    if alpha < best < beta:
        table[key] = best
    return best


def numpy_table(state, alpha, beta, table):  # np.max over the children, np.int64 leaves
    entry = table.get(state.key())
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return np.int64(state.to_move * state.utility())
    values, low = [], alpha
    for move in state.moves():
        values.append(-numpy_table(state.play(move), -beta, -low, table))
        low = max(low, np.max(values))
        if low >= beta:
            break
    best = np.max(values)
    flag = "upper" if best <= alpha else "lower" if best >= beta else "exact"
    table[state.key()] = (best, flag)
    return best


def bound_as_value(state, alpha, beta, table):  # no flag: every result stored as exact
    if state.key() in table:
        return table[state.key()]
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -bound_as_value(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    table[state.key()] = best
    return best


def flags_unchecked(state, alpha, beta, table):  # flags stored, never held to the window
    if state.key() in table:
        return table[state.key()][0]
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -flags_unchecked(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    table[state.key()] = (best, "upper" if best <= alpha else "lower" if best >= beta else "exact")
    return best


def keyed_by_marks(state, alpha, beta, table):  # whose turn it is left out of the key
    entry = table.get(state.to_text())
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -keyed_by_marks(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    table[state.to_text()] = (best, "upper" if best <= alpha else "lower" if best >= beta
                              else "exact")
    return best


def x_values(state, alpha, beta, table):  # max/min form with a table: X's value
    entry = table.get(state.key())
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return state.utility()
    low, high = alpha, beta
    best = -INF if state.to_move == 1 else INF
    for move in state.moves():
        value = x_values(state.play(move), low, high, table)
        if state.to_move == 1:
            best, low = max(best, value), max(low, value)
        else:
            best, high = min(best, value), min(high, value)
        if low >= high:
            break
    table[state.key()] = (best, "upper" if best <= alpha else "lower" if best >= beta
                          else "exact")
    return best


def never_looks(state, alpha, beta, table):  # stores, never reads
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -never_looks(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    table[state.key()] = (best, "upper" if best <= alpha else "lower" if best >= beta
                          else "exact")
    return best


def never_stores(state, alpha, beta, table):  # reads, never stores
    entry = table.get(state.key())
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -never_stores(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    return best


def looks_up_another_key(state, alpha, beta, table):  # stores by key(), looks up the state
    entry = table.get(state)
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return state.to_move * state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -looks_up_another_key(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    table[state.key()] = (best, "upper" if best <= alpha else "lower" if best >= beta
                          else "exact")
    return best


def memo_without_window(state, alpha, beta, table):  # a memo: right values, no pruning
    key = state.key()
    if key in table:
        return table[key]
    if state.is_terminal():
        value = state.to_move * state.utility()
    else:
        value = max(-memo_without_window(state.play(move), -beta, -alpha, table)
                    for move in state.moves())
    table[key] = value
    return value


def flag_from_raised_alpha(state, alpha, beta, table):  # flag against alpha as raised
    entry = table.get(state.key())
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return state.to_move * state.utility()
    best = -INF
    for move in state.moves():
        best = max(best, -flag_from_raised_alpha(state.play(move), -beta, -alpha, table))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    table[state.key()] = (best, "upper" if best <= alpha else "lower" if best >= beta
                          else "exact")
    return best


def leaf_for_x(state, alpha, beta, table):  # a finished game scored for X
    entry = table.get(state.key())
    if entry is not None and settles(*entry, alpha, beta):
        return entry[0]
    if state.is_terminal():
        return state.utility()
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -leaf_for_x(state.play(move), -beta, -low, table))
        low = max(low, best)
        if low >= beta:
            break
    table[state.key()] = (best, "upper" if best <= alpha else "lower" if best >= beta
                          else "exact")
    return best


def hard_by_cells(state, alpha, beta, table):  # fail-hard, keyed by the cells alone
    key = tuple(state.cells())
    if key in table:
        value, flag = table[key]
        if flag == "exact":
            return value
        if flag == "lower" and value >= beta:
            return beta
        if flag == "upper" and value <= alpha:
            return alpha
    if state.is_terminal():
        return state.to_move * state.utility()
    start = alpha
    for move in state.moves():
        value = -hard_by_cells(state.play(move), -beta, -alpha, table)
        if value >= beta:
            table[key] = (beta, "lower")
            return beta
        alpha = max(alpha, value)
    table[key] = (alpha, "exact" if alpha > start else "upper")
    return alpha


def value_and_flag(state, alpha, beta, table):  # returns the entry, not the value
    return soft_tuples(state, alpha, beta, table), "exact"


def forgets_return(state, alpha, beta, table):
    soft_tuples(state, alpha, beta, table)


def table_loops(state, alpha, beta, table):
    while True:
        pass


def library_negamax(state, alpha, beta, table):
    return negamax(state)


def library_alphabeta(state, alpha, beta, table):
    return state.to_move * alphabeta(state)


def library_engine(state, alpha, beta, table):
    return AlphaBeta().search(state, alpha, beta)


def library_table(state, alpha, beta, table):
    return AlphaBeta(table=table).search_with_table(state, alpha, beta)


WRITE_IT.append((teach.check_04_transposition,
                 [soft_tuples, hard_dicts, narrowing_entries, symmetric_exact_only, numpy_table],
                 {bound_as_value: "Store a flag", flags_unchecked: "does not settle this search",
                  keyed_by_marks: "whose turn", hard_by_cells: "whose turn",
                  flag_from_raised_alpha: "before the loop raises alpha",
                  leaf_for_x: "utility() is X's score", x_values: "That is X's value",
                  never_looks: "never looks", never_stores: "never stores anything",
                  looks_up_another_key: "never finds", memo_without_window: "prune as alpha-beta",
                  value_and_flag: "value alone", forgets_return: "returned None",
                  table_loops: "ran for more than"}))
CHEATS.append((teach.check_04_transposition,
               {library_negamax: "negamax", library_alphabeta: "alphabeta",
                library_engine: "AlphaBeta.search",
                library_table: "AlphaBeta.search_with_table"}))
