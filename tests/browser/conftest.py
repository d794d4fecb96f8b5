"""The browser test's fixtures: a JupyterLab server on loopback and Debian's chromium."""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from _processes import descendants, end

HERE = Path(__file__).parent
NOTEBOOK = HERE / "widgets_demo.ipynb"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
START_TIMEOUT = 60  # seconds for JupyterLab to answer

# The demo notebook is opened by the browser test, not compared by nbval.
collect_ignore_glob = ["*.ipynb"]


@dataclass
class Lab:
    url: str      # http://127.0.0.1:PORT
    token: str
    root: Path    # the folder the server shows, holding a copy of the demo notebook
    log: Path

    def notebook_url(self, name: str = NOTEBOOK.name, workspace: str | None = None) -> str:
        """The notebook in JupyterLab; in a ``workspace`` of that name (a new one opens no
        other notebook) when one is given."""
        where = f"workspaces/{workspace}/" if workspace else ""
        return f"{self.url}/lab/{where}tree/{name}?token={self.token}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _jupyter() -> list[str]:
    script = Path(sys.executable).parent / "jupyter"
    return [str(script)] if script.exists() else [sys.executable, "-m", "jupyter"]


def _answers(url: str, token: str) -> bool:
    request = urllib.request.Request(f"{url}/api/status",
                                     headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _tail(path: Path, lines: int = 40) -> str:
    text = path.read_text(errors="replace") if path.exists() else "(no log)"
    return "\n".join(text.splitlines()[-lines:])


@pytest.fixture(scope="session")
def chromium_launch() -> dict:
    """Playwright's launch options for Debian's chromium; a missing browser is a failure
    (never a skip), in CI and outside it."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        where = " (CI is set: the browser is required)" if os.environ.get("CI") else ""
        pytest.fail(f"chromium is missing at {CHROMIUM}{where}. The widget test drives Debian's "
                    f"chromium: run `make chromium` (apt-get install chromium) or point the "
                    f"CHROMIUM environment variable at it; Playwright's own browser download "
                    f"does not work here.", pytrace=False)
    return {"executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS}


@pytest.fixture
def lab(tmp_path: Path):
    """JupyterLab on 127.0.0.1, a random free port and a token, serving a temporary folder
    with a copy of the demo notebook; always shut down afterwards."""
    with running_lab(tmp_path) as server:
        yield server


@pytest.fixture(scope="module")
def module_lab(tmp_path_factory):
    """One JupyterLab for a module's tests (a server costs seconds of CPU to start), drawing
    every cell of a notebook, not only those scrolled to; each test's kernels are shut down
    when it ends (``end_sessions``)."""
    every_cell = {"@jupyterlab/notebook-extension/tracker": '{"windowingMode": "none"}'}
    with running_lab(tmp_path_factory.mktemp("module-lab"), every_cell) as server:
        yield server


@pytest.fixture
def shared_lab(module_lab):
    """``module_lab`` for one test: the kernels of the notebooks it opened end with it."""
    yield module_lab
    end_sessions(module_lab)


@contextlib.contextmanager
def running_lab(folder: Path, settings: dict[str, str] | None = None):
    """The server of ``lab``, with its folders in ``folder`` and the user ``settings`` given
    (plugin id -> JSON text) written before it starts."""
    root, state = folder / "lab", folder / "jupyter-state"
    root.mkdir()
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    for name, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                      ("IPYTHONDIR", "ipython"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                      ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"), ("MPLCONFIGDIR", "mpl")):
        env[name] = str(state / sub)
    _quiet_settings(state / "settings")
    for plugin, text in (settings or {}).items():
        extension, name = plugin.rsplit("/", 1)
        (state / "settings" / extension).mkdir(parents=True, exist_ok=True)
        (state / "settings" / extension / f"{name}.jupyterlab-settings").write_text(text)
    log = folder / "jupyterlab.log"
    command = _jupyter() + [
        "lab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly"]
    if os.geteuid() == 0:  # course machines and CI containers run as root
        command.append("--allow-root")
    with open(log, "wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                  cwd=root, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _answers(url, token):
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited with status {server.returncode}:\n{_tail(log)}")
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT} s:\n{_tail(log)}")
            time.sleep(0.3)
        yield Lab(url, token, root, log)
    finally:
        _shut_down(server, url, token)


def end_sessions(lab: Lab) -> None:
    """Shut down every kernel session of ``lab`` (the notebooks a test opened)."""
    headers = {"Authorization": f"token {lab.token}"}
    with urllib.request.urlopen(urllib.request.Request(
            f"{lab.url}/api/sessions", headers=headers), timeout=10) as response:
        sessions = json.load(response)
    for session in sessions:
        urllib.request.urlopen(urllib.request.Request(
            f"{lab.url}/api/sessions/{session['id']}", method="DELETE", headers=headers),
            timeout=30).close()


def _quiet_settings(folder: Path) -> None:
    """User settings that keep JupyterLab from asking about news (a toast over the page)."""
    settings = folder / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')


def _shut_down(server: subprocess.Popen, url: str, token: str) -> None:
    """Ask the server to stop (it stops its kernels), then end whatever of it is left: the
    server's own process group and its kernels (each in a session of its own)."""
    tree = descendants(server.pid) + [server.pid]  # listed first: orphans go to init
    if server.poll() is None:
        request = urllib.request.Request(f"{url}/api/shutdown", method="POST",
                                         headers={"Authorization": f"token {token}"})
        try:
            urllib.request.urlopen(request, timeout=5).close()
        except (urllib.error.URLError, OSError):
            pass
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        pass
    end(tree)
    server.wait(timeout=5)
