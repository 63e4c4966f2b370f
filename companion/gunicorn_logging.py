"""gunicorn's access log without table tokens: share links carry one in their path, and the
Referer of the page a share link redirected to may too."""

from gunicorn.glogging import Logger

from companion.tables.logging import redact


class TokenFreeLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f", "{referer}i"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms
