"""What a box says, read with bounds: a message of at most ``REPLY_BYTES``, decoded as one flat
JSON object (plain values only, no nesting), else ``None``. JSON of any depth, an integer of
any length or a message of any size is a malformed answer, never an exception of ours."""
from __future__ import annotations

import json
import numbers

REPLY_BYTES = 1 << 16  # a longer answer is malformed
TEXT_CHARACTERS = 1000  # a longer string in an answer is cut


def decode(data: bytes) -> dict | None:
    """The flat object ``data`` holds (strings cut to ``TEXT_CHARACTERS``), or ``None``."""
    if not data or len(data) > REPLY_BYTES:
        return None
    try:
        value = json.loads(data)
    except (ValueError, RecursionError, MemoryError):  # RecursionError: '[' * 50000
        return None
    if not isinstance(value, dict):
        return None
    answer = {}
    for key, item in value.items():
        if isinstance(item, str):
            item = item[:TEXT_CHARACTERS]
        elif not (item is None or isinstance(item, (bool, numbers.Real))):
            return None
        answer[key] = item
    return answer
