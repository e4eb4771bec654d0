"""The editions of the lessons: the teacher edition, the student edition, a student repository and the student branch.

The **teacher edition** (lessons with model solutions and teacher notes, the
teacher guide, the answer key) is *not* installed with the package, so that an
environment built for students holds no answers.  It lives in the repository:
a clone, or its archive unpacked.  :func:`lesson_files` finds it: the folder
given, else the checkout this package was installed from (``pip install -e``),
else the current folder when it holds ``notebooks/`` and ``docs/``.  With none
of these the commands say what they need (:data:`NO_TEACHER_EDITION`).

* The **student edition** holds student copies of the lessons (made by
  :func:`duel_lessons.teaching.student_copies.write_student_copies`) and the rule
  books, and nothing else: no teacher guide, no answer key, no authoring notes.
* A **student repository** (:func:`write_student_repo`) is the student edition
  plus a short README: a content repository that students open with one
  nbgitpuller link (:func:`binder_link`), the environment built from this
  project's ``student`` branch (which holds no teacher file either).
* The **student branch** (:func:`write_student_branch`) is self-contained: the
  student copies at the top, the rule books, a README and its own ``binder/``
  that installs the package pinned to one commit, so that its Binder
  environment changes only when the lessons are published.  The workflow
  ``.github/workflows/student.yml`` makes it on every push to main
  (``.ci/publish_student.py``).

Nothing here overwrites a file: copying into a folder that already holds any of
the files to be written is refused, naming them, before anything is written.

>>> link = binder_link("https://github.com/my-school/duel-class", branch="main")
>>> link.startswith("https://mybinder.org/v2/gh/duel-lessons/duel-lessons/student?urlpath=git-pull%3Frepo%3D")
True
>>> "duel-class%252Fnotebooks%252F00-start-here.ipynb" in link
True
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from duel_lessons.engine.errors import DuelError

#: Where this project lives.
PROJECT_REPO = "duel-lessons/duel-lessons"
PROJECT_URL = f"https://github.com/{PROJECT_REPO}"
#: The branch of this project that holds its own student edition (made by the student workflow).
STUDENT_BRANCH = "student"
#: The Binder ref the environment of every nbgitpuller link is built from: the student branch,
#: whose home folder holds only the student edition (never the teacher's notebooks).
ENVIRONMENT_REF = STUDENT_BRANCH
#: The first lesson: where every link opens.
FIRST_LESSON = "00-start-here.ipynb"

#: Documents in the student edition (paths under ``docs/``): the rule books and the project's rulings,
#: which the student lessons themselves cite. The teacher guide, answer key and authoring guide stay out.
STUDENT_DOCS = ("rulebooks",)

#: What the teacher-edition commands say when they find no teacher edition.
NO_TEACHER_EDITION = (
    "The teacher edition (lessons with solutions, the teacher guide and the answer key) is not installed "
    "with duel-lessons, so that a student's environment holds no answers. It is in the repository: "
    f"git clone {PROJECT_URL} (or download and unpack {PROJECT_URL}/archive/refs/heads/main.zip), "
    "then run this command inside that folder, or name the folder"
)


class EditionError(DuelError):
    """An edition cannot be written (files in the way, or no lessons to copy)."""


def _is_lesson_folder(root: Path) -> bool:
    return (root / "notebooks").is_dir() and (root / "docs").is_dir() and any((root / "notebooks").glob("*.ipynb"))


def lesson_files(source: Path | str | None = None, how: str = "with --from FOLDER") -> Path:
    """The folder holding the teacher edition's ``notebooks/`` and ``docs/``.

    ``source`` if given; else the repository checkout this package runs from
    (an editable install); else the current folder if it holds ``notebooks/``
    and ``docs/``.  Otherwise :class:`EditionError` saying where to get the
    teacher edition (``how`` names the argument that gives the folder).
    """
    if source is not None:
        root = Path(source)
        if not (root / "notebooks").is_dir():
            raise EditionError(f"{root} has no notebooks/ folder: give the folder that holds notebooks/ and docs/.")
        if not (root / "docs").is_dir():
            raise EditionError(f"{root} has no docs/ folder (the rule books): give a clone of the repository.")
        return root
    checkout = Path(__file__).resolve().parents[2]
    for root in (checkout, Path.cwd()):
        if _is_lesson_folder(root) and (root is not checkout or (root / "pyproject.toml").is_file()):
            return root
    raise EditionError(f"{NO_TEACHER_EDITION} {how}.")


def teacher_notebooks(how: str = "as SRC") -> Path:
    """The teacher edition's ``notebooks/`` folder (see :func:`lesson_files`)."""
    return lesson_files(how=how) / "notebooks"


def _walk(folder: Path, prefix: str = "") -> Iterator[tuple[str, Path]]:
    """Every file under folder as (relative posix path, file), sorted, skipping caches and checkpoints."""
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            yield from _walk(entry, name + "/")
        else:
            yield name, entry


def _source(source: Path | str | None) -> Path:
    """The lessons to copy: ``source`` (a folder holding ``notebooks/`` and ``docs/``), or the teacher edition found."""
    return lesson_files(source)


def edition_files(student: bool = False, source: Path | str | None = None) -> list[str]:
    """The relative paths an edition holds (lessons are ``notebooks/*.ipynb``, each with its ``.lesson.toml``).

    >>> "docs/answer-key.md" in edition_files(), "docs/answer-key.md" in edition_files(student=True)  # in a clone
    (True, False)
    """
    root = _source(source)
    names = [
        f"notebooks/{name}"
        for name, _ in _walk(root / "notebooks")
        if name.endswith(".ipynb") or name.endswith(".lesson.toml")  # a lesson and its declared exercises
    ]
    for name, _ in _walk(root / "docs"):
        if not student or name.split("/", 1)[0] in STUDENT_DOCS:
            names.append(f"docs/{name}")
    return names


def _refuse_existing(dest: Path, names: list[str]) -> None:
    taken = [name for name in names if (dest / name).exists()]
    if taken:
        shown = ", ".join(taken[:5]) + (f" and {len(taken) - 5} more" if len(taken) > 5 else "")
        raise EditionError(
            f"Refusing to overwrite files in {dest}: {shown} already exist. "
            "Choose a new folder, or move those files away first."
        )


def _stage(staging: Path, student: bool, source: Path | str | None, lessons_at: str = "notebooks") -> list[str]:
    """Write an edition into the empty folder staging; return the relative paths written.

    ``lessons_at`` is the folder the lessons go to (``""``: the top of the edition).
    """
    from duel_lessons.teaching.student_copies import write_student_copies  # reads notebooks: nbformat, on demand

    root = _source(source)
    names = edition_files(student, source)
    for name in names:
        if student and name.startswith("notebooks/"):
            continue  # written below, as student copies (into a folder that does not exist yet)
        target = staging / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(root.joinpath(*name.split("/")).read_bytes())
    if student:
        write_student_copies(root / "notebooks", staging / lessons_at if lessons_at else staging)
    return [_moved(name, lessons_at) for name in names]


def _moved(name: str, lessons_at: str) -> str:
    """Where an edition's file ``name`` goes when the lessons are at ``lessons_at``."""
    if name.startswith("notebooks/") and lessons_at != "notebooks":
        return f"{lessons_at}/{name[10:]}" if lessons_at else name[10:]
    return name


def _place(staging: Path, dest: Path, names: list[str]) -> list[Path]:
    """Move the staged files into dest (refusing, before moving any, if one exists)."""
    _refuse_existing(dest, names)
    written = []
    for name in names:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / name, target)  # same file system: staging sits inside dest's parent
        written.append(target)
    return written


def _write(
    dest: Path | str,
    student: bool,
    source: Path | str | None = None,
    extra: dict[str, str] | None = None,
    lessons_at: str = "notebooks",
) -> list[Path]:
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise EditionError(f"{dest} is a file, not a folder.")
    names = [_moved(name, lessons_at) for name in edition_files(student, source)] + sorted(extra or {})
    _refuse_existing(dest, names)
    parent = dest.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{dest.resolve().name}-staging-", dir=parent) as staging_name:
        staging = Path(staging_name)
        _stage(staging, student, source, lessons_at)
        for name, text in (extra or {}).items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_text(text, encoding="utf-8")
        return _place(staging, dest, names)


def write_edition(dest: Path | str, student: bool = False, source: Path | str | None = None) -> list[Path]:
    """Copy the teacher edition (or, with ``student=True``, the student edition) into ``dest``.

    The lessons come from ``source`` (a folder holding ``notebooks/`` and
    ``docs/``), or from the teacher edition :func:`lesson_files` finds.  ``dest`` may exist, but none of the files to
    be written may.  Returns the paths written: ``notebooks/*.ipynb`` and ``docs/...``.
    """
    return _write(dest, student, source)


# -- the student repository and its link -----------------------------------------------------


def repo_dir_name(url: str) -> str:
    """The folder nbgitpuller clones a repository into: the last part of its URL, without ``.git``.

    >>> repo_dir_name("https://github.com/my-school/duel-class.git")
    'duel-class'
    """
    name = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
    return name.removesuffix(".git") or "content"


