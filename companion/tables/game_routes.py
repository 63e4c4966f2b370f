"""Each game folder's own reads of the JSON API (its routes.py: READS, plain functions of one path
parameter), served under /api/v1/games/<slug>/: the app names no game to serve them (issue 44)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from ninja import Router

from companion.games import registry
from companion.json_api import ApiError, ErrorOut, api, error_body

PARAMETER = re.compile(r"\{(\w+)\}")


def mount(router: Router, path: str, code: str, read: Callable[[str], dict]) -> None:
    (parameter,) = PARAMETER.findall(path)

    def answer(request, **path_parameters):
        try:
            return read(path_parameters[parameter])
        except LookupError as missing:  # the read's own sentence for a 404
            raise ApiError(
                404, error_body(code, str(missing.args[0] if missing.args else ""))["error"]
            ) from None

    # ninja reads a view's parameters from its signature: the path's one parameter, a string.
    answer.__signature__ = inspect.Signature(
        [
            inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter(parameter, inspect.Parameter.KEYWORD_ONLY, annotation=str),
        ]
    )
    answer.__name__ = read.__name__
    answer.__doc__ = read.__doc__
    router.get(f"/{path}", response={200: dict[str, Any], 404: ErrorOut})(answer)


for slug in registry.GAMES:
    routes = registry.routes(slug)
    if routes is not None:
        router = Router(tags=[slug])
        for path, (code, read) in routes.READS.items():
            mount(router, path, code, read)
        api.add_router(f"/games/{slug}", router)
