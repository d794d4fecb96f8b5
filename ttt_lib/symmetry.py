"""The symmetries of the board, canonical forms and base-3 codes of 3x3 positions.

A position is written as its cells in row-major order, each 0 (empty), 1 (X) or 2 (O).
A symmetry is a permutation ``p`` of the cells: the transformed position has in cell ``i``
what the original had in cell ``p[i]``. ``symmetries(m, n)`` gives them for any rectangle;
the rest of the module is the 3x3 board's (``SYMMETRIES``, codes, canonical forms).
"""
from __future__ import annotations

from collections.abc import Sequence

EMPTY, X_DIGIT, O_DIGIT = 0, 1, 2
CELLS = 9


def symmetries(m: int, n: int) -> dict[str, tuple[int, ...]]:
    """The symmetries of a rectangle of m rows of n cells, as cell permutations ``p``.

    8 for a square (the 4 rotations with and without a mirror), 4 otherwise (turning a
    non-square board a quarter would change its shape), fewer for a single row or cell,
    where some of them coincide.
    """
    def perm(source):  # source(r, c) -> the original (row, col) seen at (r, c)
        return tuple(source(r, c)[0] * n + source(r, c)[1] for r in range(m) for c in range(n))

    if m != n:
        return _distinct({"identity": perm(lambda r, c: (r, c)),
                          "rotate 180": perm(lambda r, c: (m - 1 - r, n - 1 - c)),
                          "mirror": perm(lambda r, c: (r, n - 1 - c)),
                          "flip": perm(lambda r, c: (m - 1 - r, c))})
    rotations = [tuple(range(n * n))]
    for _ in range(3):  # a quarter clockwise: new (r, c) is old (n-1-c, r)
        p = rotations[-1]
        rotations.append(tuple(p[(n - 1 - c) * n + r] for r in range(n) for c in range(n)))
    mirrored = [tuple(p[r * n + n - 1 - c] for r in range(n) for c in range(n))
                for p in rotations]  # mirror left to right: new (r, c) is old (r, n-1-c)
    names = ["identity", "rotate 90", "rotate 180", "rotate 270",
             "mirror", "mirror + rotate 90", "mirror + rotate 180", "mirror + rotate 270"]
    return _distinct(dict(zip(names, rotations + mirrored)))


def _distinct(perms: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    """Drop repeats (a single row has only 2 symmetries, a single cell 1), keeping the first."""
    kept: dict[str, tuple[int, ...]] = {}
    for name, p in perms.items():
        if p not in kept.values():
            kept[name] = p
    return kept


SYMMETRIES: dict[str, tuple[int, ...]] = symmetries(3, 3)
PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(SYMMETRIES.values())


def transform(cells: Sequence, perm: Sequence[int]) -> tuple:
    """The position ``cells`` seen through the symmetry ``perm``."""
    return tuple(cells[j] for j in perm)


def symmetric_forms(cells: Sequence) -> list[tuple]:
    """The 8 images of a position (some may coincide)."""
    return [transform(cells, p) for p in PERMUTATIONS]


def encode(cells: Sequence[int]) -> int:
    """Base-3 code of a position, cell 0 the most significant digit."""
    code = 0
    for digit in cells:
        code = 3 * code + digit
    return code


def decode(code: int) -> tuple[int, ...]:
    """The 9 cells of a base-3 code (the inverse of ``encode``)."""
    if not isinstance(code, int) or not 0 <= code < 3 ** CELLS:
        raise ValueError(f"a 3x3 code is an int in 0..{3 ** CELLS - 1}, not {code!r}")
    cells = []
    for _ in range(CELLS):
        code, digit = divmod(code, 3)
        cells.append(digit)
    return tuple(reversed(cells))


def canonical(cells: Sequence[int]) -> tuple[int, ...]:
    """The representative of a position's symmetry class: the image with the smallest code."""
    return min(symmetric_forms(cells), key=encode)


def canonical_code(cells: Sequence[int]) -> int:
    """The smallest base-3 code among a position's 8 images."""
    return min(encode(form) for form in symmetric_forms(cells))


def stabilizer(cells: Sequence[int]) -> list[str]:
    """Names of the symmetries that leave the position unchanged."""
    cells = tuple(cells)
    return [name for name, p in SYMMETRIES.items() if transform(cells, p) == cells]


def mask_tables(bit_of_cell: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """For each symmetry, a table mapping a 9-bit cell mask to its image.

    ``bit_of_cell[i]`` is the bit that holds cell ``i`` (the bitboard's layout), so the tables
    let a bitboard find its symmetric forms with 2 look-ups per symmetry.
    """
    tables = []
    for perm in PERMUTATIONS:
        # where each single bit goes: cell perm[i] is seen at cell i
        moves_to = {1 << bit_of_cell[j]: 1 << bit_of_cell[i] for i, j in enumerate(perm)}
        table = [0] * (1 << CELLS)
        for mask in range(1, 1 << CELLS):
            lowest = mask & -mask  # a mask's image: its lowest bit's, plus the rest's
            table[mask] = moves_to[lowest] | table[mask ^ lowest]
        tables.append(tuple(table))
    return tuple(tables)