def check_repo_url(url: str) -> str:
    """The URL if it is an https (or http) repository address; otherwise EditionError."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # such as an unclosed IPv6 address, 'http://[::1'
        parts = urlsplit("")
    if parts.scheme not in ("https", "http") or not parts.netloc or not parts.path.strip("/"):
        raise EditionError(f"{url!r} is not a repository address such as https://github.com/my-school/duel-class.")
    return url.strip()


def pull_path(url: str, branch: str, lesson: str = FIRST_LESSON, app: str = "lab") -> str:
    """The nbgitpuller path ``git-pull?repo=...&branch=...&urlpath=...`` that opens ``lesson`` after pulling.

    >>> pull_path("https://github.com/a/b", "main")
    'git-pull?repo=https%3A%2F%2Fgithub.com%2Fa%2Fb&branch=main&urlpath=lab%2Ftree%2Fb%2Fnotebooks%2F00-start-here.ipynb'
    """
    repo = check_repo_url(url)  # first: a malformed address is an EditionError, never a ValueError below
    opened = f"{app}/tree/{repo_dir_name(repo)}/notebooks/{lesson}"
    return "git-pull?" + urlencode({"repo": repo, "branch": branch, "urlpath": opened})


def binder_link(
    url: str,
    branch: str = "main",
    environment: str = PROJECT_REPO,
    ref: str = ENVIRONMENT_REF,
    lesson: str = FIRST_LESSON,
) -> str:
    """A mybinder.org link: the environment built from ``environment`` at ``ref``, the lessons pulled from ``url``.

    Editing the content repository never rebuilds the environment; nbgitpuller
    merges new commits into a student's copy without overwriting their changes.
    """
    return f"https://mybinder.org/v2/gh/{environment}/{ref}?urlpath=" + quote(pull_path(url, branch, lesson), safe="")


def hub_link(hub: str, url: str, branch: str = "main", lesson: str = FIRST_LESSON) -> str:
    """The same pull on a JupyterHub of your own (with nbgitpuller and duel-lessons installed).

    >>> hub_link("https://hub.my-school.org/", "https://github.com/a/b")[:48]
    'https://hub.my-school.org/hub/user-redirect/git-'
    """
    return f"{hub.rstrip('/')}/hub/user-redirect/{pull_path(url, branch, lesson)}"


def _lesson_titles(source: Path | str | None = None) -> list[tuple[str, str]]:
    """(file name, title) of each numbered lesson: its first ``# `` heading."""
    titles = []
    root = _source(source) / "notebooks"
    for name, entry in _walk(root):
        if not name[:2].isdigit() or not name.endswith(".ipynb"):
            continue
        title = name.removesuffix(".ipynb")
        for cell in json.loads(entry.read_text(encoding="utf-8")).get("cells", []):
            text = "".join(cell.get("source", []))
            heading = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), None)
            if cell.get("cell_type") == "markdown" and heading:
                title = heading
                break
        titles.append((name, title))
    return titles


def student_readme(
    link: str | None = None,
    source: Path | str | None = None,
    lessons_at: str = "notebooks",
    made_by: str = "student-repo",
) -> str:
    """The README of a student repository or branch (with its Binder link, when known)."""
    folder = f"{lessons_at}/" if lessons_at else ""
    lines = ["# Divisor Duel and its cousins: lessons", ""]
    if link:
        lines += [f"[![Open the lessons on Binder](https://mybinder.org/badge_logo.svg)]({link})", ""]
    lines += [
        "Jupyter lessons on two-player number games: play, collect data, make a conjecture, prove it.",
        "",
        "**Start here:** open the link above (or the link your teacher gave you), wait for the lessons",
        f"to load, and open `{folder}{FIRST_LESSON}`. Run a cell with Shift+Enter.",
        "",
        "- Each lesson ends with exercises that check your answer when you run them.",
        "- The rule books are in `docs/rulebooks/`.",
        "- **Save your work.** A Binder session is deleted after about ten minutes without use:",
        "  download your notebooks (File → Download) before you leave. Opening the link again",
        "  brings back your files only on a school JupyterHub, not on mybinder.org.",
    ]
    if made_by == "student-repo":
        lines += [
            "- When your teacher changes a lesson, opening the link again merges the change into your",
            "  copy; your own edits are kept.",
        ]
    lines += ["", "| lesson | title |", "|---|---|"]
    lines += [f"| [`{name}`]({folder}{name}) | {title} |" for name, title in _lesson_titles(source)]
    lines += [
        "",
        f"Made by `duel-lessons {made_by}` from [duel-lessons](" + PROJECT_URL + "): student copies of the",
        "lessons (no solutions or teacher notes) and the rule books. The software is MIT-licensed.",
    ]
    return "\n".join(lines) + "\n"


