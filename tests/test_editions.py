"""Teacher and student editions, the student repository and its link; the kernel without numba."""

from __future__ import annotations

import doctest
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from duel_lessons.cli import main
from duel_lessons.solving import kernel
from duel_lessons.teaching import editions
from duel_lessons.teaching.editions import EditionError, binder_link, hub_link, write_edition, write_student_repo
from duel_lessons.teaching.markers import is_removed

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("module", [editions, kernel])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_teacher_edition_is_the_lessons_and_documents(tmp_path: Path) -> None:
    written = write_edition(tmp_path / "t")
    assert len(written) == len(files(tmp_path / "t"))
    for path in written:
        name = path.relative_to(tmp_path / "t").as_posix()
        assert path.read_bytes() == (ROOT / name).read_bytes(), name
    assert {"docs/answer-key.md", "docs/teacher-guide.md", "docs/rulebooks/README.md"} <= files(tmp_path / "t")


def test_student_edition_holds_no_answers(tmp_path: Path) -> None:
    write_edition(tmp_path / "s", student=True)
    names = files(tmp_path / "s")
    assert not any(name.startswith("docs/") and not name.startswith("docs/rulebooks/") for name in names)
    lessons = sorted((tmp_path / "s" / "notebooks").glob("*.ipynb"))
    assert [p.name for p in lessons] == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    removed = 0
    for lesson in lessons:
        teacher = json.loads((ROOT / "notebooks" / lesson.name).read_text(encoding="utf-8"))["cells"]
        student = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
        assert not [cell for cell in student if is_removed(cell)], lesson.name
        removed += len(teacher) - len(student)
    assert removed > 0  # the lessons do have solutions and teacher notes to remove


def test_nothing_is_overwritten(tmp_path: Path) -> None:
    dest = tmp_path / "class"
    (dest / "notebooks").mkdir(parents=True)
    mine = dest / "notebooks" / "00-start-here.ipynb"
    mine.write_text("my own edits", encoding="utf-8")
    with pytest.raises(EditionError, match=r"Refusing to overwrite.*00-start-here\.ipynb"):
        write_edition(dest, student=True)
    assert mine.read_text(encoding="utf-8") == "my own edits"
    assert files(dest) == {"notebooks/00-start-here.ipynb"}  # nothing else written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class"]  # no staging folder left behind
    code, _, err = cli("lessons", str(dest))
    assert code == 2 and "Refusing to overwrite" in err


def test_an_existing_empty_folder_is_fine(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert write_edition(tmp_path / "empty")


def test_binder_link_pulls_the_content_into_this_projects_environment() -> None:
    link = binder_link("https://github.com/my-school/duel-class.git", branch="autumn")
    parts = urlsplit(link)
    # The environment is the project's student branch: its home folder holds no teacher file.
    assert (parts.netloc, parts.path) == ("mybinder.org", "/v2/gh/duel-lessons/duel-lessons/student")
    inner = parse_qs(parts.query)["urlpath"][0]  # decoded once: git-pull?repo=...&branch=...&urlpath=...
    path, query = inner.split("?", 1)
    pulled = parse_qs(query)
    assert path == "git-pull"
    assert pulled["repo"] == ["https://github.com/my-school/duel-class.git"]
    assert pulled["branch"] == ["autumn"]
    assert pulled["urlpath"] == ["lab/tree/duel-class/notebooks/00-start-here.ipynb"]
    assert unquote(unquote(link)).count("?") == 2
    hub = hub_link("https://hub.example.org", "https://github.com/my-school/duel-class")
    assert hub.startswith("https://hub.example.org/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com")
    with pytest.raises(EditionError):
        binder_link("not a url")


def test_student_repo_command(tmp_path: Path) -> None:
    code, out, err = cli("student-repo", str(tmp_path / "r"), "--url", "https://github.com/me/class", "--branch", "s")
    assert code == 0, err
    link = out.strip().splitlines()[-1]
    assert link == binder_link("https://github.com/me/class", "s")
    readme = (tmp_path / "r" / "README.md").read_text(encoding="utf-8")
    assert link in readme and "00-start-here" in readme
    assert "README.md" in files(tmp_path / "r") and "docs/answer-key.md" not in files(tmp_path / "r")
    code, out, _ = cli("student-repo", str(tmp_path / "r2"))
    assert code == 0 and out.strip().splitlines()[-1] == editions.student_binder_link()
    assert "badge_logo" not in (tmp_path / "r2" / "README.md").read_text(encoding="utf-8")
    code, _, err = cli("student-repo", str(tmp_path / "r3"), "--url", "ftp://x")
    assert code == 2 and "not a repository address" in err and not (tmp_path / "r3").exists()


def test_write_student_repo_returns_its_link(tmp_path: Path) -> None:
    written, link = write_student_repo(tmp_path / "r", "https://github.com/me/class")
    assert link is not None and tmp_path / "r" / "README.md" in written


def test_student_copies_and_answer_key_default_to_the_clone(tmp_path: Path) -> None:
    code, out, err = cli("student-copies", str(tmp_path / "copies"))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "copies").glob("*.ipynb")) == sorted(
        p.name for p in (ROOT / "notebooks").glob("*.ipynb")
    )
    code, out, err = cli("answer-key")
    assert code == 0 and out == cli("answer-key", str(ROOT / "notebooks"))[1]
    code, out, err = cli("student-copies", str(ROOT / "notebooks"), str(tmp_path / "two"))  # the old form still works
    assert code == 0, err


