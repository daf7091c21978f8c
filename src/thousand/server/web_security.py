"""What the browser is told and asked so that another site cannot use it against us
(docs/server.md "Security"): the Content-Security-Policy, the cookies' names, and the
check of a state-changing request's origin.

- **CSP.** The pages are files of this server with no inline script and no inline style
  (the scripts are ``web/*.js``): :data:`CONTENT_SECURITY_POLICY` lets only those run,
  so that a name or a chat line that slipped into markup could not run as script.
- **Cookies.** Over https a cookie is named ``__Host-<name>``: the browser then takes it
  only when it is Secure, for the whole site (``Path=/``) and set by this host itself (no
  ``Domain``), so that a sibling subdomain cannot plant a session or a CSRF cookie.
- **Origin.** A POST, PUT, PATCH or DELETE under ``/api/`` coming from another site's
  page is refused (403 ``cross_site``) by the browser's own word: ``Sec-Fetch-Site``
  (``same-origin`` or ``none``: typed or bookmarked), else ``Origin`` (scheme, host and
  port equal to this server's).  A program sends neither and is not refused: it has no
  ambient authority (cookies) to abuse.
- **Private routes.** ``/metrics`` answers only the addresses of
  :data:`PRIVATE_NETWORKS` (or those an operator names: ``--metrics-from``), so that a
  server reached directly from the internet does not tell everybody how busy it is.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection, Request

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "PRIVATE_NETWORKS",
    "address_allowed",
    "cookie_name",
    "cross_site_refusal",
    "same_origin",
]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; media-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_WEB_SCHEME = {"ws": "http", "wss": "https"}


def _secure(conn: HTTPConnection) -> bool:
    return conn.url.scheme in ("https", "wss")


def cookie_name(conn: HTTPConnection, base: str) -> str:
    """The name of the cookie ``base`` on this connection: ``__Host-`` before it over
    https (and wss), as it is on plain http (where the prefix is refused by browsers)."""
    return f"__Host-{base}" if _secure(conn) else base


def same_origin(origin: str | None, conn: HTTPConnection) -> bool:
    """Whether ``origin`` (a page's ``Origin`` header) is this server as ``conn`` reached
    it: the same scheme (a WebSocket's ws/wss as http/https), host and port (default
    ports filled in).  No ``Origin`` at all is a program's request: allowed."""
    if origin is None:
        return True
    host = conn.headers.get("host")
    if not host:
        return False
    scheme = _WEB_SCHEME.get(conn.url.scheme, conn.url.scheme)
    try:
        page = urlsplit(origin)
        here = urlsplit(f"//{host}")
        page_port = page.port or _DEFAULT_PORTS.get(page.scheme)
        here_port = here.port or _DEFAULT_PORTS.get(scheme)
    except ValueError:
        return False
    return (bool(page.hostname) and page.scheme == scheme
            and page.hostname == here.hostname and page_port == here_port)


def cross_site_refusal(request: Request) -> JSONResponse | None:
    """The 403 for a state-changing API request from another site's page, else None."""
    if request.method not in _UNSAFE or not request.url.path.startswith("/api/"):
        return None
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        allowed = site in ("same-origin", "none")
    else:
        allowed = same_origin(request.headers.get("origin"), request)
    if allowed:
        return None
    return JSONResponse({"error": {
        "code": "cross_site",
        "message": "a request from another site's page is refused",
        "ru": "запрос со страницы другого сайта отклонён"}}, status_code=403)


#: Who may read ``/metrics`` unless told otherwise: loopback and the private networks
#: (RFC 1918, unique local IPv6), where Prometheus scrapes the workers.
PRIVATE_NETWORKS = ("127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12",
                    "192.168.0.0/16", "fc00::/7")


def address_allowed(host: str | None, networks: Sequence[str]) -> bool:
    """Whether the client address ``host`` is in one of ``networks`` (CIDR notation; an
    IPv4 address mapped into IPv6 counts as itself)."""
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in ipaddress.ip_network(n, strict=False) for n in networks)
