"""The presets' names for people, in Russian and English: one table that the message
catalogue (``preset_name``) and the rules' texts (their titles) both read, so that neither
imports the other for it."""

from __future__ import annotations

__all__ = ["PRESET_TITLES"]

#: The presets as players call them: preset -> (English, Russian).  The one home of these
#: titles: ``thousand rules``, the score sheet, ``thousand play``'s first line, the arena
#: and the browser (``/api/texts`` ``preset_titles``, ``/api/rules``) all read them here.
PRESET_TITLES: dict[str, tuple[str, str]] = {
    "classic": ("classic", "классика"),
    "dealer-opens": ("the dealer opens", "сдающий открывает"),
    "house": ("house rules", "домашние правила"),
    "textbook": ("the textbook way, four players", "по самоучителю, вчетвером"),
    "casual": ("the simple way", "попросту"),
    "two": ("two players", "вдвоём"),
}
