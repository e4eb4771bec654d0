"""Binder's base environment, and the teacher edition's binder/ beside the student branch's.

mybinder.org (repo2docker) starts from its own Python 3.11 base environment, which already holds
jupyterlab, notebook, ipywidgets and more, installs binder/requirements.txt on top and runs
binder/postBuild. tests/repo2docker-base-py3.11.txt is that base environment as pip requirements
(the Python packages of repo2docker's own lock file, pinned).

The simulated Binder build itself is in ``.ci/publish_student.py`` (run by tests/test_publish.py):
it builds the **student branch's** environment on that base, checks ``pip check``, the size and
that nothing installed holds an answer, and runs every student lesson in it; the test then adds
the teacher edition's only other pin (Voila) and runs ``pip check`` again. This file checks that
main's ``binder/`` (the teacher edition's environment) and the student branch's agree.

Refresh the base environment from a newer repo2docker lock file::

    python tests/test_binder.py PATH/TO/environment.py-3.11-linux-64.lock COMMIT > tests/repo2docker-base-py3.11.txt
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "tests" / "repo2docker-base-py3.11.txt"

#: conda-forge names whose PyPI name differs.
PYPI_NAMES = {
    "brotli-python": "brotli",
    "python-fastjsonschema": "fastjsonschema",
    "jupyterhub-base": "jupyterhub",
    "nbconvert-core": "nbconvert",
}

def base_requirements(lock: str, source: str) -> str:
    """pip requirements for the Python packages of a conda-lock file (the ``pyh*``/``py311`` builds), with a header."""
    pins = {}
    for match in re.finditer(r"/([^/\s]+)-([^-/\s]+)-((?:pyh|py311)[^-/#\s]*)\.(?:conda|tar\.bz2)#", lock):
        name = PYPI_NAMES.get(match.group(1), match.group(1)).replace("_", "-").lower()
        if name != "pip":
            pins[name] = match.group(2)
    header = [
        "# repo2docker's Python 3.11 base environment (what mybinder.org has before binder/requirements.txt),",
        "# as pip requirements: the Python packages of",
        f"# {source}",
        "# (conda names mapped to PyPI names: " + ", ".join(f"{a} -> {b}" for a, b in PYPI_NAMES.items()) + ").",
        "# Made by tests/test_binder.py, which installs it, then binder/requirements.txt, then runs pip check.",
    ]
    return "\n".join(header + [f"{name}=={version}" for name, version in sorted(pins.items())]) + "\n"


def test_base_environment_file_is_current() -> None:
    """The base environment file names the repo2docker lock it came from, and pins Binder's jupyterlab and notebook."""
    text = BASE.read_text(encoding="utf-8")
    assert "repo2docker/blob/" in text and "environment.py-3.11-linux-64.lock" in text
    pins = dict(line.split("==") for line in text.splitlines() if line and not line.startswith("#"))
    assert {"jupyterlab", "notebook", "ipywidgets", "jupyter-server"} <= pins.keys()


def test_the_student_environment_is_the_teachers_less_numba_and_voila() -> None:
    """The student branch's pins are main's, less numba, llvmlite and Voila: one set of pins, tested together."""
    from duel_lessons.teaching.editions import NOT_FOR_STUDENTS, student_requirements

    teacher = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8")
    student = student_requirements(teacher, "duel-lessons @ git+https://github.com/a/b@0123")

    def pins(text: str) -> dict[str, str]:
        return dict(line.split("==") for line in text.splitlines() if "==" in line and not line.startswith("#"))

    assert pins(teacher).keys() - pins(student).keys() == {"voila"} & set(NOT_FOR_STUDENTS)
    assert all(pins(student)[name] == version for name, version in pins(teacher).items() if name != "voila")
    assert "numba" not in pins(teacher)  # the teacher environment leaves the extra out too
    assert student.splitlines()[-1] == "duel-lessons @ git+https://github.com/a/b@0123"
    post_build = (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")
    assert "pip install --no-deps" in post_build and "duel_lessons.warm" in post_build


if __name__ == "__main__":
    lock_path, commit = sys.argv[1], sys.argv[2]
    source = (
        f"https://github.com/jupyterhub/repo2docker/blob/{commit}/repo2docker/buildpacks/conda/{Path(lock_path).name}"
    )
    sys.stdout.write(base_requirements(Path(lock_path).read_text(encoding="utf-8"), source))
