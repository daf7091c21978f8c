"""The words the browser needs (server/catalog.py): the rules catalogue (``GET
/api/rules``, each option's values in the players' words beside them) and the message
catalogue (``GET /api/texts``), in Russian or English."""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from thousand.words.rules import value_words

from ..catalog import rules_catalog, texts_catalog
from ..reader import StrictRoute
from .models import error_responses

__all__ = ["Lang", "router"]

router = APIRouter(route_class=StrictRoute)

#: The ``lang`` query parameter: the language of the words a route gives.
Lang = Annotated[Literal["ru", "en"], Query(description="ru or en")]


def _with_labels(catalog: dict[str, Any], lang: str) -> dict[str, Any]:
    """The rules catalogue with ``labels``: beside each option's ``values``, each value in
    the players' words (``thousand.words.rules.value_words``: «игрок слева от сдающего»,
    not ``left_of_dealer``), for the new-table form."""
    out = copy.deepcopy(catalog)
    for group in out.get("groups", []):
        for option in group.get("options", []):
            if isinstance(option.get("values"), list) and "labels" not in option:
                option["labels"] = [value_words(option["name"], v, lang)
                                    for v in option["values"]]
    return out


@router.get("/api/rules", responses=error_responses())
async def api_rules(lang: Lang = "ru") -> dict[str, Any]:
    """The rules catalogue in ``lang``: presets, options, their values in words."""
    return _with_labels(rules_catalog(lang), lang)


@router.get("/api/texts", responses=error_responses())
async def api_texts(lang: Lang = "ru") -> dict[str, Any]:
    """The server's message catalogue in ``lang`` (the pages' words for the engine)."""
    return texts_catalog(lang)
