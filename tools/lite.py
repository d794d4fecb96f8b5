"""Build the course as a JupyterLite site: the notebooks, run in the browser by Pyodide.

    python tools/lite.py [OUTPUT]          # default build/lite

The site holds every notebook, the ``ttt_lib`` wheel built from this checkout, and the wheels
Pyodide's own distribution lacks (``ipywidgets`` and ``jupyterlab_widgets``, at the versions
installed here, whose JupyterLab extension the build copies from this environment). The build
itself needs no network: the wheels are fetched once into ``build/lite-wheels`` and reused.
In the browser, the Pyodide kernel loads Python and its packages (numpy, matplotlib, networkx)
from Pyodide's CDN at run time; the first cell of each notebook installs ``ttt_lib`` from
the site (``%pip install ttt_lib ipywidgets``) when it is missing.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
WHEELS = ROOT / "build" / "lite-wheels"
WORK = ROOT / "build" / "lite-work"  # an empty folder: jupyter lite reads config files in it
# The widget wheels Pyodide does not ship; comm, ipython and traitlets come with its kernel.
BUNDLED = ("ipywidgets", "jupyterlab_widgets")
# Where the course lives on GitHub: Colab installs the package from there.
REPOSITORY = "OWNER/REPO"
# The first lines of every notebook's first code cell: nothing happens where ttt_lib is
# installed; in JupyterLite it comes from the site's wheels, on Colab from the repository.
INSTALL_LINES = f"""\
import sys

try:  # the course package: already here, except in a browser (JupyterLite) or on Colab
    import ttt_lib
except ImportError:
    if sys.platform == "emscripten":  # JupyterLite: the wheels that come with the site
        %pip install -q ttt_lib ipywidgets
    else:  # Colab: from the course's repository, with the notebooks' extras
        %pip install -q "ttt_lib[notebooks] @ git+https://github.com/{REPOSITORY}"
"""


def run(*command: str, cwd: Path = ROOT) -> None:
    """Run a command, echoing it; a failure stops the build."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True)


def package_wheel(into: Path) -> Path:
    """Build the ``ttt_lib`` wheel of this checkout (the previous one is replaced)."""
    for old in into.glob("ttt_lib-*.whl"):
        old.unlink()
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(into),
        str(ROOT))
    (wheel,) = into.glob("ttt_lib-*.whl")
    return wheel


def widget_wheels(into: Path) -> list[Path]:
    """The pure-Python wheels of ``BUNDLED`` at the versions installed here (fetched once)."""
    wheels = []
    for name in BUNDLED:
        version = metadata.version(name)
        found = sorted(into.glob(f"{name}-{version}-py3-none-any.whl"))
        if not found:
            run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--only-binary=:all:", "--dest", str(into), f"{name}=={version}")
            found = sorted(into.glob(f"{name}-{version}-py3-none-any.whl"))
        if not found:
            raise SystemExit(f"no pure-Python wheel of {name} {version} was downloaded")
        wheels.append(found[0])
    return wheels


def notebooks() -> list[Path]:
    """Every course notebook, in order."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def build(output: Path) -> None:
    """Build the site into ``output`` (replaced)."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    wheels = [package_wheel(WHEELS), *widget_wheels(WHEELS)]
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    shutil.rmtree(output, ignore_errors=True)
    command = [str(Path(sys.executable).parent / "jupyter"), "lite", "build",
               "--lite-dir", str(WORK), "--output-dir", str(output.resolve())]
    for notebook in notebooks():
        command += ["--contents", str(notebook)]
    for wheel in wheels:
        command += ["--piplite-wheels", str(wheel)]
    run(*command, cwd=WORK)
    shutil.rmtree(WORK, ignore_errors=True)
    print(f"built {output}: {len(notebooks())} notebooks, wheels "
          f"{', '.join(wheel.name for wheel in wheels)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", default=str(ROOT / "build" / "lite"),
                        help="where the site goes (default build/lite)")
    build(Path(parser.parse_args(argv).output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
