"""Editions, links and the student branch, to the character: expected values written out by hand (issue 30).

A teacher's adapted copy (a small folder made here, unlike the repository in every file) shows that
each command copies what it was given rather than the lessons it finds itself; each link is written
out in full, so a lost branch, lesson or hub path shows.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from duel_lessons.teaching.editions import (
    EditionError,
    binder_link,
    check_repo_url,
    edition_files,
    hub_link,
    repo_dir_name,
    student_readme,
    write_edition,
    write_student_branch,
    write_student_repo,
)


def notebook(*cells: tuple[str, str | list[str]]) -> str:
    """A small valid notebook of (cell type, source) pairs."""
    made = []
    for number, (kind, source) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"c{number}", "metadata": {}, "source": source}
        if kind == "code":
            cell |= {"execution_count": None, "outputs": []}
        made.append(cell)
    return json.dumps({"cells": made, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.fixture
def adapted(tmp_path: Path) -> Path:
    """A teacher's adapted lessons: two numbered lessons with a solution, a non-lesson notebook and a note."""
    root = tmp_path / "adapted"
    (root / "notebooks").mkdir(parents=True)
    (root / "notebooks" / "00-start-here.ipynb").write_text(
        notebook(
            ("code", "# a comment, not a title\nx = 1"),
            ("markdown", ["Some words first.\n", "# Our own start\n", "# A second heading"]),
            ("code", "# SOLUTION\nanswer = 42"),
        )
    )
    (root / "notebooks" / "01-untitled.ipynb").write_text(notebook(("markdown", "No heading here.")))
    (root / "notebooks" / "02-notes.txt").write_text("not a lesson")
    (root / "notebooks" / "03-last.ipynb").write_text(notebook(("markdown", "# The last one")))
    (root / "notebooks" / "play.ipynb").write_text(notebook(("markdown", "# Not a numbered lesson")))
    (root / "docs" / "rulebooks").mkdir(parents=True)
    (root / "docs" / "rulebooks" / "our-rules.md").write_text("Our rules.\n")
    (root / "docs" / "rulebooks" / "more").mkdir()
    (root / "docs" / "rulebooks" / "more" / "variants.md").write_text("More rules.\n")
    (root / "notebooks" / ".ipynb_checkpoints").mkdir()
    (root / "notebooks" / ".ipynb_checkpoints" / "00-start-here-checkpoint.ipynb").write_text(notebook())
    (root / "docs" / "__pycache__").mkdir()
    (root / "docs" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (root / "docs" / ".notes.md").write_text("hidden\n")
    (root / "docs" / "teacher-guide.md").write_text("For the teacher only.\n")
    (root / "binder").mkdir()
    (root / "binder" / "requirements.txt").write_text("# our pins\nsympy==1.0\nnumba==0.1\n  # voila==9 kept\n")
    (root / "binder" / "runtime.txt").write_text("python-3.10\n")
    return root


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


LESSONS = ["00-start-here.ipynb", "01-untitled.ipynb", "03-last.ipynb", "play.ipynb"]


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/a/b",
        "http://git.school.org/class",
        "https://git.school.org/XX",
        " https://x.org/a/b ",
        "HTTP://github.com/a/b",  # urlsplit reads the scheme in any case
    ],
)
def test_repository_addresses_that_are_accepted(url: str) -> None:
    assert check_repo_url(url) == url.strip()


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com",  # no path
        "https://github.com/",  # a path of slashes only
        "https:///a/b",  # no host
        "ftp://github.com/a/b",  # another scheme, with host and path
        "github.com/a/b",  # no scheme
        "http://[::1",  # unreadable
    ],
)
def test_repository_addresses_that_are_refused(url: str) -> None:
    with pytest.raises(EditionError, match="is not a repository address"):
        check_repo_url(url)


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("https://github.com/my-school/duel-class.git", "duel-class"),
        ("https://github.com/my-school/duel-class/", "duel-class"),
        ("https://github.com/my-school/TEAM-X", "TEAM-X"),
        ("https://github.com", "content"),
        ("https://github.com/.git", "content"),
    ],
)
def test_the_folder_nbgitpuller_clones_into(url: str, name: str) -> None:
    assert repo_dir_name(url) == name


