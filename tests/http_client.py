"""One HTTP client for the requests the process tests make of the servers they start.

``httpx.get`` builds a client per call, and with it a TLS context that reads the CA bundle:
some 30 ms of CPU a request, even to ``http://``.  In a readiness poll every 50 ms that is
more than half a core for as long as a server takes to start (three workers at once: most
of what a cluster's start cost the test).  This client is built once; it keeps no
connection, so a server killed between two requests costs nothing but a refused
connection, and each request reaches whichever worker accepts it (``--workers N``); and it
keeps no cookie, so each request is a stranger's, as ``httpx.get``'s was (a session is a
client of its own: ``httpx.Client(base_url=…, verify=TLS)``, where :data:`TLS` spares it
the CA bundle's reading too).
"""

from __future__ import annotations

import ssl
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx

#: The TLS context of every client the tests make (they speak plain HTTP to loopback, but
#: a client builds one all the same): made once.
TLS = ssl.create_default_context()

HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0), verify=TLS,
                    cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])))
