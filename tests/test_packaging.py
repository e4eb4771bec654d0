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
    found = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "duel_lessons").rglob("__init__.py")
    }
    missing = found - packages
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"


def test_metadata() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    names = {dep.split(">")[0].split("=")[0].split(";")[0].strip() for dep in project["dependencies"]}
    assert {"numpy", "sympy", "matplotlib", "ipywidgets", "numba"} <= names
    assert any(dep.startswith("matplotlib>=3.10") for dep in project["dependencies"])  # get_figure(root=True)
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"]  # the SPDX licence string
    assert project["classifiers"] and project["keywords"] and project["urls"]
    extras = project["optional-dependencies"]
    assert not any(dep.startswith(("ruff", "mypy")) for dep in extras["test"] + extras["lab"])
    assert any(dep.startswith("voila") for dep in extras["lab"])


def build(kind: str, out: Path) -> Path:
    """Build a wheel or an sdist of a clean copy of the tracked files into out."""
    source = out / "source"
    for name in tracked():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if kind == "wheel":
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)]
    else:
        pytest.importorskip("build", reason="the sdist check needs `build` (in the test extra)")
        command = [sys.executable, "-m", "build", "--sdist", "-o", str(out), str(source)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    (built,) = out.glob("*.whl" if kind == "wheel" else "*.tar.gz")
    return built


def test_wheel_carries_the_lessons_and_copies_both_editions(tmp_path: Path) -> None:
    wheel = build("wheel", tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in tracked("notebooks/*.ipynb", "docs"):
        assert f"duel_lessons/lessons/{name}" in names, f"{name} is not in the wheel"
    assert "duel_lessons/py.typed" in names
    # Installed (without its dependencies, which this environment has) and run from outside any checkout.
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, timeout=300)  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(target)}
    for args in (["lessons", "teacher"], ["lessons", "student", "--student"], ["student-copies", "copies"]):
        run = subprocess.run([sys.executable, "-m", "duel_lessons", *args], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)  # fmt: skip
        assert run.returncode == 0, run.stderr
    answer_key = subprocess.run([sys.executable, "-m", "duel_lessons", "answer-key"], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=300)  # fmt: skip
    assert answer_key.returncode == 0 and answer_key.stdout.startswith("# Answer key"), answer_key.stderr
    assert (tmp_path / "teacher" / "docs" / "answer-key.md").is_file()
    assert not (tmp_path / "student" / "docs" / "answer-key.md").exists()
    lessons = sorted(p.name for p in (tmp_path / "student" / "notebooks").glob("*.ipynb"))
    assert lessons == sorted(Path(name).name for name in tracked("notebooks/*.ipynb"))
    assert sorted(p.name for p in (tmp_path / "copies").glob("*.ipynb")) == lessons


def test_sdist_holds_what_its_tests_need(tmp_path: Path) -> None:
    sdist = build("sdist", tmp_path)
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    missing = [name for name in tracked() if name not in names and name != ".gitignore"]
    assert not missing, f"add to MANIFEST.in: {missing}"


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