PULL_B_MAIN = "git-pull?repo=https%3A%2F%2Fgithub.com%2Fa%2Fb&branch=main&urlpath=lab%2Ftree%2Fb%2Fnotebooks%2F"


def test_a_hub_link_keeps_the_hubs_path_the_branch_and_the_lesson() -> None:
    assert hub_link("https://hub.school.org/", "https://github.com/a/b") == (
        f"https://hub.school.org/hub/user-redirect/{PULL_B_MAIN}00-start-here.ipynb"
    )
    assert hub_link("https://school.org/labX//", "https://github.com/a/b", "autumn", "05-sums.ipynb") == (
        "https://school.org/labX/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fa%2Fb"
        "&branch=autumn&urlpath=lab%2Ftree%2Fb%2Fnotebooks%2F05-sums.ipynb"
    )


def test_a_binder_link_in_full() -> None:
    """The nbgitpuller path quoted once more (``%`` becomes ``%25``), after the project's student environment."""
    start = "https://mybinder.org/v2/gh/duel-lessons/duel-lessons/student?urlpath=git-pull%3Frepo%3Dhttps%253A%252F"
    assert binder_link("https://github.com/a/b") == (
        f"{start}%252Fgithub.com%252Fa%252Fb%26branch%3Dmain%26urlpath%3Dlab%252Ftree%252Fb%252Fnotebooks"
        "%252F00-start-here.ipynb"
    )
    assert binder_link("https://github.com/a/b", "autumn", lesson="05-sums.ipynb") == (
        f"{start}%252Fgithub.com%252Fa%252Fb%26branch%3Dautumn%26urlpath%3Dlab%252Ftree%252Fb%252Fnotebooks"
        "%252F05-sums.ipynb"
    )


def test_an_edition_of_adapted_lessons_is_made_of_them(adapted: Path, tmp_path: Path) -> None:
    assert edition_files(source=adapted) == [
        *(f"notebooks/{name}" for name in LESSONS),
        "docs/rulebooks/more/variants.md",
        "docs/rulebooks/our-rules.md",
        "docs/teacher-guide.md",
    ]
    assert edition_files(student=True, source=adapted) == [
        *(f"notebooks/{name}" for name in LESSONS),
        "docs/rulebooks/more/variants.md",
        "docs/rulebooks/our-rules.md",
    ]
    dest = tmp_path / "new" / "deep" / "teacher"  # its parents are made too
    written = write_edition(dest, source=adapted)
    assert [p.relative_to(dest).as_posix() for p in written] == edition_files(source=adapted)
    assert (dest / "docs" / "teacher-guide.md").read_text() == "For the teacher only.\n"
    assert sorted(p.name for p in (tmp_path / "new" / "deep").iterdir()) == ["teacher"]  # no staging folder left


