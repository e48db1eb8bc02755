"""Only the hub's own pages can change anything [issue 17].

A browser attaches the GM's cookie and a phone's seat cookie to any request
for this host, whichever page sent it; SameSite=Strict stops other sites but
not a page of the same host on another port, and a `no-cors` fetch can still
send a text/plain body. So every state-changing request (POST, PUT, PATCH,
DELETE, on the GM's routes and the seats' alike) must

- say `Content-Type: application/json`: another origin can only send that
  after a CORS preflight, which this hub never grants; and
- carry an `Origin` equal to this hub's own (`scheme://host:port` as the
  request reached it), or none at all: every browser sends `Origin` on such
  requests, so a request without one is a script (`curl`, the bench, the
  bearer token's users), which no cookie of a victim's browser rides on.

Anything else is 403 before the route runs, so it changes nothing.
"""

from __future__ import annotations

from flask import request

from .common import Forbidden

#: the methods that change something (GET/HEAD/OPTIONS never do here)
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def own_pages_only() -> None:
    """`before_request`: refuse a state-changing request a page of another
    origin could have sent (403, with what was wrong)."""
    if request.method not in CHANGING or request.routing_exception is not None:
        return  # reads change nothing; no route (404, 405) runs nothing
    if request.mimetype != "application/json":
        got = request.mimetype or "none"
        raise Forbidden(f"send Content-Type: application/json (got {got})")
    origin = request.headers.get("Origin")
    if origin is not None and origin != own_origin():
        raise Forbidden(f"requests from {origin[:80]} are refused: "
                        "only the hub's own pages may act")
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise Forbidden(f"a {site[:20]} request is refused: only the hub's own pages may act")


def own_origin() -> str:
    """This hub's origin as the request reached it (`http://192.168.4.1:8000`)."""
    return f"{request.scheme}://{request.host}"
