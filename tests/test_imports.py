import subprocess
import sys


def test_core_import_pulls_in_no_drawing_libraries():
    code = ("import sys, ttt_lib, ttt_lib.search, ttt_lib.studies, ttt_lib.agents, ttt_lib.cli;"
            "heavy = {'matplotlib', 'networkx', 'ipywidgets', 'numpy'} & set(sys.modules);"
            "print(sorted(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_public_names():
    import ttt_lib
    for name in ("ListBoard", "BitBoard", "IllegalMoveError", "InvalidBoardError", "TreeNode"):
        assert hasattr(ttt_lib, name)


def test_the_arena_and_the_benchmarks_pull_in_no_drawing_libraries():
    code = ("import sys, ttt_lib.arena, ttt_lib.bench, ttt_lib.bench.plain;"
            "heavy = {'matplotlib', 'networkx', 'ipywidgets', 'numpy'} & set(sys.modules);"
            "print(sorted(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