def expected_readme(link: str | None, folder: str, made_by: str) -> str:
    """The README of a student repository or branch of the adapted lessons, written out."""
    badge = f"[![Open the lessons on Binder](https://mybinder.org/badge_logo.svg)]({link})\n\n" if link else ""
    merges = (
        "- When your teacher changes a lesson, opening the link again merges the change into your\n"
        "  copy; your own edits are kept.\n"
        if made_by == "student-repo"
        else ""
    )
    return (
        "# Divisor Duel and its cousins: lessons\n\n"
        f"{badge}"
        "Jupyter lessons on two-player number games: play, collect data, make a conjecture, prove it.\n\n"
        "**Start here:** open the link above (or the link your teacher gave you), wait for the lessons\n"
        f"to load, and open `{folder}00-start-here.ipynb`. Run a cell with Shift+Enter.\n\n"
        "- Each lesson ends with exercises that check your answer when you run them.\n"
        "- The rule books are in `docs/rulebooks/`.\n"
        "- **Save your work.** A Binder session is deleted after about ten minutes without use:\n"
        "  download your notebooks (File \u2192 Download) before you leave. Opening the link again\n"
        "  brings back your files only on a school JupyterHub, not on mybinder.org.\n"
        f"{merges}\n"
        "| lesson | title |\n"
        "|---|---|\n"
        f"| [`00-start-here.ipynb`]({folder}00-start-here.ipynb) | Our own start |\n"
        f"| [`01-untitled.ipynb`]({folder}01-untitled.ipynb) | 01-untitled |\n"
        f"| [`03-last.ipynb`]({folder}03-last.ipynb) | The last one |\n\n"
        f"Made by `duel-lessons {made_by}` from [duel-lessons](https://github.com/duel-lessons/duel-lessons): "
        "student copies of the\n"
        "lessons (no solutions or teacher notes) and the rule books. The software is MIT-licensed.\n"
    )


README_ROWS = [
    "| lesson | title |",
    "|---|---|",
    "| [`00-start-here.ipynb`]({folder}00-start-here.ipynb) | Our own start |",
    "| [`01-untitled.ipynb`]({folder}01-untitled.ipynb) | 01-untitled |",
    "| [`03-last.ipynb`]({folder}03-last.ipynb) | The last one |",
]
MERGES = "- When your teacher changes a lesson, opening the link again merges the change into your"


def test_a_student_repository_of_adapted_lessons(adapted: Path, tmp_path: Path) -> None:
    written, link = write_student_repo(tmp_path / "class", "https://github.com/a/b", source=adapted)
    assert link == binder_link("https://github.com/a/b", "main")  # its default branch
    assert files(tmp_path / "class") == {
        "README.md",
        "docs/rulebooks/our-rules.md",
        "docs/rulebooks/more/variants.md",
    } | {f"notebooks/{name}" for name in LESSONS}
    assert len(written) == 7
    assert (tmp_path / "class" / "README.md").read_text() == expected_readme(link, "notebooks/", "student-repo")
    readme = (tmp_path / "class" / "README.md").read_text().splitlines()
    assert [row.format(folder="notebooks/") for row in README_ROWS] == readme[readme.index("| lesson | title |") :][:5]
    assert f"[![Open the lessons on Binder](https://mybinder.org/badge_logo.svg)]({link})" in readme
    assert "to load, and open `notebooks/00-start-here.ipynb`. Run a cell with Shift+Enter." in readme
    assert MERGES in readme
    assert "Made by `duel-lessons student-repo` from [duel-lessons](https://github.com/duel-lessons/duel-lessons):" in (
        " ".join(readme)
    )
    copy = json.loads((tmp_path / "class" / "notebooks" / "00-start-here.ipynb").read_text())
    assert [cell["id"] for cell in copy["cells"]] == ["c0", "c1"]  # the adapted lesson, its solution removed


def test_the_readmes_defaults_are_a_student_repositorys(adapted: Path) -> None:
    assert student_readme(source=adapted) == expected_readme(None, "notebooks/", "student-repo")
    assert student_readme("L", adapted, "", "student-branch") == expected_readme("L", "", "student-branch")


