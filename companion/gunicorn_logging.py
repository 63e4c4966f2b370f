"""gunicorn's logs without tokens: share links (a table's, a group's) carry one in their path, and
the Referer of the page a share link redirected to may too. gunicorn's own access lines go through atoms();
uvicorn's workers write theirs through gunicorn's handlers, which get the same filter."""

from gunicorn.glogging import Logger

from companion.log_redaction import HideTokens, redact


class TokenFreeLogger(Logger):
    def setup(self, cfg):
        super().setup(cfg)
        for handler in (*self.access_log.handlers, *self.error_log.handlers):
            handler.addFilter(HideTokens())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "q", "f", "{referer}i"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms
