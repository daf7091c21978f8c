"""The pages' words of presence, challenges and friends (web/presence.js, web/friends.js),
Russian first, English; :data:`thousand.words.pages.PAGE_WORDS` takes them in, so that
the pages find them as every other word (``t``)."""

from __future__ import annotations

__all__ = ["SOCIAL_WORDS"]

SOCIAL_WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "nav_friends": "Друзья",
        "presence_title": "Кто здесь",
        "presence_counts": (
            "Онлайн: {online} (в лобби {lobby}, ждут за столом {waiting}, играют {playing})"
        ),
        "presence_nobody": "Кроме вас, никого нет.",
        "presence_more": "…и ещё {n}",
        "presence_unnamed": (
            "Вас не видно другим, пока у вас нет имени: укажите его в форме стола."
        ),
        "presence_lost": "Связь со списком игроков потеряна; восстанавливаем…",
        "status_lobby": "в лобби",
        "status_waiting": "ждёт игроков за столом",
        "status_playing": "играет",
        "presence_you": "это вы",
        "watch_game": "Смотреть игру",
        "challenge_button": "Сыграть с {name}",
        "challenge_title": "Вызов: {name}",
        "challenge_bots": "Уровень ботов на остальных местах",
        "challenge_send": "Вызвать",
        "challenge_close": "Отмена",
        "challenges_in": "Вас вызывают",
        "challenges_out": "Ваши вызовы",
        "challenge_from": "{name} зовёт вас сыграть: {preset}",
        "challenge_to": "Вы позвали {name}: {preset}",
        "challenge_accept": "Принять",
        "challenge_decline": "Отклонить",
        "challenge_cancel": "Отозвать",
        "challenge_sent": "Вызов отправлен: {name}.",
        "challenge_new": "{name} зовёт вас сыграть.",
        "challenge_declined": "{name} отклонил(а) вызов.",
        "challenge_cancelled": "{name} отозвал(а) вызов.",
        "challenge_accepted": "Вызов принят: идём за стол.",
        "challenge_failed": "Не получилось: {why}",
        "friends_title": "Друзья",
        "friends_lead": (
            "Игроки, за которыми вы следите: кто из них здесь и во что играет. Заблокированный "
            "игрок не может вас вызвать, его сообщения в чате вам не видны, а быстрая игра "
            "не посадит вас за один стол."
        ),
        "follows_title": "Вы следите",
        "blocks_title": "Заблокированы",
        "follows_none": "Вы пока ни за кем не следите: нажмите «Следить» в списке «Кто здесь».",
        "blocks_none": "Никто не заблокирован.",
        "friend_offline": "не в сети",
        "follow": "Следить за {name}",
        "unfollow": "Не следить за {name}",
        "block": "Заблокировать {name}",
        "unblock": "Разблокировать {name}",
        "social_settings": "Настройки",
        "hide_presence": "Скрывать, что я в сети",
        "strangers_ok": "Принимать вызовы от всех (иначе — только от тех, за кем я слежу)",
        "social_saved": "Сохранено.",
        "social_need_session": "Откройте лобби, чтобы стать гостем или войти.",
    },
    "en": {
        "nav_friends": "Friends",
        "presence_title": "Who is here",
        "presence_counts": (
            "Online: {online} (in the lobby {lobby}, waiting at a table {waiting}, "
            "playing {playing})"
        ),
        "presence_nobody": "Nobody else is here.",
        "presence_more": "…and {n} more",
        "presence_unnamed": (
            "Others cannot see you until you have a name: give it in the table form."
        ),
        "presence_lost": "Lost the list of players; reconnecting…",
        "status_lobby": "in the lobby",
        "status_waiting": "waiting for players at a table",
        "status_playing": "playing",
        "presence_you": "you",
        "watch_game": "Watch the game",
        "challenge_button": "Play {name}",
        "challenge_title": "Challenge: {name}",
        "challenge_bots": "Level of the bots in the other seats",
        "challenge_send": "Challenge",
        "challenge_close": "Cancel",
        "challenges_in": "Challenges to you",
        "challenges_out": "Your challenges",
        "challenge_from": "{name} asks you to play: {preset}",
        "challenge_to": "You asked {name}: {preset}",
        "challenge_accept": "Accept",
        "challenge_decline": "Decline",
        "challenge_cancel": "Withdraw",
        "challenge_sent": "Challenge sent: {name}.",
        "challenge_new": "{name} asks you to play.",
        "challenge_declined": "{name} declined the challenge.",
        "challenge_cancelled": "{name} withdrew the challenge.",
        "challenge_accepted": "Challenge accepted: to the table.",
        "challenge_failed": "It did not work: {why}",
        "friends_title": "Friends",
        "friends_lead": (
            "The players you follow: who of them is here and what they play. A blocked "
            "player cannot challenge you, you do not see his chat, and quick play does not "
            "seat you at one table."
        ),
        "follows_title": "You follow",
        "blocks_title": "Blocked",
        "follows_none": "You follow nobody yet: press «Follow» in the «Who is here» list.",
        "blocks_none": "Nobody is blocked.",
        "friend_offline": "offline",
        "follow": "Follow {name}",
        "unfollow": "Unfollow {name}",
        "block": "Block {name}",
        "unblock": "Unblock {name}",
        "social_settings": "Settings",
        "hide_presence": "Hide that I am online",
        "strangers_ok": "Take challenges from anyone (else only from the players I follow)",
        "social_saved": "Saved.",
        "social_need_session": "Open the lobby to become a guest or sign in.",
    },
}