def test_a_student_branch_of_adapted_lessons(adapted: Path, tmp_path: Path) -> None:
    package = "duel-lessons @ git+https://github.com/me/duel-lessons@0123abc"
    written, link = write_student_branch(
        tmp_path / "b", package, repo="me/duel-lessons", branch="autumn", source=adapted
    )
    assert link == "https://mybinder.org/v2/gh/me/duel-lessons/autumn?urlpath=lab/tree/00-start-here.ipynb"
    top = {"README.md", "docs/rulebooks/our-rules.md", "docs/rulebooks/more/variants.md", "binder/requirements.txt"}
    top |= {"binder/runtime.txt"}
    assert files(tmp_path / "b") == top | {"binder/postBuild"} | set(LESSONS)
    assert len(written) == len(files(tmp_path / "b"))
    assert (tmp_path / "b" / "binder" / "requirements.txt").read_text() == (
        "# our pins\nsympy==1.0\n  # voila==9 kept\n"
        "# duel-lessons itself, pinned to the commit these lessons were published from.\n"
        f"{package}\n"
    )
    assert (tmp_path / "b" / "binder" / "runtime.txt").read_text() == "python-3.10\n"
    assert stat.S_IMODE((tmp_path / "b" / "binder" / "postBuild").stat().st_mode) == 0o755
    assert (tmp_path / "b" / "README.md").read_text() == expected_readme(link, "", "student-branch")
    readme = (tmp_path / "b" / "README.md").read_text().splitlines()
    assert [row.format(folder="") for row in README_ROWS] == readme[readme.index("| lesson | title |") :][:5]
    assert f"[![Open the lessons on Binder](https://mybinder.org/badge_logo.svg)]({link})" in readme
    assert "to load, and open `00-start-here.ipynb`. Run a cell with Shift+Enter." in readme
    assert MERGES not in readme  # the branch is rebuilt, not merged
    assert (
        "Made by `duel-lessons student-branch` from [duel-lessons](https://github.com/duel-lessons/duel-lessons):"
        in (" ".join(readme))
    )
    copy = json.loads((tmp_path / "b" / "00-start-here.ipynb").read_text())
    assert [cell["id"] for cell in copy["cells"]] == ["c0", "c1"]


def test_a_student_branch_needs_the_adapted_folders_pins(adapted: Path, tmp_path: Path) -> None:
    (adapted / "binder" / "requirements.txt").unlink()
    with pytest.raises(EditionError, match=r"has no binder/requirements\.txt"):
        write_student_branch(tmp_path / "b", "duel-lessons", source=adapted)
    assert not (tmp_path / "b").exists()


def test_refusing_to_overwrite_names_five_files_and_counts_the_rest(adapted: Path, tmp_path: Path) -> None:
    dest = tmp_path / "class"
    for name in LESSONS:  # four lessons and a rule book: five, all named
        (dest / "notebooks").mkdir(parents=True, exist_ok=True)
        (dest / "notebooks" / name).write_text("mine")
    (dest / "docs" / "rulebooks").mkdir(parents=True)
    (dest / "docs" / "rulebooks" / "our-rules.md").write_text("mine")
    five = ", ".join([*(f"notebooks/{name}" for name in LESSONS), "docs/rulebooks/our-rules.md"])
    with pytest.raises(EditionError) as refused:
        write_edition(dest, source=adapted)
    assert str(refused.value) == (
        f"Refusing to overwrite files in {dest}: {five} already exist. "
        "Choose a new folder, or move those files away first."
    )
    (dest / "docs" / "rulebooks" / "more").mkdir()
    (dest / "docs" / "rulebooks" / "more" / "variants.md").write_text("mine")
    first = ", ".join([*(f"notebooks/{name}" for name in LESSONS), "docs/rulebooks/more/variants.md"])
    with pytest.raises(EditionError) as refused:
        write_edition(dest, source=adapted)
    assert f"in {dest}: {first} and 1 more already exist." in str(refused.value)
    (dest / "docs" / "teacher-guide.md").write_text("mine")
    with pytest.raises(EditionError) as refused:
        write_edition(dest, source=adapted)
    assert f"in {dest}: {first} and 2 more already exist." in str(refused.value)
    assert files(dest) == {
        "docs/rulebooks/our-rules.md",
        "docs/rulebooks/more/variants.md",
        "docs/teacher-guide.md",
    } | {f"notebooks/{name}" for name in LESSONS}
    assert {p.read_text() for p in dest.rglob("*") if p.is_file()} == {"mine"}


