"""The routes of operations: whether this worker is alive (``GET /healthz``) and ready
(``GET /readyz``: docs/server.md "Health checks"), and Prometheus' metrics (``GET
/metrics``, its own router: ``create_app`` includes it only when it keeps metrics)."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..errors import error_response
from ..ops import metrics as metrics_
from ..ops.health import Health, Readiness, health_responses
from ..ops.worker import worker_id
from ..reader import StrictRoute
from ..web_security import address_allowed

__all__ = ["metrics_router", "router"]

router = APIRouter(route_class=StrictRoute)
metrics_router = APIRouter(route_class=StrictRoute)


@router.get("/healthz", tags=["operations"], responses=health_responses(alive=True),
            response_model_exclude_none=True)
async def healthz() -> Health:
    """The process is alive (it answers): for a supervisor that restarts it when not."""
    return Health(status="ok", worker=worker_id())


@router.get("/readyz", tags=["operations"], response_model=Health,
            responses=health_responses(alive=False))
async def readyz(request: Request) -> Response:
    """Ready to serve: the store answers, the live tables are rebuilt, and every
    service it was given answers (a proxy sends players only to a ready worker); 503
    with the ``reason`` otherwise."""
    readiness: Readiness = request.app.state.readiness
    reason = await readiness.reason()
    if reason is None:
        return JSONResponse(Health(status="ok", worker=worker_id()).model_dump(
            exclude_none=True), headers={"Cache-Control": "no-store"})
    return JSONResponse(Health(status="unavailable", worker=worker_id(),
                               reason=reason).model_dump(), status_code=503,
                        headers={"Cache-Control": "no-store", "Retry-After": "5"})


@metrics_router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request) -> Response:
    """Prometheus' text format (server/ops/metrics.py).  Read-only, and refused to
    another site's page (the browser says so: ``Sec-Fetch-Site``); an operator
    serves it on the private network only (docs/server.md "Metrics":
    ``app.state.metrics_from``)."""
    if request.headers.get("sec-fetch-site") == "cross-site":
        return error_response(403, "cross_site", "the metrics are not for other sites")
    metrics_from: Sequence[str] = request.app.state.metrics_from
    if not address_allowed(request.client.host if request.client else None,
                           metrics_from):  # as if there were none
        return error_response(404, "not_found", "Not Found")
    return Response(metrics_.render(), media_type=metrics_.CONTENT_TYPE,
                    headers={"Cache-Control": "no-store"})
