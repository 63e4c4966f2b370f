"""Keep secrets out of every log line: a share link carries a token in its path, a table's
(/t/<id>/join/<token>/), a group's member or watch link (/g/<id>/join/<token>/) and a group's
shared sheet (/sheets/shared/<token>/, or ?share=<token> on the API's GET /sheets/{id}).

One redaction for all of them, used by Django's console handler (Django's "Not Found: <path>"
warnings and every other record) and by gunicorn's access and error logs (gunicorn_logging).
tests/web/test_security.py walks every URL pattern with a token in it and checks it is covered.
"""

import logging
import re

SECRET_PATH = re.compile(r"(/[tg]/[\w-]+/join/|/sheets/shared/)[\w-]+")
SECRET_QUERY = re.compile(r"((?:^|[?&])share=)[^&\s\"]+")  # a query string alone too (gunicorn's %(q)s)


def redact(text: str) -> str:
    return SECRET_QUERY.sub(r"\1[token]", SECRET_PATH.sub(r"\1[token]", text))


def _redacted(value):
    return redact(value) if isinstance(value, str) else value


class HideTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(str(record.msg))
        if isinstance(record.args, dict):
            record.args = {key: _redacted(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(_redacted(arg) for arg in record.args)
        return True
