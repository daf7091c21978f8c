"""The words of the site's mail (server/ops/mail.py, server/routes/recovery.py): each letter's
subject and text, in Russian and English, with ``{name}``, ``{link}`` and ``{hours}``
marks.  Plain text: a link, what it does, how long it lasts, and what to do if one did
not ask for it."""

from __future__ import annotations

__all__ = ["MAIL_WORDS", "mail_text"]

MAIL_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "ru": {
        "verify": (
            "Тысяча: подтвердите адрес почты",
            "Здравствуйте, {name}!\n\n"
            "Чтобы подтвердить этот адрес для имени «{name}» на сайте игры в Тысячу, "
            "откройте ссылку:\n\n{link}\n\n"
            "Ссылка действует {hours} ч и только один раз. Если вы не указывали этот "
            "адрес, просто не открывайте её: адрес не будет привязан.\n",
        ),
        "reset": (
            "Тысяча: новый пароль",
            "Здравствуйте, {name}!\n\n"
            "Кто-то (надеемся, вы) попросил сменить пароль имени «{name}». Чтобы задать "
            "новый пароль, откройте ссылку:\n\n{link}\n\n"
            "Ссылка действует {hours} ч и только один раз. Если вы не просили, ничего не "
            "делайте: старый пароль остаётся.\n",
        ),
    },
    "en": {
        "verify": (
            "Thousand: confirm your e-mail address",
            "Hello, {name}!\n\n"
            "To confirm this address for the name \"{name}\" on the Thousand site, open "
            "the link:\n\n{link}\n\n"
            "The link works for {hours} h, and once. If you did not give this address, "
            "do not open it: the address will not be added.\n",
        ),
        "reset": (
            "Thousand: a new password",
            "Hello, {name}!\n\n"
            "Someone (we hope you) asked for a new password for the name \"{name}\". To "
            "choose one, open the link:\n\n{link}\n\n"
            "The link works for {hours} h, and once. If you did not ask, do nothing: "
            "your password stays as it is.\n",
        ),
    },
}


def mail_text(lang: str, kind: str, **values: object) -> tuple[str, str]:
    """(subject, text) of the letter ``kind`` (``verify``, ``reset``) in ``lang``
    (Russian for a language the mail does not speak), its marks filled in."""
    subject, body = MAIL_WORDS.get(lang, MAIL_WORDS["ru"])[kind]
    shown = {k: str(v) for k, v in values.items()}
    return subject.format(**shown), body.format(**shown)
