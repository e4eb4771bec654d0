#!/usr/bin/env python3
"""Publish the student edition as the branch ``student``: build it, test it, and only then push it.

The workflow ``.github/workflows/student.yml`` runs this on every push to main, from the
checkout of the commit being published; ``tests/test_publish.py`` runs the same script against
a local bare repository standing in for GitHub. The steps:

1. ``duel-lessons student-branch`` (the project's own command) writes the student edition of this
   checkout into a new folder: student copies of the lessons at the top, ``docs/rulebooks/``, a
   README with the branch's Binder link, and a ``binder/`` of its own that installs duel-lessons
   pinned to this commit (``duel-lessons @ git+URL@COMMIT``), so that the students' environment
   changes only when the lessons are published.
2. No file of it holds a model solution, a teacher note, the teacher guide or the answer key:
   every line of the teacher notebooks' solution and teacher cells and of the answer key that a
   student copy does not also hold is searched for in every file, and so are the markers.
3. Its Binder environment is built as mybinder.org (repo2docker) builds it: repo2docker's Python
   3.11 base environment (``tests/repo2docker-base-py3.11.txt``), then ``binder/requirements.txt``,
   then ``binder/postBuild``. ``pip check`` must be clean, the installed package must hold none of
   the above either (and no notebook or document), the commands that read teacher notebooks must
   refuse there, and the environment must be at most ``--max-mb`` (600 MB).
4. Every lesson of the branch runs top to bottom in that environment (two kernels at a time).
5. Only then the branch is committed (one commit, "Student edition of COMMIT") and force-pushed
   to the checkout's remote as ``student``, from the checkout (so the workflow's credentials apply).

Before all that, when the branch already exists and nothing it is made from (the package, the
lessons, the rule books, binder/, pyproject.toml, this script) changed since the commit it was
published from, nothing is done: a commit that changes only the tests or the teacher's documents
does not make every student's Binder environment rebuild (``--force`` publishes anyway).

Usage (from anywhere; it publishes the checkout it sits in)::

    python .ci/publish_student.py --repo OWNER/NAME [--package-url URL] [--remote origin] [--no-push]

It needs Python 3.11 (Binder's) for step 3, git, and duel-lessons importable with its nbformat
dependency (``pip install -e .``). It prints each step's time, the environment's size and each
lesson's time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "tests" / "repo2docker-base-py3.11.txt"
#: Names that no file of the student edition, and nothing installed, may carry.
FORBIDDEN_NAMES = ("answer-key", "teacher-guide", "authoring")
#: Markers of a solution or a teacher note (in the branch's files; the installed package's code
#: names some of them, to find and remove them, so it is searched for the secret lines instead).
MARKERS = re.compile(r"lesson\.solution\(|#\s*SOLUTION\b|\*\*Teacher'?s? note|Teacher's model answer|^# Answer key",
                     re.IGNORECASE | re.MULTILINE)  # fmt: skip
#: Lines shorter than this are too common to be a secret (``answer_1 = ...``, a closing bracket).
SHORTEST_SECRET = 25

#: Run inside the Binder environment: execute the given lessons, printing each one's time.
RUN_LESSONS = """
import sys, time
from pathlib import Path
import nbformat
from nbclient import NotebookClient
for path in map(Path, sys.argv[1:]):
    t0 = time.perf_counter()
    notebook = nbformat.read(path, as_version=4)
    resources = {"metadata": {"path": str(path.parent)}}
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources=resources).execute()
    print(f"{path.name} {time.perf_counter() - t0:.1f}", flush=True)
