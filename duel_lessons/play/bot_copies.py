"""Bot files as the referee reads them, and the private copy each worker gets of its own bot only.

A bot file is read once, as a regular file of bounded size (:func:`read_bot_source`); each worker
then runs from :func:`private_copy`, a 0600 file in a 0700 folder of its own, owned by the worker's
user, so that no bot can read another's source by path in any set-up.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from duel_lessons.play.isolation import PACKAGE, python_dirs
from duel_lessons.play.referee import BOT_FOLDERS as BOT_FOLDERS
from duel_lessons.play.referee import MAX_BOT_FILE as MAX_BOT_FILE
from duel_lessons.play.referee import read_bot_source as read_bot_source

_copies: list[str] = []


def copies_folder() -> str:
    """This referee's folder of private bot copies (made once, removed at exit); others may only pass through."""
    if not _copies:
        folder = tempfile.mkdtemp(prefix="duel-bots-")
        os.chmod(folder, 0o711)
        _copies.append(folder)
        atexit.register(shutil.rmtree, folder, True)
    return _copies[0]


def private_copy(name: str, source: str, uid: int | None) -> Path:
    """A copy of a bot file for one worker only: ``name`` (0600) in a folder of its own (0700), both owned
    by the worker's user when a root referee gives it one.  No other bot can read it by path: bubblewrap
    binds only this folder into its own worker, another user may not enter it, and without bubblewrap a
    worker's root of its own holds no copies folder (where the kernel allows a mount namespace)."""
    folder = Path(tempfile.mkdtemp(prefix="bot-", dir=copies_folder()))
    path = folder / (Path(name).name or "bot.py")
    # O_EXCL with O_CREAT never writes through a link or over a file: both fail with FileExistsError.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(source)
    if uid is not None:
        for item in (path, folder):
            os.chown(item, uid, uid)
    return path


def folders_to_hide() -> list[str]:
    """The bot folders and the copies folder, except any that holds what a worker needs (Python, the package)."""
    needed = [*python_dirs(), str(PACKAGE.parent), "/tmp"]
    hide = []
    for folder in sorted({*BOT_FOLDERS, copies_folder()}):
        if not any(n == folder or n.startswith(folder.rstrip("/") + "/") for n in needed):
            hide.append(folder)
    return hide
