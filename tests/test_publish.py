"""The student edition publishes itself: the workflow's script against a local bare repository standing in for GitHub.

``.github/workflows/student.yml`` runs ``.ci/publish_student.py`` on every push to main. This test
runs the same script, from a clone of a bare repository whose main holds this working tree, and
then looks at what it pushed: the ``student`` branch appears, holds the student copies at the top
and no answer anywhere, pins its Binder environment to the published commit, and (inside the
script, before the push) its Binder environment installs on repo2docker's base lock with a clean
``pip check``, stays within 600 MB, and runs every lesson. It prints the script's report: the
environment's size and each lesson's time.

The teacher guide's other path, a teacher publishing adapted lessons to a content repository
of their own (``student-repo``, opened with an nbgitpuller link), is tested the same way, without
the environment: the Binder environment of those links is the student branch tested here.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
GIT = ["git", "-c", "user.name=teacher", "-c", "user.email=teacher@example.org", "-c", "init.defaultBranch=main"]
#: Independent of the script's own search: what a leaked answer looks like.
LEAKS = re.compile(r"lesson\.solution\(|#\s*SOLUTION|\*\*Teacher'?s? note|Teacher's model answer|# Answer key", re.I)


def git(*args: str, cwd: Path) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def tracked_files() -> list[str]:
    result = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip("needs a git checkout (git ls-files), as in a clone; an unpacked sdist has none")
    return result.stdout.splitlines()


def origin_with_main(tmp_path: Path, change: dict[str, str] | None = None) -> tuple[Path, Path, str]:
    """A bare repository whose main holds this working tree's tracked files; a clone of it (as CI checks out)."""
    source = tmp_path / "source"
    for name in tracked_files():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    for name, text in (change or {}).items():
        (source / name).write_text(text, encoding="utf-8")
    git("init", "-q", "-b", "main", cwd=source)
    git("add", "-A", cwd=source)
    git("commit", "-q", "-m", "The lessons", cwd=source)
    bare = tmp_path / "origin.git"
    git("clone", "-q", "--bare", str(source), str(bare), cwd=tmp_path)
    checkout = tmp_path / "checkout"
    git("clone", "-q", str(bare), str(checkout), cwd=tmp_path)
    return bare, checkout, git("rev-parse", "HEAD", cwd=checkout)


