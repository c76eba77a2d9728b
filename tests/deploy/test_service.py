"""``deploy/omaha-dealer.service`` and the README's steps that install it agree.

The unit runs ``python -m bot`` from the virtual environment the README makes, as the
user it creates, with the settings file it installs; the only path the unit lets the
bot write holds every file the bot writes with those settings (database, deck key,
backups), whether the database path is the README's absolute one or ``.env.example``'s
relative default; the command-line tools the README runs reach the same files; the
unit gives up restarting exactly on the exit statuses the README says a restart cannot
fix; and systemd itself accepts the unit (``systemd-analyze``, where installed).
"""

from __future__ import annotations

import posixpath
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.adapter.login_errors import EXIT_SETTINGS, EXIT_TOKEN_REFUSED, EXIT_UNREACHABLE
from bot.settings import Settings, parse_env_file
from tests.fakediscord.process import REPO

UNIT_PATH = REPO / "deploy" / "omaha-dealer.service"
UNIT_TEXT = UNIT_PATH.read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")
ENV_EXAMPLE = (REPO / ".env.example").read_text(encoding="utf-8")


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's ``[Section]`` -> key -> values (a key may be given several times)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not key=value: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


SERVICE = parse_unit(UNIT_TEXT)["Service"]


def one(key: str) -> str:
    (value,) = SERVICE[key]
    return value


def steps() -> list[list[str]]:
    """The commands of the README's service section, as words."""
    start = README.index("\n## Running it as a service (systemd)\n")
    text = README[start:README.index("\n## ", start + 1)]
    return [shlex.split(line) for line in re.findall(r"^ {4}(\S.*)$", text, re.M)]


def step(*prefix: str) -> list[str]:
    """The README's step whose words start with ``prefix``."""
    found = [words for words in steps() if words[:len(prefix)] == list(prefix)]
    assert len(found) == 1, (prefix, steps())
    return found[0]


def option(words: list[str], name: str) -> str:
    return words[words.index(name) + 1]


def inside(path: str, folder: str) -> bool:
    path, folder = posixpath.normpath(path), posixpath.normpath(folder)
    return path == folder or path.startswith(folder + "/")


def venv() -> str:
    """The virtual environment the README makes."""
    return step("python3", "-m", "venv")[3]


def settings_file() -> str:
    """Where the README installs .env.example as the service's settings."""
    words = step("install", "-m", "0640")
    assert words[-2] == ".env.example"
    return words[-1]


def database_path() -> str:
    (words,) = [w for w in steps() if len(w) == 1 and w[0].startswith("DATABASE_PATH=")]
    return words[0].partition("=")[2]


def writable() -> list[str]:
    """What ``ProtectSystem=strict`` leaves writable: the state and the listed paths."""
    assert one("ProtectSystem") == "strict"
    places = [f"/var/lib/{name}" for name in one("StateDirectory").split()]
    for value in SERVICE.get("ReadWritePaths", []):
        places += value.split()
    return places


def test_the_unit_runs_the_bot_from_the_venv_the_readme_makes() -> None:
    python, flag, module = shlex.split(one("ExecStart"))
    assert (python, flag) == (f"{venv()}/bin/python", "-m")
    assert step(f"{venv()}/bin/pip", "install") == [f"{venv()}/bin/pip", "install", "."]
    # `python -m bot` (no command: the bot; tests/test_process_start.py runs exactly that)
    # from the package pip installs, whose `omaha-dealer` script the README's tools use.
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert module == "bot" and (REPO / module / "__main__.py").is_file()
    assert "bot*" in project["tool"]["setuptools"]["packages"]["find"]["include"]
    assert project["project"]["scripts"]["omaha-dealer"] == "bot.__main__:main"
    # The user the README creates runs it, and owns the settings' group.
    useradd = step("useradd")
    user = useradd[-1]
    assert one("User") == one("Group") == user
    assert option(step("install", "-d"), "-g") == option(step("install", "-m", "0640"), "-g")
    assert option(step("install", "-d"), "-g") == user
    assert one("EnvironmentFile") == settings_file()
    # The unit file the README installs is this one, enabled by its name.
    assert step("install", "-m", "0644")[-2:] == [
        str(UNIT_PATH.relative_to(REPO)), "/etc/systemd/system/"]
    assert step("systemctl", "enable")[-1] == UNIT_PATH.stem
    assert one("Restart") == "on-failure" and one("NoNewPrivileges") == "yes"


def test_the_bot_writes_only_where_the_unit_lets_it() -> None:
    places = writable()
    home = option(step("useradd"), "--home-dir")
    workdir = one("WorkingDirectory")
    assert workdir == home and any(inside(workdir, p) for p in places)
    # The settings file is outside them: the bot cannot rewrite its own token.
    assert not any(inside(settings_file(), p) for p in places)
    example = parse_env_file(ENV_EXAMPLE)
    for database in (database_path(), example["DATABASE_PATH"]):
        settings = Settings.from_mapping({**example, "DATABASE_PATH": database,
                                          "DISCORD_TOKEN": "t"})
        key = settings.key_path
        assert key is not None
        for written in (settings.database_path, key, settings.backup_folder):
            absolute = posixpath.join(workdir, written)  # relative: from WorkingDirectory
            assert any(inside(absolute, p) for p in places), written
        # .env.example's relative default and the README's full path are one file.
        assert posixpath.join(workdir, settings.database_path) == database_path()
    # The README's tools run as that user, on that database, with those settings.
    user, tools = one("User"), f"{venv()}/bin/omaha-dealer"
    audit = step("sudo", "-u", user, tools, "audit")
    assert option(audit, "--db") == database_path()
    backup = step("sudo", "-u", user, tools, "backup")
    assert option(backup, "--db") == database_path()
    assert any(inside(backup[5], p) for p in places)
    assert option(step("sudo", "-u", user, tools, "sync"), "--env-file") == settings_file()


def test_the_settings_file_reads_the_same_to_systemd_and_the_bot() -> None:
    """systemd's EnvironmentFile takes a value verbatim (no quotes, no inline comment
    removed): every line of .env.example is one the bot's parser reads the same."""
    parsed = parse_env_file(ENV_EXAMPLE)
    for line in ENV_EXAMPLE.splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            assert parsed[key] == value and not re.search(r"[\s'\"\\$]", value), line


def test_restarts_only_what_a_restart_can_fix() -> None:
    """RestartPreventExitStatus is the code's statuses for settings and a refused token,
    and the README's table says for each status what the unit does."""
    prevented = {int(s) for s in one("RestartPreventExitStatus").split()}
    assert prevented == {EXIT_SETTINGS, EXIT_TOKEN_REFUSED}
    rows = re.findall(r"^\| (\d) \| (.+) \| (.+) \|$", README, re.M)
    assert {int(n) for n, _, _ in rows} == {0, 1, EXIT_SETTINGS, EXIT_TOKEN_REFUSED,
                                            EXIT_UNREACHABLE}
    pause = one("RestartSec")
    for number, _, unit in rows:
        stays = int(number) in prevented or number == "0"
        assert unit == ("stays stopped" if stays else f"restarts in {pause} s"), number


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify`` finds nothing to say (an unknown or misspelt key, a bad
    value); the venv's python is this one here, as the README's does not exist."""
    unit = tmp_path / UNIT_PATH.name
    unit.write_text(UNIT_TEXT.replace(f"{venv()}/bin/python", sys.executable))
    verify = subprocess.run(["systemd-analyze", "verify", str(unit)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert verify.returncode == 0 and verify.stdout + verify.stderr == "", verify
