"""The API's renewal of a table's links (issue 41): POST /api/v1/tables/{id}/links with the play
token answers the new tokens; the old ones then get 401, and the phones that opened the old links
hold nothing (as the table page's "Renew the links")."""

from __future__ import annotations

from django.utils.translation import gettext as _

from companion.json_api import ApiError, api, error_body, json_answer

from . import services
from .api import WRITE_ERRORS, TableToken, _table, share_urls
from .limits import check_writes


@api.post(
    "/tables/{table_id}/links",
    response={200: dict, **WRITE_ERRORS},
    auth=TableToken(),
    tags=["tables"],
    url_name="renew_table_links",
)
def renew_table_links(request, table_id: str):
    """New play and watch tokens: `{"id", "version", "token", "view_token", "url", "view_url"}`."""
    check_writes(request)
    checked = _table(request, table_id, write=True)
    table = services.renew_links(checked.id, checked.links)
    if table is None:  # renewed meanwhile: the token this call carried is an old one now
        raise ApiError(401, error_body("unauthorized", _("This table needs its token."))["error"])
    answer = {"id": table.id, "version": table.version, "token": table.token, "view_token": table.view_token}
    return json_answer({**answer, **share_urls(table)})
