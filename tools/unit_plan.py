"""Write (or check) the README's table of the three-week unit, from the notebooks themselves.

    python tools/unit_plan.py [--check]

The table between the README's ``<!-- unit-plan -->`` and ``<!-- /unit-plan -->`` markers is
``ttt_lib.teach.plan.plan_markdown`` of the notebooks in ``notebooks/``, the same table notebook
00 computes. With ``--check`` nothing is written: the exit status is 1 when the README's table
is out of date (a notebook gained words, cells or exercises). Bad arguments exit with status 2.
"""
from __future__ import annotations

import sys

from course import NOTEBOOKS, ROOT, UsageError, main, parser

README = ROOT / "README.md"
START, END = "<!-- unit-plan -->", "<!-- /unit-plan -->"


def with_table(text: str, table: str) -> str:
    """``text`` with the block between the markers replaced by ``table``."""
    before, found, rest = text.partition(START)
    _, ended, after = rest.partition(END)
    if not (found and ended):
        raise UsageError(f"{README.name} has no {START} ... {END} block")
    return f"{before}{START}\n{table}\n{END}{after}"


def run(argv: list[str]) -> int:
    args = parser("unit_plan.py", "Write or check the README's table of the unit.")
    args.add_argument("--check", action="store_true", help="only report a stale table")
    options = args.parse_args(argv)
    from ttt_lib.teach.plan import plan_markdown, unit_plan
    text = README.read_text(encoding="utf-8")
    wanted = with_table(text, plan_markdown(unit_plan(NOTEBOOKS)))
    if wanted == text:
        return 0
    if options.check:
        print(f"{README.name}: the unit plan's table is out of date "
              f"(python tools/unit_plan.py rewrites it)")
        return 1
    README.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(run))