"""


class PublishError(Exception):
    """A step failed: the branch is not pushed."""


def say(*lines: str) -> None:
    print(*lines, sep="\n", flush=True)


def run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    """Run a command; a failure is a PublishError holding its output."""
    done = subprocess.run(command, capture_output=True, text=True, **options)  # type: ignore[call-overload]
    if done.returncode != 0:
        raise PublishError(f"{' '.join(command[:6])} ... failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done  # type: ignore[no-any-return]


def git(*args: str, cwd: Path = ROOT) -> str:
    return run(["git", "-c", "user.name=duel-lessons", "-c", "user.email=duel-lessons@users.noreply.github.com",
                *args], cwd=cwd).stdout.strip()  # fmt: skip


# -- 1. the branch -------------------------------------------------------------------------------


def write_branch(dest: Path, package: str, repo: str, branch: str) -> None:
    """``duel-lessons student-branch`` from this checkout (run as ``python -m duel_lessons`` in it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    made = run([sys.executable, "-m", "duel_lessons", "student-branch", str(dest), "--package", package,
                "--repo", repo, "--branch", branch], cwd=ROOT, env=env)  # fmt: skip
    say(made.stdout.rstrip())


# -- 2. no answers anywhere ----------------------------------------------------------------------


def _cell_lines(cell: dict[str, object]) -> set[str]:
    source = cell.get("source", "")
    text = "".join(source) if isinstance(source, list) else str(source)
    return {line.strip() for line in text.splitlines() if line.strip()}


def secrets(root: Path = ROOT) -> set[str]:
    """Lines of the teacher edition that no student file may hold.

    Every line (of at least SHORTEST_SECRET characters) of the teacher notebooks' solution and
    teacher cells and of the answer key, less the lines a student copy keeps (an exercise's own
    line, which the answer key repeats).
    """
    sys.path.insert(0, str(ROOT))  # this checkout's duel_lessons: its own definition of a removed cell
    from duel_lessons.teaching.markers import is_removed

    hidden: set[str] = set()
    kept: set[str] = set()
    for lesson in sorted((root / "notebooks").glob("*.ipynb")):
        for cell in json.loads(lesson.read_text(encoding="utf-8"))["cells"]:
            (hidden if is_removed(cell) else kept).update(_cell_lines(cell))
    key = root / "docs" / "answer-key.md"
    if key.is_file():
        hidden.update(line.strip() for line in key.read_text(encoding="utf-8").splitlines())
    return {line for line in hidden - kept if len(line) >= SHORTEST_SECRET}


def find_answers(folder: Path, hidden: set[str], markers: bool = True) -> list[str]:
    """What in ``folder`` gives an answer away: forbidden file names, markers, secret lines (one line each)."""
    found = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or ".git" in path.relative_to(folder).parts:
            continue
        name = path.relative_to(folder).as_posix()
        if any(word in path.name.lower() for word in FORBIDDEN_NAMES):
            found.append(f"{name}: a teacher's file")
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary: a compiled module, a font
        if path.suffix == ".ipynb":  # search the cells' text, as a student sees it
            with contextlib.suppress(ValueError, AttributeError):
                text = "\n".join("".join(c.get("source", "")) for c in json.loads(text).get("cells", []))
        marker = MARKERS.search(text) if markers else None
        if marker:
            found.append(f"{name}: {marker.group(0)!r}")
        lines = {line.strip() for line in text.splitlines()}
        found += [f"{name}: {line[:80]!r}" for line in sorted(lines & hidden)[:3]]
    return found


def check_no_answers(folder: Path, hidden: set[str], what: str, markers: bool = True) -> None:
    found = find_answers(folder, hidden, markers)
    if found:
        raise PublishError(f"{what} gives answers away:\n  " + "\n  ".join(found[:20]))
    say(f"no answers in {what}: searched {sum(1 for p in folder.rglob('*') if p.is_file())} files "
        f"for {len(hidden)} lines of the teacher edition")  # fmt: skip


# -- 3. the Binder environment -------------------------------------------------------------------


def size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


def binder_environment(tree: Path, env_dir: Path, homes: Path, python: str) -> dict[str, str]:
    """Build the branch's Binder environment in env_dir as repo2docker does; return the environment variables."""
    run([python, "-m", "venv", str(env_dir)])
    bin_dir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER", "NUMBA"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    for var in ("MPLCONFIGDIR", "IPYTHONDIR", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[var] = str(homes / var.lower())  # a fresh home for every cache, as on Binder
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on Binder: pip and Python write bytecode
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q"]
    began = time.perf_counter()
    # Binder's base environment: the lock file is a complete set, as conda installed it (no resolving).
    run([*pip, "--no-deps", "-r", str(BASE)], env=env, cwd=tree)
    base = size_mb(env_dir)
    run([*pip, "-r", "binder/requirements.txt"], env=env, cwd=tree)
    run(["bash", "binder/postBuild"], env=env, cwd=tree)
    say(f"Binder environment installed in {time.perf_counter() - began:.0f} s: {size_mb(env_dir):.0f} MB "
        f"(repo2docker's base {base:.0f} MB)")  # fmt: skip
    check = subprocess.run([str(bin_dir / "python"), "-m", "pip", "check"], env=env, capture_output=True, text=True)
    if check.returncode != 0:
        raise PublishError(f"pip check in the Binder environment:\n{check.stdout}{check.stderr}")
    say("pip check: clean")
    return env


def installed_package(env_dir: Path) -> Path:
    (package,) = env_dir.glob("lib/python*/site-packages/duel_lessons")
    return package


def check_installed(env_dir: Path, env: dict[str, str], tree: Path, hidden: set[str]) -> None:
    """The installed package holds no lesson, document or answer; the teacher commands refuse."""
    package = installed_package(env_dir)
    data = sorted(p.relative_to(package).as_posix() for p in package.rglob("*")
                  if p.suffix in (".ipynb", ".md", ".txt", ".nbi", ".nbc"))  # fmt: skip
    if data:
        raise PublishError(f"the installed package holds lessons, documents or caches: {data[:10]}")
    check_no_answers(package, hidden, "the installed package", markers=False)
    command = str(env_dir / "bin" / "duel-lessons")
    with tempfile.TemporaryDirectory() as scratch:
        for args in (["answer-key"], ["lessons", f"{scratch}/t"], ["student-copies", f"{scratch}/c"]):
            done = subprocess.run([command, *args], env=env, cwd=tree, capture_output=True, text=True)
            shown = {line.strip() for line in done.stdout.splitlines()}
            if done.returncode == 0 or shown & hidden or MARKERS.search(done.stdout):
                raise PublishError(f"duel-lessons {' '.join(args)} in the student environment did not refuse:\n"
                                   f"{done.stdout[:2000]}{done.stderr[:2000]}")  # fmt: skip
            if "teacher edition" not in done.stderr:
                raise PublishError(f"duel-lessons {args[0]} does not say what it needs:\n{done.stderr}")
    say("the teacher-edition commands refuse in the student environment, saying where the teacher edition is")


# -- 4. the lessons ------------------------------------------------------------------------------


def run_lessons(tree: Path, env_dir: Path, env: dict[str, str], limit_s: float) -> None:
    """Run every lesson top to bottom with the environment's kernel, two at a time; print each one's time."""
    lessons = sorted(tree.glob("*.ipynb"))
    with tempfile.TemporaryDirectory() as scratch:
        copies = []  # run copies: the branch itself is committed without outputs
        for lesson in lessons:
            copies.append(Path(scratch) / lesson.name)
            shutil.copy2(lesson, copies[-1])
        for declared in tree.glob("*.lesson.toml"):  # each lesson's exercises (sealed), beside it as in a session
            shutil.copy2(declared, Path(scratch) / declared.name)
        shutil.copytree(tree / "docs", Path(scratch) / "docs")
        began = time.perf_counter()
        python = str(env_dir / "bin" / "python")
        halves = [[str(p) for p in copies[i::2]] for i in range(2)]
        runs = [subprocess.Popen([python, "-c", RUN_LESSONS, *half], env=env, cwd=scratch, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for half in halves]  # fmt: skip
        outputs = [process.communicate() for process in runs]
    for process, (_out, err) in zip(runs, outputs, strict=True):
        if process.returncode != 0:
            raise PublishError(f"a student lesson failed in the Binder environment:\n{err[-3000:]}")
    times = sorted(line.split() for out, _err in outputs for line in out.splitlines())
    say(*(f"  {name}: {seconds} s" for name, seconds in times))
    say(f"every lesson, two at a time: {time.perf_counter() - began:.0f} s")
    if len(times) != len(lessons):
        raise PublishError(f"{len(lessons)} lessons, but {len(times)} ran")
    slow = [name for name, seconds in times if float(seconds) > limit_s]
    if slow:
        raise PublishError(f"lessons slower than {limit_s:.0f} s in the student environment: {slow}")


# -- 5. push ---------------------------------------------------------------------------------------


def push(tree: Path, commit: str, remote: str, branch: str) -> str:
    """Commit the tree as one commit and force-push it from the checkout as ``branch`` of ``remote``."""
    git("init", "-q", "-b", branch, cwd=tree)
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", f"Student edition of {commit}", cwd=tree)
    git("fetch", "-q", str(tree), f"refs/heads/{branch}")
    published = git("rev-parse", "FETCH_HEAD")
    git("push", "-q", "--force", remote, f"{published}:refs/heads/{branch}")
    return published


#: What the student branch is made from: a change here since its last publication publishes it again.
SOURCES = ("duel_lessons", "notebooks", "docs/rulebooks", "binder", "pyproject.toml", ".ci/publish_student.py")


def last_published(remote: str, branch: str) -> str | None:
    """The commit the remote's student branch was published from (its pin), or None if there is none."""
    fetched = subprocess.run(["git", "fetch", "-q", remote, f"refs/heads/{branch}"], cwd=ROOT, capture_output=True)
    if fetched.returncode != 0:
        return None
    shown = subprocess.run(["git", "show", "FETCH_HEAD:binder/requirements.txt"], cwd=ROOT, capture_output=True,
                           text=True)  # fmt: skip
    pin = re.search(r"^duel-lessons @ \S+@([0-9a-f]{40})$", shown.stdout, re.MULTILINE)
    return pin.group(1) if pin else None


def unchanged_since(commit: str) -> bool:
    """Whether nothing the student branch is made from changed between ``commit`` and HEAD."""
    known = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True)
    if known.returncode != 0:  # not in this clone's history (a shallow clone): publish
        return False
    diff = subprocess.run(["git", "diff", "--quiet", commit, "HEAD", "--", *SOURCES], cwd=ROOT, capture_output=True)
    return diff.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=os.environ.get("GITHUB_REPOSITORY", "duel-lessons/duel-lessons"),
                        help="the GitHub repository OWNER/NAME (for the Binder links; default: $GITHUB_REPOSITORY)")
    parser.add_argument("--package-url", help="where pip fetches this commit (default: https://github.com/REPO)")
    parser.add_argument("--remote", default="origin", help="the checkout's remote to push to (default: origin)")
    parser.add_argument("--branch", default="student", help="the branch to publish (default: student)")
    parser.add_argument("--python", default=sys.executable, help="the Python 3.11 to build the environment with")
    parser.add_argument("--max-mb", type=float, default=600, help="the largest environment allowed (default: 600)")
    parser.add_argument("--lesson-limit", type=float, default=60, help="the longest a lesson may run, in seconds")
    parser.add_argument("--work", help="build here (kept) instead of in a temporary folder")
    parser.add_argument("--no-push", action="store_true", help="build and test only")
    parser.add_argument("--force", action="store_true", help="publish even if nothing changed since the last time")
    args = parser.parse_args(argv)  # fmt: skip

    if git("status", "--porcelain", "--untracked-files=no"):
        raise PublishError("the checkout has uncommitted changes: the branch would not match its commit")
    commit = git("rev-parse", "HEAD")
    previous = None if args.force else last_published(args.remote, args.branch)
    if previous is not None and unchanged_since(previous):
        say(f"the {args.branch} branch was published from {previous[:12]}, and nothing it is made from has "
            f"changed since: nothing to publish (--force publishes anyway)")  # fmt: skip
        return 0
    package = f"duel-lessons @ git+{args.package_url or f'https://github.com/{args.repo}'}@{commit}"
    with tempfile.TemporaryDirectory(prefix="student-") as scratch:
        work = Path(args.work) if args.work else Path(scratch)
        tree, env_dir = work / "branch", work / "env"
        began = time.perf_counter()
        say(f"::: 1. the student branch of {commit[:12]}")
        write_branch(tree, package, args.repo, args.branch)
        say("::: 2. no answers in it")
        hidden = secrets()
        check_no_answers(tree, hidden, f"the {args.branch} branch")
        say("::: 3. its Binder environment, on repo2docker's base")
        env = binder_environment(tree, env_dir, work / "homes", args.python)
        check_installed(env_dir, env, tree, hidden)
        size = size_mb(env_dir)
        if size > args.max_mb:
            raise PublishError(f"the student environment is {size:.0f} MB, more than {args.max_mb:.0f} MB")
        say("::: 4. every lesson, top to bottom")
        run_lessons(tree, env_dir, env, args.lesson_limit)
        if args.no_push:
            say(f"::: built and tested in {time.perf_counter() - began:.0f} s; not pushed (--no-push)")
            return 0
        say(f"::: 5. push to {args.remote} as {args.branch}")
        published = push(tree, commit, args.remote, args.branch)
        say(f"published {published[:12]} as {args.branch} in {time.perf_counter() - began:.0f} s",
            f"students open: https://mybinder.org/v2/gh/{args.repo}/{args.branch}?urlpath=lab/tree/00-start-here.ipynb")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except PublishError as error:
        print(f"publish_student: {error}", file=sys.stderr)
        sys.exit(1)
