"""The lessons as shipped: the teacher edition, the student edition, and a student content repository.

The lessons and the documents they link to travel inside the package (see
``[tool.setuptools.package-dir]`` in pyproject.toml), laid out as in the
repository: ``notebooks/`` and ``docs/``.  :func:`lesson_files` finds them: the
repository's own folders in a source checkout, the package data in an installed
wheel.

* The **teacher edition** is everything: lessons with solutions and teacher
  notes, the rule books, the teacher guide, the answer key.
* The **student edition** holds student copies of the lessons (made by
  :func:`duel_lessons.teaching.student_copies.write_student_copies`) and the rule
  books, and nothing else: no teacher guide, no answer key, no authoring notes.
* A **student repository** (:func:`write_student_repo`) is the student edition
  plus a short README: a content repository that students open with one
  nbgitpuller link (:func:`binder_link`), while the environment is built from
  this project's repository.

Nothing here overwrites a file: copying into a folder that already holds any of
the files to be written is refused, naming them, before anything is written.

>>> link = binder_link("https://github.com/my-school/duel-class", branch="main")
>>> link.startswith("https://mybinder.org/v2/gh/duel-lessons/duel-lessons/main?urlpath=git-pull%3Frepo%3D")
True
>>> "duel-class%252Fnotebooks%252F00-start-here.ipynb" in link
True
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.student_copies import write_student_copies

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

#: Where this project lives (environment repository of every Binder link).
PROJECT_REPO = "duel-lessons/duel-lessons"
PROJECT_URL = f"https://github.com/{PROJECT_REPO}"
#: The branch of this project that holds its own student edition (made by ``student-repo``).
STUDENT_BRANCH = "student"
#: The Binder ref the environment is built from.
ENVIRONMENT_REF = "main"
#: The first lesson: where every link opens.
FIRST_LESSON = "00-start-here.ipynb"

#: Documents in the student edition (paths under ``docs/``): the rule books and the project's rulings,
#: which the student lessons themselves cite. The teacher guide, answer key and authoring guide stay out.
STUDENT_DOCS = ("rulebooks",)


class EditionError(DuelError):
    """An edition cannot be written (files in the way, or no lessons to copy)."""


def lesson_files() -> Traversable:
    """The folder holding ``notebooks/`` and ``docs/``: the checkout's own, or the installed package data.

    A source checkout (a ``pyproject.toml`` beside the package) reads its own
    folders, so a teacher's edits count; an installed wheel reads
    ``duel_lessons/lessons`` from the package.
    """
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "notebooks").is_dir():
        return checkout
    packaged = resources.files("duel_lessons") / "lessons"
    if not packaged.joinpath("notebooks").is_dir():
        raise EditionError(
            "The lessons are not installed with this copy of duel-lessons (no duel_lessons/lessons). "
            "Reinstall it from a wheel or a clone: pip install duel-lessons."
        )
    return packaged


def packaged_notebooks() -> Path:
    """The folder of lessons installed with the package (or the checkout's ``notebooks/``), as a path."""
    folder = lesson_files() / "notebooks"
    if not isinstance(folder, Path):
        raise EditionError("The installed lessons are zipped; copy them out first with: duel-lessons lessons DEST")
    return folder


def _walk(folder: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    """Every file under folder as (relative posix path, file), sorted, skipping caches and checkpoints."""
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            yield from _walk(entry, name + "/")
        else:
            yield name, entry


def _source(source: Path | str | None) -> Traversable:
    """The lessons to copy: ``source`` (a folder holding ``notebooks/`` and ``docs/``), or the packaged ones."""
    if source is None:
        return lesson_files()
    root = Path(source)
    if not (root / "notebooks").is_dir():
        raise EditionError(f"{root} has no notebooks/ folder: give the folder that holds notebooks/ and docs/.")
    if not (root / "docs").is_dir():
        raise EditionError(f"{root} has no docs/ folder (the rule books): copy it from duel-lessons lessons DEST.")
    return root


def edition_files(student: bool = False, source: Path | str | None = None) -> list[str]:
    """The relative paths an edition holds (lessons are ``notebooks/*.ipynb``).

    >>> "docs/answer-key.md" in edition_files(), "docs/answer-key.md" in edition_files(student=True)
    (True, False)
    """
    root = _source(source)
    names = [f"notebooks/{name}" for name, _ in _walk(root / "notebooks") if name.endswith(".ipynb")]
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


def _stage(staging: Path, student: bool, source: Path | str | None) -> list[str]:
    """Write an edition into the empty folder staging; return the relative paths written."""
    root = _source(source)
    names = edition_files(student, source)
    with tempfile.TemporaryDirectory() as scratch:
        lessons = root / "notebooks"
        if student and not isinstance(lessons, Path):  # a zipped package: give write_student_copies real files
            lessons = Path(scratch) / "notebooks"
            lessons.mkdir()
            for name, entry in _walk(root / "notebooks"):
                (lessons / name).write_bytes(entry.read_bytes())
        for name in names:
            if student and name.startswith("notebooks/"):
                continue  # written below, as student copies (into a folder that does not exist yet)
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(root.joinpath(*name.split("/")).read_bytes())
        if student:
            write_student_copies(Path(str(lessons)), staging / "notebooks")
    return names


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
    dest: Path | str, student: bool, source: Path | str | None = None, extra: dict[str, str] | None = None
) -> list[Path]:
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise EditionError(f"{dest} is a file, not a folder.")
    names = edition_files(student, source) + sorted(extra or {})
    _refuse_existing(dest, names)
    parent = dest.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{dest.resolve().name}-staging-", dir=parent) as staging_name:
        staging = Path(staging_name)
        _stage(staging, student, source)
        for name, text in (extra or {}).items():
            (staging / name).write_text(text, encoding="utf-8")
        return _place(staging, dest, names)


def write_edition(dest: Path | str, student: bool = False, source: Path | str | None = None) -> list[Path]:
    """Copy the teacher edition (or, with ``student=True``, the student edition) into ``dest``.

    The lessons come from the package, or from ``source`` (a folder holding
    ``notebooks/`` and ``docs/``).  ``dest`` may exist, but none of the files to
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
    titles = []
    root = _source(source) / "notebooks"
    for name, entry in _walk(root):
        if not name[:2].isdigit() or not name.endswith(".ipynb"):
            continue
        title = name.removesuffix(".ipynb")
        for cell in json.loads(entry.read_text(encoding="utf-8")).get("cells", []):
            source = "".join(cell.get("source", []))
            heading = next((line[2:].strip() for line in source.splitlines() if line.startswith("# ")), None)
            if cell.get("cell_type") == "markdown" and heading:
                title = heading
                break
        titles.append((name, title))
    return titles


def student_readme(link: str | None = None, source: Path | str | None = None) -> str:
    """The README of a student repository (with its Binder link, when known)."""
    lines = ["# Divisor Duel and its cousins: lessons", ""]
    if link:
        lines += [f"[![Open the lessons on Binder](https://mybinder.org/badge_logo.svg)]({link})", ""]
    lines += [
        "Jupyter lessons on two-player number games: play, collect data, make a conjecture, prove it.",
        "",
        "**Start here:** open the link above (or the link your teacher gave you), wait for the lessons",
        f"to load, and open `notebooks/{FIRST_LESSON}`. Run a cell with Shift+Enter.",
        "",
        "- Each lesson ends with exercises that check your answer when you run them.",
        "- The rule books are in `docs/rulebooks/`.",
        "- **Save your work.** A Binder session is deleted after about ten minutes without use:",
        "  download your notebooks (File → Download) before you leave. Opening the link again",
        "  brings back your files only on a school JupyterHub, not on mybinder.org.",
        "- When your teacher changes a lesson, opening the link again merges the change into your",
        "  copy; your own edits are kept.",
        "",
        "| lesson | title |",
        "|---|---|",
    ]
    lines += [f"| [`{name}`](notebooks/{name}) | {title} |" for name, title in _lesson_titles(source)]
    lines += [
        "",
        "Made by `duel-lessons student-repo` from [duel-lessons](" + PROJECT_URL + "): student copies of the",
        "lessons (no solutions or teacher notes) and the rule books. The software is MIT-licensed.",
    ]
    return "\n".join(lines) + "\n"


def write_student_repo(
    dest: Path | str, url: str | None = None, branch: str = "main", source: Path | str | None = None
) -> tuple[list[Path], str | None]:
    """Write a student content repository into ``dest``; return the paths written and its Binder link.

    The lessons come from the package, or from ``source`` (a teacher's adapted
    copy: a folder holding ``notebooks/`` and ``docs/``).  Without ``url`` the
    README has no link (``student-repo`` then shows the link of this project's
    own student edition as an example).
    """
    link = binder_link(url, branch) if url else None
    written = _write(dest, student=True, source=source, extra={"README.md": student_readme(link, source)})
    return written, link
