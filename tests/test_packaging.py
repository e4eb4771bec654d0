"""Packaging: what the wheel and the sdist hold, the metadata, and notebooks committed without outputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11 or later")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def tracked(*patterns: str) -> list[str]:
    result = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip("needs a git checkout (git ls-files), as in a clone; an unpacked sdist has none")
    return result.stdout.splitlines()


def test_committed_notebooks_hold_no_outputs() -> None:
    notebooks = tracked("*.ipynb")
    assert any(name.startswith("notebooks/") for name in notebooks)
    dirty = []
    for name in notebooks:
        cells = json.loads((ROOT / name).read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(cells, 1):
            if cell.get("outputs") or cell.get("execution_count") is not None:
                dirty.append(f"{name} cell {number}")
    assert not dirty, f"strip outputs before committing (nbstripout --install does it on git add): {dirty[:10]}"


def test_nbstripout_filter_is_set_up() -> None:
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8")
    assert "*.ipynb filter=nbstripout" in attributes.splitlines()


def test_every_subpackage_is_in_the_wheel() -> None:
    packages = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "duel_lessons").rglob("__init__.py")}
    missing = found - packages
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"


def test_metadata() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    names = {dep.split(">")[0].split("=")[0].split(";")[0].strip() for dep in project["dependencies"]}
    assert {"numpy", "sympy", "matplotlib", "ipywidgets"} <= names
    assert any(dep.startswith("matplotlib>=3.10") for dep in project["dependencies"])  # get_figure(root=True)
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"]  # the SPDX licence string
    assert project["classifiers"] and project["keywords"] and project["urls"]
    extras = project["optional-dependencies"]
    assert not any(dep.startswith(("ruff", "mypy")) for dep in extras["test"] + extras["lab"])
    assert any(dep.startswith("voila") for dep in extras["lab"])
    # The extras match the code: numba only in its extra (the kernel runs without it), nbclient in the
    # test extra (the tests run notebooks with it), psutil only where the bot sandbox can run.
    assert "numba" not in names and any(dep.startswith("numba>=") for dep in extras["numba"])
    assert any(dep.startswith("nbclient>=") for dep in extras["test"])
    (psutil,) = [dep for dep in project["dependencies"] if dep.startswith("psutil")]
    assert "emscripten" in psutil
    assert "numba" in extras["dev"][0]  # the suite runs the compiled kernel too


def build_release(source: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run .ci/build_release.py (what the release workflow runs) in ``source``."""
    pytest.importorskip("build", reason="the release build needs `build` (in the test extra)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, str(source / ".ci" / "build_release.py"), "--out", str(out), *args]
    return subprocess.run(command, cwd=source, env=env, capture_output=True, text=True, timeout=900)


def test_release_holds_no_answers_and_no_leftovers_of_a_working_tree(tmp_path: Path) -> None:
    """The release workflow's build, up to the upload, from a working tree holding numba caches and checkpoints.

    The wheel is what a student's environment installs: the code only (no lesson, teacher note,
    teacher guide or answer key). The sdist holds every tracked file. Neither holds a leftover.
    """
    source = tmp_path / "source"
    for name in tracked():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], cwd=source, check=True)
    subprocess.run([*git, "add", "-A"], cwd=source, check=True)
    # What a working tree holds after running the tests and the lessons, untracked.
    junk = [
        "duel_lessons/solving/__pycache__/kernel._solve-176.py311.nbi",
        "duel_lessons/solving/__pycache__/kernel._solve-176.py311.1.nbc",
        "duel_lessons/solving/__pycache__/kernel.cpython-311.pyc",
        "duel_lessons/__pycache__/__init__.cpython-311.pyc",
        "notebooks/.ipynb_checkpoints/00-start-here-checkpoint.ipynb",
        "duel_lessons/teaching/.ipynb_checkpoints/lesson-checkpoint.py",
    ]
    for name in junk:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_bytes(b"leftover")
    out = tmp_path / "dist"
    built = build_release(source, out, "--tag", f"v{PYPROJECT['project']['version']}")
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = out.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "duel_lessons/teaching/checks/__init__.py" in names
    # The one list of non-code files is pyproject's package-data: each pattern's files on disk are in
    # the wheel (the type marker and the board's front end), and nothing else is.
    declared = {
        path.relative_to(ROOT).as_posix()
        for package, patterns in PYPROJECT["tool"]["setuptools"]["package-data"].items()
        for pattern in patterns
        for path in (ROOT / package.replace(".", "/")).glob(pattern)
    }
    assert {
        "duel_lessons/py.typed",
        "duel_lessons/views/front/board.js",
        "duel_lessons/views/front/board.css",
    } <= declared
    assert declared <= set(names)
    data = [n for n in names if not n.endswith(".py") and ".dist-info/" not in n and n not in declared]
    assert not data, f"the wheel holds more than the code: {data}"
    assert not [n for n in names if "pycache" in n or "checkpoint" in n or "notebooks" in n or "answer" in n]
    (sdist,) = out.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        held = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert not [name for name in junk if name in held]
    missing = [name for name in tracked() if name not in held and name != ".gitignore"]
    assert not missing, f"add to MANIFEST.in: {missing}"
    # A tag that is not the version is refused before anything is built.
    refused = build_release(source, tmp_path / "dist2", "--tag", "v9.9.9")
    assert refused.returncode == 1 and "is not v" in refused.stderr and not (tmp_path / "dist2").exists()


def test_installed_wheel_works_without_a_clone(tmp_path: Path) -> None:
    """Installed from the wheel: rules and solve work; the teacher-edition commands say where the teacher edition is."""
    source = tmp_path / "source"
    for name in tracked():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
                   env=env, check=True, timeout=600)  # fmt: skip
    (wheel,) = tmp_path.glob("*.whl")
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, timeout=300)  # fmt: skip
    assert not list(target.rglob("*.ipynb")) and not list(target.rglob("*.md"))
    env = {**env, "PYTHONPATH": str(target)}
    work = tmp_path / "work"
    work.mkdir()
    run = subprocess.run([sys.executable, "-m", "duel_lessons", "rules", "divisor-duel"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0 and "Divisor Duel" in run.stdout, run.stderr
    for args in (["answer-key"], ["lessons", "teacher"], ["student-copies", "copies"]):
        run = subprocess.run([sys.executable, "-m", "duel_lessons", *args], cwd=work, env=env,
                             capture_output=True, text=True, timeout=300)  # fmt: skip
        assert run.returncode == 2 and run.stdout == "" and "git clone" in run.stderr, (args, run.stderr)
    assert not list(work.iterdir())


def test_readme_has_two_set_up_commands_from_a_fresh_clone() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    set_up = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    block = set_up.split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 2, commands
    for command in commands:
        assert "git clone" in command and "-m venv .venv" in command and "pip install -e" in command
    assert "jupyter lab" in commands[0] and "notebooks/00-start-here.ipynb" in commands[0]
    assert "jupyter lab notebooks" not in commands[0]  # the root stays the repository, so docs/ is reachable
    assert commands[1].endswith("python -m pytest")
    assert "voila notebooks/play.ipynb" in set_up