def test_the_teacher_edition_is_the_clone_or_the_folder_the_command_runs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone installed with ``pip install -e`` finds itself; an installed wheel finds only the current folder."""
    from duel_lessons.teaching import editions

    def folder(path: Path, *names: str) -> Path:
        for name in names:
            (path / name).parent.mkdir(parents=True, exist_ok=True)
            (path / name).write_text("{}" if name.endswith(".ipynb") else "")
        return path

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    clone = folder(tmp_path / "clone", "notebooks/00-a.ipynb", "docs/rulebooks/r.md", "pyproject.toml")
    monkeypatch.setattr(editions, "__file__", str(clone / "duel_lessons" / "teaching" / "editions.py"))
    monkeypatch.chdir(elsewhere)
    assert editions.lesson_files() == clone
    assert editions.teacher_notebooks() == clone / "notebooks"

    site = tmp_path / "site"  # a wheel's install: no lessons beside the package
    monkeypatch.setattr(editions, "__file__", str(site / "duel_lessons" / "teaching" / "editions.py"))
    adapted = folder(tmp_path / "adapted", "notebooks/00-a.ipynb", "docs/r.md")  # no pyproject.toml: not a clone
    monkeypatch.chdir(adapted)
    assert editions.lesson_files() == adapted
    for half in (
        folder(tmp_path / "no-docs", "notebooks/00-a.ipynb"),
        folder(tmp_path / "no-lessons", "notebooks/a.txt", "docs/r.md"),
        folder(tmp_path / "clone-no-lessons", "notebooks/a.txt", "docs/r.md", "pyproject.toml"),
        elsewhere,
    ):
        monkeypatch.chdir(half)
        with pytest.raises(EditionError) as refused:
            editions.lesson_files()
        assert str(refused.value) == f"{editions.NO_TEACHER_EDITION} with --from FOLDER."
        with pytest.raises(EditionError) as refused:
            editions.teacher_notebooks()
        assert str(refused.value) == f"{editions.NO_TEACHER_EDITION} as SRC."


def test_files_are_staged_beside_the_destination_then_renamed_into_it(
    adapted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rename cannot cross file systems: the staging folder is a hidden sibling of the destination."""
    import os

    moved: list[tuple[Path, Path]] = []
    replace = os.replace

    def recorded(source: str | Path, target: str | Path) -> None:
        moved.append((Path(source), Path(target)))
        replace(source, target)

    monkeypatch.setattr(os, "replace", recorded)
    dest = tmp_path / "class"
    write_student_branch(dest, "duel-lessons", source=adapted)
    placed = [(source, target) for source, target in moved if target.is_relative_to(dest)]
    assert len(placed) == len(files(dest)) == 10  # four lessons, two rule books, the README, three binder/ files
    for source, target in placed:
        staging = source.relative_to(tmp_path).parts[0]
        assert staging.startswith(".class-staging-"), source
        assert source.relative_to(tmp_path / staging) == target.relative_to(dest)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adapted", "class"]


def test_a_lesson_title_from_a_notebook_missing_its_cells_or_sources(tmp_path: Path) -> None:
    """The README's table reads any notebook JSON: no ``cells``, or a cell without ``source``, keep the file name."""
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "notebooks" / "00-no-cells.ipynb").write_text("{}")
    (tmp_path / "notebooks" / "01-no-source.ipynb").write_text(
        json.dumps({"cells": [{"cell_type": "markdown"}, {"cell_type": "markdown", "source": "# Found"}]})
    )
    readme = student_readme(source=tmp_path).splitlines()
    assert readme[readme.index("| lesson | title |") + 2 :][:2] == [
        "| [`00-no-cells.ipynb`](notebooks/00-no-cells.ipynb) | 00-no-cells |",
        "| [`01-no-source.ipynb`](notebooks/01-no-source.ipynb) | Found |",
    ]
