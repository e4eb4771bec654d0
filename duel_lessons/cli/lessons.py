"""The editions of the lessons: ``duel-lessons lessons``, ``student-repo``, ``student-branch`` and ``student-lite``.

The work is done by :mod:`duel_lessons.teaching.editions` (and :mod:`duel_lessons.teaching.lite`); registered in
:data:`duel_lessons.cli.app.COMMANDS`.  Each reads the teacher edition, which is
not installed with the package: a clone of the repository (the one you are in,
or ``--from FOLDER``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from duel_lessons.cli.console import Console
from duel_lessons.cli.options import Subparsers
from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.editions import (
    PROJECT_REPO,
    PROJECT_URL,
    STUDENT_BRANCH,
    student_binder_link,
    write_edition,
    write_student_branch,
    write_student_repo,
)

FROM_HELP = "the teacher edition to copy: a folder holding notebooks/ and docs/ (default: the clone you are in)"

LESSONS_EXAMPLES = f"""\
examples (inside a clone of {PROJECT_URL}):
  duel-lessons lessons my-lessons             the teacher edition: lessons with solutions, guide, answer key
  duel-lessons lessons my-class --student     the student edition: no solutions, teacher notes or answers

The teacher edition is not installed with the package (a student's environment holds no
answers): clone the repository, or download and unpack its archive, and run this inside it."""

STUDENT_REPO_EXAMPLES = """\
examples (inside a clone of the repository, or with --from FOLDER):
  duel-lessons student-repo duel-class --url https://github.com/my-school/duel-class
  duel-lessons student-repo duel-class --url https://github.com/my-school/duel-class --from my-lessons

Then, in DEST: git init -b main && git add . && git commit -m "Student edition"
and push it to the repository at URL. Students open the printed link."""

STUDENT_BRANCH_EXAMPLES = f"""\
example (what .ci/publish_student.py runs, inside a clone, for the workflow that publishes the branch):
  duel-lessons student-branch student --repo {PROJECT_REPO} \\
      --package "duel-lessons @ git+{PROJECT_URL}@COMMIT"

DEST gets the student copies at the top, docs/rulebooks/, a README with the branch's Binder
link, and binder/ pinning PACKAGE: push DEST as branch {STUDENT_BRANCH} of REPO."""


STUDENT_LITE_EXAMPLES = """\
examples (inside a clone, with the lite extra: pip install -e '.[lite]'):
  duel-lessons student-lite site                 build the site into site/ (a new folder)
  python -m http.server -d site 8000             try it: open http://localhost:8000/lab/index.html

DEST is a static web site: put it on any web host (GitHub Pages: the student workflow builds it).
It holds the student copies (each with a first cell that installs duel-lessons from the site when it
runs in JupyterLite), the rule books, the package's wheel and the widget front ends; no solutions,
teacher notes, answer key or teacher guide. When the page runs, the browser fetches Python (Pyodide)
and its packages from the Pyodide CDN, and the remaining pure-Python packages from PyPI."""


def configure_lessons(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``lessons``."""
    parser.epilog = LESSONS_EXAMPLES
    parser.add_argument("dest", metavar="DEST", help="the folder to copy into (no file in it is overwritten)")
    parser.add_argument(
        "--student", action="store_true", help="the student edition: no solutions, teacher notes, guide or answer key"
    )
    parser.add_argument("--from", dest="source", metavar="FOLDER", help=FROM_HELP)


def run_lessons(args: argparse.Namespace, io: Console) -> int:
    """Copy an edition of the lessons out of the teacher edition."""
    dest = Path(args.dest)
    try:
        written = write_edition(dest, student=args.student, source=args.source)
    except OSError as error:
        raise DuelError(f"Cannot write the lessons to {dest}: {error}") from None
    edition = "student" if args.student else "teacher"
    lessons = sum(1 for path in written if path.suffix == ".ipynb")
    io.say(f"Wrote the {edition} edition to {dest}: {lessons} notebooks and {len(written) - lessons} documents.")
    io.say(f"Open it with: jupyter lab {dest}  (then notebooks/00-start-here.ipynb)")
    return 0


