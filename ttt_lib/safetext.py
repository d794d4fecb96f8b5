"""Text that cannot lie, for the class tournament and the grader: what students wrote (file
names, exception names, answers) shown on a terminal or put in a spreadsheet without moving
the cursor, clearing the screen, turning the text around, running as a formula or filling
the screen."""
from __future__ import annotations


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


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet will not run: one starting with = + - @ (or a tab or a
    carriage return) gets a leading single quote, as spreadsheets expect."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
