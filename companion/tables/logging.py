"""Keep table tokens out of the logs: a share link carries one in its path (/t/<id>/join/<token>/)."""

import logging
import re

JOIN_PATH = re.compile(r"(/t/[\w-]+/join/)[\w-]+")


def redact(text: str) -> str:
    return JOIN_PATH.sub(r"\1[token]", text)


class HideTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(str(record.msg))
        if record.args:
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True