def publish_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("publish_student", ROOT / ".ci" / "publish_student.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and ".git" not in p.parts}


def leaks(folder: Path) -> list[str]:
    found = []
    for name in sorted(files(folder)):
        teachers = any(word in name for word in ("answer-key", "teacher-guide", "authoring"))
        path = folder / name
        text = path.read_text(encoding="utf-8") if path.suffix in (".ipynb", ".md", ".txt", ".toml") else ""
        if teachers or LEAKS.search(text):
            found.append(name)
    return found


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="Binder's environment is Python 3.11 (runtime.txt)")
def test_the_workflow_publishes_a_student_branch_that_holds_no_answers(tmp_path: Path) -> None:
    bare, checkout, commit = origin_with_main(tmp_path)
    assert not git("ls-remote", str(bare), "student", cwd=tmp_path)  # no student branch yet
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GITHUB_REPOSITORY")}
    # (file://localhost/...: the pip of Binder's base, 23.2, refuses a git+file:/// URL with no host.)
    command = [sys.executable, str(checkout / ".ci" / "publish_student.py"), "--repo", "my-school/duel-lessons",
               "--package-url", f"file://localhost{bare}", "--remote", "origin",
               "--work", str(tmp_path / "work")]  # fmt: skip
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=3600)
    print(run.stdout)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-5000:]

    # The branch appeared, one commit made from main's commit.
    remote = git("ls-remote", str(bare), "refs/heads/student", cwd=tmp_path)
    assert remote, "the student branch was not pushed"
    student = tmp_path / "student"
    git("clone", "-q", "-b", "student", str(bare), str(student), cwd=tmp_path)
    assert git("log", "--format=%s", cwd=student) == f"Student edition of {commit}"

    # The student copies at the top, the rule books, a README and binder/: nothing of the teacher's.
    names = files(student)
    lessons = sorted(name for name in names if name.endswith(".ipynb"))
    assert lessons == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    declared = sorted(name for name in names if name.endswith(".lesson.toml"))  # each lesson's exercises, sealed
    assert declared == sorted(p.name for p in (ROOT / "notebooks").glob("*.lesson.toml"))
    assert all((student / name).read_text(encoding="utf-8").startswith("# The student edition") for name in declared)
    assert {name.split("/")[0] for name in names} == {*lessons, *declared, "README.md", "binder", "docs"}
    assert {name.split("/")[1] for name in names if name.startswith("docs/")} == {"rulebooks"}
    assert not leaks(student), f"the student branch gives answers away: {leaks(student)}"

    # Its Binder environment installs duel-lessons pinned to the published commit, and opens at lesson 00.
    requirements = (student / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert f"duel-lessons @ git+file://localhost{bare}@{commit}" in requirements
    readme = (student / "README.md").read_text(encoding="utf-8")
    link = "https://mybinder.org/v2/gh/my-school/duel-lessons/student?urlpath=lab/tree/00-start-here.ipynb"
    assert link in readme

    # What the script checked before pushing, from its report.
    report = run.stdout
    assert "pip check: clean" in report
    size = float(re.search(r"Binder environment installed in \d+ s: (\d+) MB", report).group(1))  # type: ignore[union-attr]
    assert size <= 600
    assert "no answers in the installed package" in report and "refuse in the student environment" in report
    ran = re.findall(r"^  (\S+\.ipynb): ([\d.]+) s$", report, re.MULTILINE)
    assert sorted(name for name, _ in ran) == lessons

    # Installed in that environment: the package holds no notebook or document either.
    env_dir = tmp_path / "work" / "env"
    (package,) = env_dir.glob("lib/python*/site-packages/duel_lessons")
    assert not [p for p in package.rglob("*") if p.suffix in (".ipynb", ".md")]
    assert not [p for p in package.rglob("*") if "answer-key" in p.name or "teacher-guide" in p.name]

    # The teacher edition's environment (main's binder/) is the same pins plus Voila: add it, pip check again.
    python = str(env_dir / "bin" / "python")
    clean = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([python, "-m", "pip", "install", "-q", "-r", str(ROOT / "binder" / "requirements.txt")],
                   env=clean, check=True, timeout=1800)  # fmt: skip
    check = subprocess.run([python, "-m", "pip", "check"], env=clean, capture_output=True, text=True)
    assert check.returncode == 0, f"pip check with the teacher edition's pins:\n{check.stdout}{check.stderr}"

    # A commit that changes only the teacher's documents publishes nothing: the students' environment stays.
    (checkout / "docs" / "teacher-guide.md").write_text("A changed guide.\n", encoding="utf-8")
    git("commit", "-q", "-am", "Guide only", cwd=checkout)
    git("push", "-q", "origin", "main", cwd=checkout)
    again = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "nothing to publish" in again.stdout, again.stdout + again.stderr
    assert git("ls-remote", str(bare), "refs/heads/student", cwd=tmp_path) == remote


def test_the_readme_badges_point_to_refs_that_exist_once_the_workflow_has_run() -> None:
    """Teacher and app: main; student: the branch the workflow publishes, opened as the student branch is."""
    from duel_lessons.teaching.editions import STUDENT_BRANCH, student_binder_link

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    badges = re.findall(r"\[!\[([^\]]+)\]\(https://mybinder\.org/badge_logo\.svg\)\]\((\S+)\)", readme)
    links = {alt: link for alt, link in badges}
    assert set(links) == {"Launch the teacher edition on Binder", "Launch the student edition on Binder",
                          "Launch the game app on Binder"}  # fmt: skip
    assert links["Launch the student edition on Binder"] == student_binder_link()
    for alt in ("Launch the teacher edition on Binder", "Launch the game app on Binder"):
        assert links[alt].startswith("https://mybinder.org/v2/gh/duel-lessons/duel-lessons/main?urlpath=")
    workflow = (ROOT / ".github" / "workflows" / "student.yml").read_text(encoding="utf-8")
    assert "branches: [main]" in workflow and ".ci/publish_student.py" in workflow
    assert f'default="{STUDENT_BRANCH}"' in (ROOT / ".ci" / "publish_student.py").read_text(encoding="utf-8")
    assert "enable" in readme.split("## Set up")[0].lower()  # the one step a fork needs


def test_the_script_finds_an_answer_left_in_a_student_file(tmp_path: Path) -> None:
    """The script's search names a line of a model solution, a teacher note and an answer-key file."""
    script = publish_script()
    hidden = script.secrets()
    assert len(hidden) > 50  # the teacher edition has model solutions and notes to hide
    tree = tmp_path / "tree"
    code = subprocess.run([sys.executable, "-m", "duel_lessons", "student-branch", str(tree), "--package", "x"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert code.returncode == 0, code.stderr
    assert script.find_answers(tree, hidden) == []
    teacher = json.loads((ROOT / "notebooks" / "04-which-numbers-lose.ipynb").read_text(encoding="utf-8"))
    from duel_lessons.teaching.markers import is_removed

    secret = next(
        line.strip()
        for cell in teacher["cells"]
        if is_removed(cell)
        for line in "".join(cell["source"]).splitlines()
        if line.strip() in hidden
    )
    lesson = tree / "04-which-numbers-lose.ipynb"
    notebook = json.loads(lesson.read_text(encoding="utf-8"))
    notebook["cells"].append({"cell_type": "markdown", "id": "leak", "metadata": {}, "source": [secret]})
    lesson.write_text(json.dumps(notebook), encoding="utf-8")
    (tree / "docs" / "answer-key.md").write_text("nothing", encoding="utf-8")
    found = script.find_answers(tree, hidden)
    assert any(f.startswith("04-which-numbers-lose.ipynb") for f in found), found
    assert any(f.startswith("docs/answer-key.md") for f in found), found


def test_a_teacher_publishes_adapted_lessons_to_a_repository_of_their_own(tmp_path: Path) -> None:
    """The teacher guide's path: adapt, student-repo --from, push; the pushed repository holds no answers and runs."""
    nbclient = pytest.importorskip("nbclient", reason="running the lesson needs nbclient (in the test extra)")
    nbformat = pytest.importorskip("nbformat")
    from duel_lessons.cli import main

    # 1. Copy the teacher edition out of a clone and adapt a lesson's PARAMETERS cell.
    mine = tmp_path / "my-lessons"
    assert main(["lessons", str(mine)]) == 0
    lesson = mine / "notebooks" / "00-start-here.ipynb"
    notebook = json.loads(lesson.read_text(encoding="utf-8"))
    parameters = next(c for c in notebook["cells"] if "".join(c["source"]).lstrip().startswith("# PARAMETERS"))
    parameters["source"] = ["# My class's copy.\n", *parameters["source"]]
    lesson.write_text(json.dumps(notebook), encoding="utf-8")
    # 2. The student repository, and its link.
    bare = tmp_path / "duel-class.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    url = "https://github.com/my-school/duel-class"
    assert main(["student-repo", str(tmp_path / "duel-class"), "--url", url, "--from", str(mine)]) == 0
    # 3. Publish it (here to the bare repository standing in for GitHub), as the guide says.
    work = tmp_path / "duel-class"
    git("init", "-q", "-b", "main", cwd=work)
    git("add", ".", cwd=work)
    git("commit", "-q", "-m", "Student edition", cwd=work)
    git("push", "-q", str(bare), "main", cwd=work)
    pulled = tmp_path / "pulled"
    git("clone", "-q", str(bare), str(pulled), cwd=tmp_path)
    assert not leaks(pulled), leaks(pulled)
    assert "# My class's copy." in (pulled / "notebooks" / "00-start-here.ipynb").read_text(encoding="utf-8")
    # The link builds the student branch's environment (no teacher files) and pulls this repository.
    readme = (pulled / "README.md").read_text(encoding="utf-8")
    link = re.search(r"\]\((https://mybinder\.org/v2/[^)]+)\)", readme).group(1)  # type: ignore[union-attr]
    parts = urlsplit(link)
    assert parts.path == "/v2/gh/duel-lessons/duel-lessons/student"
    assert parse_qs(parse_qs(parts.query)["urlpath"][0].split("?", 1)[1])["repo"] == [url]
    # 4. The adapted lesson runs top to bottom, as a student opens it.
    copy = nbformat.read(pulled / "notebooks" / "00-start-here.ipynb", as_version=4)
    client = nbclient.NotebookClient(copy, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(pulled / "notebooks")}})  # fmt: skip
    client.execute()


def test_nothing_is_published_while_nothing_the_branch_is_made_from_changed(tmp_path: Path) -> None:
    """The script returns at once when the student branch's pin is a commit with the same lessons and package."""
    bare, checkout, commit = origin_with_main(tmp_path)
    # A student branch published from this commit (its pin is what the script reads).
    fake = tmp_path / "fake"
    (fake / "binder").mkdir(parents=True)
    (fake / "binder" / "requirements.txt").write_text(f"sympy==1.14.0\nduel-lessons @ git+https://x/y@{commit}\n")
    git("init", "-q", "-b", "student", cwd=fake)
    git("add", "-A", cwd=fake)
    git("commit", "-q", "-m", f"Student edition of {commit}", cwd=fake)
    git("push", "-q", str(bare), "student", cwd=fake)
    published = git("ls-remote", str(bare), "refs/heads/student", cwd=tmp_path)
    command = [sys.executable, str(checkout / ".ci" / "publish_student.py"), "--repo", "a/b", "--python", "false"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    (checkout / "docs" / "teacher-guide.md").write_text("A changed guide.\n", encoding="utf-8")
    (checkout / "tests" / "test_new.py").write_text("def test_new() -> None:\n    pass\n", encoding="utf-8")
    git("add", "-A", cwd=checkout)
    git("commit", "-q", "-m", "Guide and tests only", cwd=checkout)
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "nothing to publish" in run.stdout, run.stdout + run.stderr
    assert git("ls-remote", str(bare), "refs/heads/student", cwd=tmp_path) == published

    # A changed lesson is published: the script goes on to build (here it stops at once: --python false).
    lesson = checkout / "notebooks" / "00-start-here.ipynb"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("Start here", "Start here!", 1), encoding="utf-8")
    git("commit", "-q", "-am", "A lesson", cwd=checkout)
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1 and "nothing to publish" not in run.stdout and "::: 1." in run.stdout
    assert git("ls-remote", str(bare), "refs/heads/student", cwd=tmp_path) == published  # a failed build: no push