def configure_student_repo(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``student-repo``."""
    parser.epilog = STUDENT_REPO_EXAMPLES
    parser.add_argument("dest", metavar="DEST", help="the folder to write the repository into (nothing is overwritten)")
    parser.add_argument("--url", help="the address students' copies are pulled from, e.g. https://github.com/you/class")
    parser.add_argument("--branch", default="main", help="the branch of URL holding the lessons (default: main)")
    parser.add_argument("--from", dest="source", metavar="FOLDER", help=FROM_HELP)


def run_student_repo(args: argparse.Namespace, io: Console) -> int:
    """Write a student content repository and print its nbgitpuller Binder link."""
    try:
        written, link = write_student_repo(args.dest, args.url, args.branch, args.source)
    except OSError as error:
        raise DuelError(f"Cannot write the student repository to {args.dest}: {error}") from None
    lessons = sum(1 for path in written if path.suffix == ".ipynb")
    io.say(f"Wrote a student repository to {args.dest}: {lessons} student copies, the rule books and a README.")
    io.say("No solutions, teacher notes, answer key or teacher guide.")
    if link is None:
        io.say(
            "Push it to a repository of your own and run this again with --url to get its link.",
            f"This project's own student edition (branch {STUDENT_BRANCH}) opens with:",
            student_binder_link(),
        )
    else:
        io.say(f"Push it to {args.url} (branch {args.branch}); students then open:", link)
    return 0


def configure_student_branch(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``student-branch``."""
    parser.epilog = STUDENT_BRANCH_EXAMPLES
    parser.add_argument("dest", metavar="DEST", help="the folder to write the branch into (nothing is overwritten)")
    parser.add_argument(
        "--package",
        required=True,
        help='the pip requirement the branch\'s Binder installs, pinned: "duel-lessons @ git+URL@COMMIT"',
    )
    parser.add_argument(
        "--repo", default=PROJECT_REPO, help=f"the GitHub repository OWNER/NAME of the branch (default: {PROJECT_REPO})"
    )
    parser.add_argument("--branch", default=STUDENT_BRANCH, help=f"the branch's name (default: {STUDENT_BRANCH})")
    parser.add_argument("--from", dest="source", metavar="FOLDER", help=FROM_HELP)


def run_student_branch(args: argparse.Namespace, io: Console) -> int:
    """Write a self-contained student branch (lessons, rule books, README, binder/) and print its Binder link."""
    try:
        written, link = write_student_branch(args.dest, args.package, args.repo, args.branch, args.source)
    except OSError as error:
        raise DuelError(f"Cannot write the student branch to {args.dest}: {error}") from None
    lessons = sum(1 for path in written if path.suffix == ".ipynb")
    io.say(f"Wrote a student branch to {args.dest}: {lessons} student copies, the rule books, a README and binder/.")
    io.say(f"Push it as branch {args.branch} of {args.repo}; students then open:", link)
    return 0


def configure_student_lite(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``student-lite``."""
    parser.epilog = STUDENT_LITE_EXAMPLES
    parser.add_argument("dest", metavar="DEST", help="the folder to build the site into (must not exist)")
    parser.add_argument("--from", dest="source", metavar="FOLDER", help=FROM_HELP)
    parser.add_argument(
        "--wheel", metavar="FILE", help="a built duel_lessons-*.whl to bundle (default: built from the clone with pip)"
    )
    parser.add_argument("--force", action="store_true", help="replace DEST if it is a site this command made")


def run_student_lite(args: argparse.Namespace, io: Console) -> int:
    """Build the JupyterLite edition: a static site of the student copies, the wheel and the widget front ends."""
    from duel_lessons.teaching.lite import write_lite_site

    try:
        site = write_lite_site(args.dest, args.source, args.wheel, force=args.force)
    except OSError as error:
        raise DuelError(f"Cannot build the JupyterLite site in {args.dest}: {error}") from None
    io.say(f"Built a JupyterLite site in {site.folder}: {len(site.lessons)} student copies and {site.wheel}.")
    io.say("No solutions, teacher notes, answer key or teacher guide. Serve the folder from any static web host;")
    io.say(
        f"to try it here: python -m http.server -d {site.folder} 8000, then open http://localhost:8000/lab/index.html"
    )
    return 0


def add_parser(subparsers: Subparsers) -> None:
    """Add ``lessons``, ``student-repo``, ``student-branch`` and ``student-lite``."""
    for name, summary, configure, run in (
        (
            "lessons",
            "copy the lessons out of a clone: the teacher edition, or --student",
            configure_lessons,
            run_lessons,
        ),
        (
            "student-repo",
            "write a content repository of student copies, and print its Binder link",
            configure_student_repo,
            run_student_repo,
        ),
        (
            "student-branch",
            "write a self-contained student branch with its own Binder environment",
            configure_student_branch,
            run_student_branch,
        ),
        (
            "student-lite",
            "build a JupyterLite site of the student copies (Python in the browser, no server)",
            configure_student_lite,
            run_student_lite,
        ),
    ):
        parser = subparsers.add_parser(
            name, help=summary, description=summary, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        configure(parser)
        parser.set_defaults(func=run)