def test_kernel_without_numba_gives_the_same_tables(tmp_path: Path) -> None:
    """Where numba cannot be imported, the same kernel runs as plain Python; lessons keep their full sizes up to
    VECTOR_LIMIT (2 * 10**6, solved in numpy), and only larger ones are scaled down, with a note."""
    hide = tmp_path / "hide" / "numba"
    hide.mkdir(parents=True)
    (hide / "__init__.py").write_text("raise ImportError('numba hidden by the test')\n", encoding="utf-8")
    script = (
        "import json\n"
        "from duel_lessons.solving import tables\n"
        "assert not tables.COMPILED\n"
        "assert tables.lesson_size(10**6, 10**5) == 10**6\n"
        "print(tables.lesson_size(10**7, 2000))\n"
        "n = tables.lesson_size(3000, 2000)\n"
        "t = tables.tabulate('divisor-duel', n)\n"
        "print(json.dumps([n, t.outcome.tolist(), t.grundy.tolist(), t.remoteness.tolist()]))\n"
    )
    paths = [str(tmp_path / "hide"), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    note, capped, data = run.stdout.splitlines()
    assert "not compiled" in note and "2,000,000 instead of 10,000,000" in note and capped == "2000000"
    n, outcome, grundy, remoteness = json.loads(data)
    from duel_lessons.solving.tables import tabulate

    table = tabulate("divisor-duel", n)
    assert n == 3000  # the full size: no note
    assert (outcome, grundy, remoteness) == (table.outcome.tolist(), table.grundy.tolist(), table.remoteness.tolist())


def test_student_repo_from_a_teachers_adapted_lessons(tmp_path: Path) -> None:
    write_edition(tmp_path / "mine")
    lesson = tmp_path / "mine" / "notebooks" / "00-start-here.ipynb"
    notebook = json.loads(lesson.read_text(encoding="utf-8"))
    cell = {"cell_type": "markdown", "id": "my-start", "metadata": {}, "source": ["# My own start"]}
    notebook["cells"].insert(0, cell)
    lesson.write_text(json.dumps(notebook), encoding="utf-8")
    code, _, err = cli("student-repo", str(tmp_path / "class"), "--from", str(tmp_path / "mine"))
    assert code == 0, err
    copied = json.loads((tmp_path / "class" / "notebooks" / "00-start-here.ipynb").read_text(encoding="utf-8"))
    assert copied["cells"][0]["source"] == ["# My own start"]
    assert "My own start" in (tmp_path / "class" / "README.md").read_text(encoding="utf-8")
    code, _, err = cli("student-repo", str(tmp_path / "c2"), "--from", str(tmp_path / "nowhere"))
    assert code == 2 and "no notebooks/ folder" in err


def test_answer_key_refuses_student_copies(tmp_path: Path) -> None:
    """answer-key made from a folder of student copies says it needs the teacher edition, and prints nothing."""
    assert cli("student-copies", str(ROOT / "notebooks"), str(tmp_path / "copies"))[0] == 0
    code, out, err = cli("answer-key", str(tmp_path / "copies"))
    assert (code, out) == (2, "") and "holds no teacher notebooks" in err and "teacher edition" in err


def test_without_a_clone_the_teacher_commands_say_where_the_teacher_edition_is(tmp_path: Path) -> None:
    """Installed without the repository (as in a student's environment), every teacher-edition command refuses."""
    site = tmp_path / "site"
    (site / "duel_lessons").mkdir(parents=True)
    for path in (ROOT / "duel_lessons").rglob("*.py"):  # the package alone, as a wheel installs it
        target = site / "duel_lessons" / path.relative_to(ROOT / "duel_lessons")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    env = {**os.environ, "PYTHONPATH": str(site)}
    if env.get("MUTANT_UNDER_TEST") == "stats":  # mutmut's first run: a copy outside its folder cannot record calls
        env["MUTANT_UNDER_TEST"] = ""
    for args, how in (
        (["answer-key"], "as SRC (its notebooks/ folder)"),
        (["student-copies", "copies"], "as SRC (its notebooks/ folder)"),
        (["lessons", "teacher"], "with --from FOLDER"),
        (["lessons", "student", "--student"], "with --from FOLDER"),
        (["student-repo", "class"], "with --from FOLDER"),
        (["student-branch", "branch", "--package", "duel-lessons"], "with --from FOLDER"),
    ):
        run = subprocess.run([sys.executable, "-m", "duel_lessons", *args], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)  # fmt: skip
        assert run.returncode == 2 and run.stdout == "", (args, run.stdout, run.stderr)
        assert "teacher edition" in run.stderr and f"git clone {editions.PROJECT_URL}" in run.stderr
        assert f"or name the folder {how}." in " ".join(run.stderr.split()), (args, run.stderr)  # the argument to use
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # nothing written


def test_student_branch_is_self_contained(tmp_path: Path) -> None:
    package = "duel-lessons @ git+https://github.com/me/duel-lessons@0123abc"
    code, out, err = cli("student-branch", str(tmp_path / "b"), "--package", package, "--repo", "me/duel-lessons")
    assert code == 0, err
    names = files(tmp_path / "b")
    lessons = sorted(name for name in names if name.endswith(".ipynb"))
    assert lessons == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))  # at the top
    assert {"README.md", "binder/requirements.txt", "binder/runtime.txt", "binder/postBuild"} <= names
    declared = sorted(name for name in names if name.endswith(".lesson.toml"))  # each lesson's exercises, sealed
    assert declared == sorted(p.name for p in (ROOT / "notebooks").glob("*.lesson.toml"))
    assert all('edition = "student"' in (tmp_path / "b" / name).read_text(encoding="utf-8") for name in declared)
    assert all(
        name.split("/")[0] in ("docs", "binder", "README.md") or name in lessons or name in declared for name in names
    )
    assert not any(name.startswith("docs/") and not name.startswith("docs/rulebooks/") for name in names)
    requirements = (tmp_path / "b" / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert requirements[-1] == package
    pinned = {line.split("==")[0] for line in requirements if "==" in line and not line.startswith("#")}
    assert {"sympy", "numpy", "matplotlib", "ipywidgets", "nbgitpuller"} <= pinned
    assert not pinned & {"numba", "llvmlite", "voila"}
    assert os.access(tmp_path / "b" / "binder" / "postBuild", os.X_OK)
    link = "https://mybinder.org/v2/gh/me/duel-lessons/student?urlpath=lab/tree/00-start-here.ipynb"
    assert out.strip().splitlines()[-1] == link
    readme = (tmp_path / "b" / "README.md").read_text(encoding="utf-8")
    assert link in readme and "](00-start-here.ipynb)" in readme and "git-pull" not in readme
    for lesson in lessons:
        cells = json.loads((tmp_path / "b" / lesson).read_text(encoding="utf-8"))["cells"]
        assert not [cell for cell in cells if is_removed(cell)], lesson
    code, _, err = cli("student-branch", str(tmp_path / "c"), "--package", package, "--repo", "not a repo")
    assert code == 2 and "not a GitHub repository" in err and not (tmp_path / "c").exists()
