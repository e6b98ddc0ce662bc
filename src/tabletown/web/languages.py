"""Which language a request reads: ``?lang=``, else the ``tt_lang`` cookie (the switch on every
page), else the browser's ``Accept-Language``; English when none of them names one of ours."""

from __future__ import annotations

import functools
from typing import Any

from starlette.requests import HTTPConnection

from ..core.i18n import CORE_DOMAIN, LANGUAGES, catalog, from_accept_language

COOKIE = "tt_lang"
COOKIE_AGE = 365 * 24 * 3600


def request_language(conn: HTTPConnection) -> str:
    for chosen in (conn.query_params.get("lang"), conn.cookies.get(COOKIE)):
        if chosen in LANGUAGES:
            return chosen
    return from_accept_language(conn.headers.get("accept-language"))


def ui_text(lang: str, message: str, **fields: Any) -> str:
    """A message of the pages (templates, scripts) in ``lang``, its ``{fields}`` filled in."""
    text = catalog(CORE_DOMAIN, lang).gettext(message)
    return text.format(**fields) if fields else text


@functools.cache
def script_messages(lang: str) -> dict[str, str]:
    """Every translated message of the shared catalog, for the pages' scripts (``Tabletown.t``)."""
    from .boards import script_messages as messages

    return messages(CORE_DOMAIN, lang)
