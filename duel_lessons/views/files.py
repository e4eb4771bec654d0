"""Writing a user's file safely: to a temporary name in the same folder, then renamed.

The one place the package writes a file a user may own: the command line's tables and class
reports, student copies and answer keys, the printable PDFs.

* Ctrl-C, a full disk or any error while writing leaves no truncated file: the
  temporary file is removed and the target is untouched.
* An existing file is never overwritten unless ``force`` is given.
* A symbolic link is never written through (or replaced), even with ``force``; an existing
  target must be a regular file to be replaced (never a device, a FIFO or a socket), and an
  empty name is refused (it is not the current folder).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "t.csv", ["n,outcome\\n", "1,P\\n"])
>>> (folder / "t.csv").read_text()
'n,outcome\\n1,P\\n'
>>> write_atomically(folder / "t.csv", ["again"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
duel_lessons.views.files.OutputFileError: ... already exists; add --force to replace it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from duel_lessons.engine.errors import DuelError


class OutputFileError(DuelError):
    """A file that cannot or must not be written."""


def _check_target(path: Path, force: bool) -> None:
    if not str(path).strip() or str(path) == ".":
        raise OutputFileError("The output file name is empty; give a file name, such as table.csv.")
    if path.is_symlink():
        raise OutputFileError(f"{path} is a symbolic link; refusing to write through it. Give the real file name.")
    if path.is_dir():
        raise OutputFileError(f"{path} is a folder; give a file name, such as {path / 'table.csv'}.")
    if path.exists() and not path.is_file():
        raise OutputFileError(f"{path} is not a regular file (a device, a FIFO or a socket); refusing to replace it.")
    if path.exists() and not force:
        raise OutputFileError(f"{path} already exists; add --force to replace it.")
    if not path.parent.is_dir():
        raise OutputFileError(f"Cannot write to {path}: the folder {path.parent} does not exist.")


def check_writable(path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Raise OutputFileError now if ``path`` could not be written later (a long job checks before it starts).

    The same checks as :func:`write_atomically`, and a temporary file made and removed in its folder.

    >>> import tempfile, pathlib
    >>> check_writable(pathlib.Path(tempfile.mkdtemp()) / "missing" / "report.html")
    Traceback (most recent call last):
    ...
    duel_lessons.views.files.OutputFileError: Cannot write to ...: the folder ... does not exist.
    """
    target = Path(path)
    _check_target(target, force)
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as error:
        raise OutputFileError(f"Cannot write to {path}: {error.strerror or error}.") from error
    os.close(fd)
    os.unlink(temp_name)


def write_atomically(path: str | os.PathLike[str], chunks: Iterable[str], *, force: bool = False) -> None:
    """Write the text ``chunks`` (UTF-8, no newline translation) to ``path`` atomically.

    Raises OutputFileError (a DuelError) if the target must not be written, or writing fails.
    """
    with replacing(path, force=force) as temp, open(temp, "w", encoding="utf-8", newline="") as file:
        for chunk in chunks:
            file.write(chunk)
        file.flush()
        os.fsync(file.fileno())


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], *, force: bool = False) -> Iterator[Path]:
    """Give a temporary file's path next to ``path``; when the block ends, rename it into place.

    For writers that need a file name (a PDF, a notebook): whatever the block writes to the
    temporary path becomes ``path`` only if the block ends normally; on an error or Ctrl-C the
    temporary file is removed and ``path`` is untouched. The same checks as
    :func:`write_atomically` (no overwriting without ``force``, never through a link).

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
    >>> with replacing(target) as temp:
    ...     _ = temp.write_text("hello")
    >>> target.read_text()
    'hello'
    """
    if not str(path).strip():
        raise OutputFileError("The output file name is empty; give a file name, such as table.csv.")
    target = Path(path)
    _check_target(target, force)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    temp = Path(temp_name)
    try:
        yield temp
        os.chmod(temp, 0o666 & ~_umask())  # mkstemp makes 0600: give the file the usual permissions
        if force:
            _check_target(target, force)  # still not a link or a folder
            os.replace(temp, target)
        else:
            _rename_without_overwrite(temp, target)
    except FileExistsError:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise OutputFileError(f"{target} already exists; add --force to replace it.") from None
    except OSError as error:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise OutputFileError(f"Cannot write to {target}: {error.strerror or error}.") from None
    except BaseException:  # Ctrl-C, or an error computing the contents: no partial file
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def _rename_without_overwrite(temp: Path, target: Path) -> None:
    try:
        os.link(temp, target)  # fails if the name was taken meanwhile: never overwrites
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then rename
        if os.path.lexists(target):
            raise FileExistsError(target) from None
        os.replace(temp, target)
    else:
        temp.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
