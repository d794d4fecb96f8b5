"""Text that cannot lie, for the class tournament and the grader: what students wrote (file
names, exception names, answers) shown on a terminal or put in a spreadsheet without moving
the cursor, clearing the screen, turning the text around, running as a formula or filling
the screen; and ``short``, the bounded ``repr`` every error message shows of what it was
given."""
from __future__ import annotations

import math
import os
import reprlib
import stat
from pathlib import Path


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (``\\x1b``, ``\\n``,
    ``\\u202e``)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def shorten(text: str, most: int) -> str:
    """``text``, or its two ends around '...' when longer than ``most`` (as ``reprlib``)."""
    if len(text) <= most:
        return text
    head = (most - 3) // 2
    return text[:head] + "..." + text[len(text) - (most - 3 - head):]


_REPR = reprlib.Repr()
_REPR.maxstring, _REPR.maxother, _REPR.maxlevel = 60, 60, 3
_REPR.maxlist = _REPR.maxtuple = 8


def short(value) -> str:
    """A ``repr`` of ``value`` at most about 60 characters long, that never recurses deeply
    nor fails (an int too long to print is shown by its number of digits)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"<an int of {int(value.bit_length() * math.log10(2)) + 1} digits>"
    try:
        return _REPR.repr(value)
    except Exception:  # a broken __repr__ (or one that recurses): name the type instead
        return f"<{type(value).__name__} object>"


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet will not run: one starting with = + - @ (or a tab or a
    carriage return) gets a leading single quote, as spreadsheets expect."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# --------------------------------------------------------------- reading students' files

FILE_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a device",
              stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket"}


class Unreadable(ValueError):
    """A student's file that is not read, and why (a phrase: 'is not a regular file but a
    FIFO')."""


def read_regular(path: Path, root: Path, most: int) -> bytes:
    """A regular file's bytes, at most ``most``: opened without blocking (a FIFO cannot hang
    the reader) and checked again once open; never a link out of ``root``."""
    if not path.resolve().is_relative_to(root.resolve()):
        raise Unreadable("points outside the folder")
    try:
        kind = stat.S_IFMT(path.stat().st_mode)
        if kind == stat.S_IFREG:
            with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY),
                           "rb") as stream:
                kind = stat.S_IFMT(os.fstat(stream.fileno()).st_mode)
                data = stream.read(most + 1) if kind == stat.S_IFREG else b""
    except OSError as error:
        raise Unreadable(f"cannot be read: {error.strerror}") from None
    if kind != stat.S_IFREG:
        raise Unreadable(f"is not a regular file but {FILE_KINDS.get(kind, 'a special file')}")
    if len(data) > most:
        raise Unreadable(f"is too long (over {most >> 20} MB)")
    return data
