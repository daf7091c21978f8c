"""What a player tells of himself on his page (docs/server.md "A player's page"): his
country (a flag) and a short «о себе».

The country is an ISO 3166-1 alpha-2 code of :data:`COUNTRIES` (the pages show its flag
and name it in the reader's language: the browser knows the names); «о себе» is plain
text of at most :data:`MAX_ABOUT` characters, no markup (the pages show it as text), no
control or direction characters, no word of the chat's filter.
"""

from __future__ import annotations

from ..checks import text_problem
from ..errors import ServerError
from .chat_filter import ChatFilter

__all__ = ["COUNTRIES", "MAX_ABOUT", "check_about", "check_country"]

#: The longest «о себе», in characters.
MAX_ABOUT = 300
#: Every assigned ISO 3166-1 alpha-2 code.
COUNTRIES = frozenset(str.split("""
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ
BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS
GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ
MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV
SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
VN VU WF WS YE YT ZA ZM ZW
"""))


def _refuse(field: str, en: str, ru: str) -> ServerError:
    return ServerError("bad_profile", f"{field}: {en}", status=400, field=field, ru=ru)


def check_country(value: str | None) -> str | None:
    """A country's code (upper case), or None for none (``""`` too)."""
    if not value:
        return None
    code = value.strip().upper()
    if code not in COUNTRIES:
        raise _refuse("country", "not an ISO 3166 alpha-2 code",
                      "такой страны нет в списке")
    return code


def check_about(value: str | None, words: ChatFilter) -> str | None:
    """«О себе»: plain text of at most :data:`MAX_ABOUT` characters (line breaks kept,
    spaces trimmed), or None for none."""
    if value is None:
        return None
    text = value.replace("\r\n", "\n").strip()
    if not text:
        return None
    if len(text) > MAX_ABOUT:
        raise _refuse("about", f"at most {MAX_ABOUT} characters",
                      f"«о себе» — не длиннее {MAX_ABOUT} символов")
    problem = text_problem(text.replace("\n", " "))
    if problem:
        raise _refuse("about", problem, "в тексте символ, который нельзя показать")
    words.check(text, "about")
    return text