def write_student_repo(
    dest: Path | str, url: str | None = None, branch: str = "main", source: Path | str | None = None
) -> tuple[list[Path], str | None]:
    """Write a student content repository into ``dest``; return the paths written and its Binder link.

    The lessons come from ``source`` (a teacher's adapted copy: a folder holding
    ``notebooks/`` and ``docs/``) or from the teacher edition :func:`lesson_files`
    finds.  Without ``url`` the README has no link (``student-repo`` then shows
    the link of this project's own student edition as an example).
    """
    link = binder_link(url, branch) if url else None
    written = _write(dest, student=True, source=source, extra={"README.md": student_readme(link, source)})
    return written, link


# -- the student branch: self-contained, with its own binder/ ---------------------------------

#: Packages of the teacher's binder/requirements.txt that the student environment leaves out:
#: numba and its compiler (an optional extra: the lessons stay quick without it) and Voila (the
#: game app opens from the teacher's environment).
NOT_FOR_STUDENTS = ("numba", "llvmlite", "voila")

STUDENT_POSTBUILD = """#!/bin/bash
# repo2docker runs this after installing requirements.txt (which installs duel-lessons itself,
# pinned to the commit these lessons were published from).
set -euo pipefail
# Unused by the lessons and heavy: the test suites inside sympy's and numpy's packages
# (about 70 MB; the packages themselves are untouched, and pip check stays clean).
python - <<'PY'
import pathlib, shutil, sympy, numpy
for package in (sympy, numpy):
    for tests in sorted(pathlib.Path(package.__file__).parent.rglob("tests")):
        if tests.is_dir() and (tests / "__init__.py").exists():
            shutil.rmtree(tests)
PY
# matplotlib's font cache, so a student's first plot is quick.
(cd / && python -m duel_lessons.warm)
"""


def student_binder_link(repo: str = PROJECT_REPO, branch: str = STUDENT_BRANCH, lesson: str = FIRST_LESSON) -> str:
    """The Binder link of a self-contained student branch: environment and lessons both from ``repo``@``branch``.

    >>> student_binder_link("my-school/duel-lessons")
    'https://mybinder.org/v2/gh/my-school/duel-lessons/student?urlpath=lab/tree/00-start-here.ipynb'
    """
    return f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=lab/tree/{lesson}"


def student_requirements(teacher_requirements: str, package: str) -> str:
    """The student branch's ``binder/requirements.txt``: the teacher's pins less :data:`NOT_FOR_STUDENTS` + a package.

    >>> pins = "# pins\\nsympy==1.14.0\\nnumba==0.68.1\\n"
    >>> print(student_requirements(pins, "duel-lessons @ git+https://x/y@abc"), end="")
    # pins
    sympy==1.14.0
    # duel-lessons itself, pinned to the commit these lessons were published from.
    duel-lessons @ git+https://x/y@abc
    """
    kept = []
    for line in teacher_requirements.splitlines():
        name = re.split(r"[=<>!~\[; @]", line.strip(), maxsplit=1)[0].lower()
        if line.strip() and not line.lstrip().startswith("#") and name in NOT_FOR_STUDENTS:
            continue
        kept.append(line)
    kept += ["# duel-lessons itself, pinned to the commit these lessons were published from.", package]
    return "\n".join(kept) + "\n"


def write_student_branch(
    dest: Path | str,
    package: str,
    repo: str = PROJECT_REPO,
    branch: str = STUDENT_BRANCH,
    source: Path | str | None = None,
) -> tuple[list[Path], str]:
    """Write a self-contained student branch into ``dest``; return the paths written and its Binder link.

    The student copies go at the top, with ``docs/rulebooks/``, a README and a
    ``binder/`` of its own: the pins of the teacher's ``binder/requirements.txt``
    (less :data:`NOT_FOR_STUDENTS`) and ``package``, a pip requirement for
    duel-lessons pinned to one commit (``duel-lessons @ git+URL@COMMIT``).  No
    nbgitpuller step: the session's home folder holds this and nothing else.
    """
    root = lesson_files(source)
    pins = root / "binder" / "requirements.txt"
    if not pins.is_file():
        raise EditionError(f"{root} has no binder/requirements.txt: the student environment's pins come from it.")
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
        raise EditionError(f"{repo!r} is not a GitHub repository name such as my-school/duel-lessons.")
    link = student_binder_link(repo, branch)
    extra = {
        "README.md": student_readme(link, root, lessons_at="", made_by="student-branch"),
        "binder/requirements.txt": student_requirements(pins.read_text(encoding="utf-8"), package),
        "binder/runtime.txt": (root / "binder" / "runtime.txt").read_text(encoding="utf-8"),
        "binder/postBuild": STUDENT_POSTBUILD,
    }
    written = _write(dest, student=True, source=root, extra=extra, lessons_at="")
    (Path(dest) / "binder" / "postBuild").chmod(0o755)
    return written, link
