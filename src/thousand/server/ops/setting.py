"""An operator's setting that cannot be used (``thousand serve``'s options: the mail
server, the VAPID key), worded in both languages for the command to print."""

from __future__ import annotations

__all__ = ["SettingError"]


class SettingError(ValueError):
    """What is wrong, in English (``str``) and Russian (:meth:`text`)."""

    def __init__(self, en: str, ru: str) -> None:
        super().__init__(en)
        self.texts = {"en": en, "ru": ru}

    def text(self, lang: str = "ru") -> str:
        return self.texts.get(lang, self.texts["en"])
