#!/usr/bin/env python3
"""Build the release (wheel and sdist) into ``dist/`` and check them: what the release workflow uploads.

``.github/workflows/release.yml`` runs this on a version tag (``v0.1.0``) and then publishes
``dist/`` to PyPI with trusted publishing; ``tests/test_packaging.py`` runs the same script
on a copy of the repository, up to the upload. Checks:

* the tag, when given, is ``v`` + the version in pyproject.toml;
* the wheel holds the code and ``py.typed`` only: no notebook, document, answer key or teacher
  guide (a student's environment installs it), and nothing a working tree holds beside the
  code (numba's ``*.nbi``/``*.nbc`` caches, ``__pycache__``, ``.ipynb_checkpoints``);
* the sdist holds every tracked file (its tests need them) and none of those leftovers.

Usage: ``python .ci/build_release.py [--tag v0.1.0] [--out dist]`` (needs ``build``).
"""

from __future__ import annotations

import argparse
import fnmatch
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]


def package_data() -> list[str]:
    """The wheel's files besides Python modules, as glob patterns: pyproject's package-data, the one list."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return [
        f"{package.replace('.', '/')}/{pattern}"
        for package, patterns in declared.get("package-data", {}).items()
        for pattern in patterns
    ]

#: Parts of a path that no release file may have: build leftovers of a working tree.
LEFTOVERS = ("__pycache__", ".ipynb_checkpoints")
LEFTOVER_SUFFIXES = (".pyc", ".pyo", ".nbi", ".nbc")


class ReleaseError(Exception):
    """The release is not fit to upload."""


def leftovers(names: list[str]) -> list[str]:
    return [n for n in names if any(part in LEFTOVERS for part in n.split("/")) or n.endswith(LEFTOVER_SUFFIXES)]


def check_wheel(wheel: Path) -> list[str]:
    names = zipfile.ZipFile(wheel).namelist()
    package = [n for n in names if not n.split("/")[0].endswith(".dist-info")]
    allowed = package_data()
    other = [n for n in package if not n.endswith(".py") and not any(fnmatch.fnmatchcase(n, p) for p in allowed)]
    if other or leftovers(names):
        raise ReleaseError(f"the wheel holds more than the code: {(other + leftovers(names))[:10]}")
    if not any(n == "duel_lessons/teaching/checks/__init__.py" for n in package):
        raise ReleaseError("the wheel lacks duel_lessons.teaching.checks")
    return names


def check_sdist(sdist: Path) -> list[str]:
    with tarfile.open(sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    if leftovers(names):
        raise ReleaseError(f"the sdist holds build leftovers: {leftovers(names)[:10]}")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:  # in a checkout (an unpacked sdist has no git)
        missing = [n for n in tracked.stdout.splitlines() if n not in names and n != ".gitignore"]
        if missing:
            raise ReleaseError(f"add to MANIFEST.in: {missing[:10]}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tag", help="the version tag being released, e.g. v0.1.0 (checked against pyproject.toml)")
    parser.add_argument("--out", default=str(ROOT / "dist"), help="where to write the wheel and sdist (default: dist)")
    args = parser.parse_args(argv)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    if args.tag is not None and args.tag != f"v{version}":
        raise ReleaseError(f"the tag {args.tag} is not v{version}, the version in pyproject.toml")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise ReleaseError(f"{out} is not empty: the release would upload old files too")
    # The sdist first, then the wheel built from the sdist (as pip builds it from the index).
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True,
                           text=True)  # fmt: skip
    if built.returncode != 0:
        raise ReleaseError(f"python -m build failed:\n{built.stdout[-3000:]}{built.stderr[-3000:]}")
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    wheel_names, sdist_names = check_wheel(wheel), check_sdist(sdist)
    print(f"{wheel.name}: {len(wheel_names)} files, code only ({wheel.stat().st_size / 1e3:.0f} kB)")
    print(f"{sdist.name}: {len(sdist_names)} files, every tracked file ({sdist.stat().st_size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ReleaseError as error:
        print(f"build_release: {error}", file=sys.stderr)
        sys.exit(1)
