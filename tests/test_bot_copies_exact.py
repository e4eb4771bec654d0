"""Private bot copies, judged in this process: modes, owners, names, and the folders a worker hides (issue 30).

tests/test_bot_copies.py attacks a live copy from another worker; these tests call
:mod:`duel_lessons.play.bot_copies` directly, in milliseconds.  The copies folder is a fresh one
per test (``_copies`` emptied), and removed afterwards.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import duel_lessons.play.bot_copies as bot_copies

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[object, ...]]]:
    """An empty list of copies folders (the referee's own is left alone), and the exit hooks recorded.

    Afterwards only the folder this test's copies_folder() made is removed: a ``duel-bots-`` folder of the
    temporary folder, and nothing else, whatever a test put in the list.
    """
    registered: list[tuple[object, ...]] = []
    made: list[str] = []
    monkeypatch.setattr(bot_copies, "_copies", made)
    monkeypatch.setattr(bot_copies.atexit, "register", lambda *args: registered.append(args))
    yield registered
    for folder in made:
        path = Path(folder)
        if path.parent == Path(tempfile.gettempdir()) and path.name.startswith("duel-bots-"):
            shutil.rmtree(path, ignore_errors=True)


def mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_copies_folder_is_made_once_others_may_only_pass_through_and_it_goes_at_exit(
    fresh: list[tuple[object, ...]],
) -> None:
    folder = bot_copies.copies_folder()
    assert Path(folder).is_dir() and Path(folder).name.startswith("duel-bots-")
    assert Path(folder).parent == Path(tempfile.gettempdir())
    assert mode(folder) == 0o711
    assert bot_copies.copies_folder() == folder and bot_copies._copies == [folder]
    assert fresh == [(shutil.rmtree, folder, True)]  # once, errors ignored
    (Path(folder) / "left").mkdir()
    function, *args = fresh[0]
    function(*args)  # type: ignore[operator]
    assert not Path(folder).exists()
    function(*args)  # type: ignore[operator]  # twice: still no error


def test_a_private_copy_is_the_source_alone_in_a_folder_of_its_own(fresh: list[tuple[object, ...]]) -> None:
    first = bot_copies.private_copy("/class/bots/alice.py", "def move(state):\n    return 2  # é\n", None)
    second = bot_copies.private_copy("/class/bots/alice.py", "other", None)
    assert first.name == "alice.py" and first.read_text(encoding="utf-8") == "def move(state):\n    return 2  # é\n"
    assert first.parent.parent == Path(bot_copies.copies_folder()) and first.parent.name.startswith("bot-")
    assert first.parent != second.parent and second.read_text() == "other"
    assert mode(first) == 0o600 and mode(first.parent) == 0o700
    assert os.listdir(first.parent) == ["alice.py"]
    assert first.stat().st_uid == os.geteuid()  # no user given: the referee's own
    nameless = bot_copies.private_copy("", "x = 1", None)
    assert nameless.name == "bot.py" and nameless.read_text() == "x = 1"


def test_a_copy_is_written_in_utf_8_whatever_the_locale(fresh: list[tuple[object, ...]]) -> None:
    """A referee started in the C locale (ASCII) still copies a bot whose comments hold an é."""
    import locale

    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        copy = bot_copies.private_copy("accents.py", "# é\n", None)
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert copy.read_bytes() == b"# \xc3\xa9\n"


@pytest.mark.skipif(not ROOT, reason="only root gives a copy to another user")
def test_a_root_referee_gives_the_copy_and_its_folder_to_the_workers_user(fresh: list[tuple[object, ...]]) -> None:
    copy = bot_copies.private_copy("bob.py", "x = 1", 54321)
    for item in (copy, copy.parent):
        assert (item.stat().st_uid, item.stat().st_gid) == (54321, 54321)
    assert mode(copy) == 0o600 and mode(copy.parent) == 0o700


def test_a_copy_never_follows_a_link_or_replaces_a_file(
    fresh: list[tuple[object, ...]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Were the new folder to hold a file or a link already, the copy is refused rather than written through."""
    target = tmp_path / "elsewhere.py"
    target.write_text("teacher's")
    real_mkdtemp = tempfile.mkdtemp

    def planted(*args: object, **kwargs: object) -> str:
        folder = real_mkdtemp(*args, **kwargs)  # type: ignore[call-overload]
        os.symlink(target, Path(folder) / "linked.py")
        (Path(folder) / "existing.py").write_text("before")
        return str(folder)

    monkeypatch.setattr(bot_copies.tempfile, "mkdtemp", planted)
    bot_copies.copies_folder()
    with pytest.raises(FileExistsError):
        bot_copies.private_copy("linked.py", "written", None)
    with pytest.raises(FileExistsError):
        bot_copies.private_copy("existing.py", "written", None)
    assert target.read_text() == "teacher's"


def test_the_folders_to_hide_are_the_bot_folders_and_the_copies_but_never_what_a_worker_needs(
    fresh: list[tuple[object, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    copies = bot_copies.copies_folder()
    monkeypatch.setattr(bot_copies, "python_dirs", lambda: ["/usr/lib/python3", "/opt/venv"])
    monkeypatch.setattr(bot_copies, "PACKAGE", Path("/srv/repo/duel_lessons"))
    monkeypatch.setattr(
        bot_copies,
        "BOT_FOLDERS",
        {"/class/bots", "/class/bots/", "/srv", "/srv/repo", "/usr/lib/python3", "/opt/venv/bots", "/opt/ven",
         "/usr/lib", "/", "/tmp", "/srv/repository", "/usr/libX"},
    )  # fmt: skip
    assert bot_copies.folders_to_hide() == sorted(
        {"/class/bots", "/class/bots/", "/opt/ven", "/opt/venv/bots", "/srv/repository", "/usr/libX", copies}
    )


def test_the_copies_folder_is_hidden_unless_it_holds_the_temporary_folder(
    fresh: list[tuple[object, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_copies, "python_dirs", lambda: [])
    monkeypatch.setattr(bot_copies, "PACKAGE", Path("/srv/repo/duel_lessons"))
    monkeypatch.setattr(bot_copies, "BOT_FOLDERS", set())
    assert bot_copies.folders_to_hide() == [bot_copies.copies_folder()]
    monkeypatch.setattr(bot_copies, "copies_folder", lambda: "/tmp")  # never in _copies: nothing is removed
    assert bot_copies.folders_to_hide() == []
