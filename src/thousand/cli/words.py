"""The command line's own words in Russian: its usage errors and every command's help.

The English of the command line is Typer's and Click's (the options' ``help=`` in each
command module); a person who reads Russian gets the same in Russian, chosen by
``--lang ru`` on the command line or by the command's own default language (``play``,
``rules`` and ``serve`` speak Russian unless told otherwise).  Click words its errors
itself, so :func:`usage_error` reads what an error says (the kind of error, the option,
the value typed) and words it here; :func:`russian_help` writes a command's help from its
options and :data:`HELP`.  A command or option without a Russian help here is a test
failure (tests/test_language.py), so a new option cannot slip in untranslated.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Sequence
from typing import Any

from thousand.terminal.autosave import saves_dir

#: Where ``thousand play`` saves a game after every move (thousand.terminal.autosave).
_SAVES = saves_dir()

#: ``thousand admin``'s ``--db``, the same for each of its subcommands.
_ADMIN_DB = ("База данных сервера: любой URL SQLAlchemy (по умолчанию — та же, что у "
             "thousand serve: SQLite в ~/.local/share/thousand/thousand.db).")

#: Every command's help in Russian: command -> {"": what it does, option's name: help}.
#: The root ``thousand`` is the command "".
HELP: dict[str, dict[str, str]] = {
    "": {
        "": "Тысяча: играть в карточную игру, проверять записи партий и изучать ботов.",
        "version": "Показать версию и выйти.",
    },
    "rules": {
        "": "Показать правила (набор правил и изменения --set) или объяснить одно правило.",
        "preset": "Набор правил: classic, dealer-opens, house, textbook или casual.",
        "sets": "Изменить правило: имя=значение (можно несколько раз).",
        "lang": "Язык: ru или en.",
        "explain_option": "Объяснить одно правило (по его имени для --set).",
        "ids": "Называть правила так, как их пишут --set и записи партий.",
        "as_json": "Вывести правила в JSON.",
    },
    "replay": {
        "": "Проверить запись партии ход за ходом и показать запись счёта.",
        "file": "Запись партии (JSON, RULES §6); - — читать из стандартного ввода.",
        "as_json": "Вывести результат в JSON (RULES §6).",
        "lang": "Язык: ru или en (без него запись счёта по-русски, ошибки по-английски).",
    },
    "analyse": {
        "": "Разобрать сыгранную партию: цена каждого решения, отмеченные ошибки, итог по "
            "игрокам.",
        "file": "Запись партии или сохранение (JSON); - — читать из стандартного ввода.",
        "as_json": "Вывести разбор в JSON (docs/analysis.schema.json).",
        "lang": "Язык: ru или en.",
        "seat": "Разобрать это место (от 0; можно несколько раз). Без него — все.",
        "deal": "Разобрать эту раздачу (от 1; можно несколько раз). Без него — все.",
        "open_only": "Только оценки с открытыми картами (быстро).",
        "samples": "Сколько раскладов, совместимых с картами игрока, разыгрывать на решение.",
        "seed": "Зерно выборки раскладов.",
        "jobs": "Процессов (раздачи делятся между ними).",
        "everything": "Показать все решения с выбором, а не только отмеченные.",
    },
    "exercises": {
        "": "Решить заново самые дорогие ходы игрока из его партий («Найдите лучший ход»).",
        "files": "Записи или сохранения партий.",
        "seat": "Место игрока (без него — ваше место в сохранении или место «Вы»; иначе "
                "ходы всех игроков).",
        "lang": "Язык: ru или en.",
        "limit": "Не больше стольких упражнений.",
        "samples": "Сколько раскладов разбирать на каждый ход.",
        "open_only": "Только анализ в открытую (быстрый).",
    },
    "play": {
        "": "Сыграть партию в Тысячу в терминале против ботов (игра сохраняется после "
            "каждого хода).",
        "preset": "Набор правил: classic, dealer-opens, house, textbook или casual; two — "
                  "игра вдвоём против одного бота (по умолчанию classic).",
        "sets": "Изменить правило: имя=значение (можно несколько раз).",
        "bots": "Уровень ботов-соперников: УРОВЕНЬ[,УРОВЕНЬ...] (по умолчанию heuristic — "
                "«любитель»).",
        "lang": "Язык: ru или en (по умолчанию ru).",
        "seed": "Номер партии: с ним раздачи повторяются.",
        "save": "Сохранять игру в этот файл после каждого хода (без него — в новый файл в папке "
                f"{_SAVES}); --resume продолжит её.",
        "open_hands": "Открытые карты: все руки видны (тренировка).",
        "seat": "Ваше место, от 0 до n-1 (по умолчанию 0; первого сдающего выбирает жребий).",
        "names": "Имена игроков через запятую, по местам.",
        "preset_option": "Набор правил (как ПРАВИЛА): classic, dealer-opens, house, textbook "
                         "или casual; two — игра вдвоём против одного бота.",
        "plain": "Построчный режим вместо полноэкранного стола (для экранного диктора; в "
                 "канал он и так построчный).",
        "resume": "Продолжить сохранённую игру с последнего хода, с её ботами и правилами; "
                  f"без файла — последнюю незаконченную из {_SAVES}.",
        "analyse": "В конце игры разобрать ваши решения, не спрашивая (или никогда; без "
                   "флага — спросить).",
        "analysis_samples": "Сколько раздач перебирает анализ на каждое решение; 0 — "
                            "только в открытую (быстро, для проверок).",
    },
    "arena": {
        "": "Боты играют между собой много партий; таблица показывает, кто выигрывает и "
            "как торгуется.",
        "bots": "Уровень бота для каждого места, например heuristic,random,random.",
        "seat": "Место N (от 0; его место в --bots) занимает БОТ: уровень, cmd:КОМАНДА — "
                "программа, говорящая строками JSON (docs/bots.md), или "
                "openspiel:ismcts[:СЕКУНДЫ] / openspiel:mcts[:СЕКУНДЫ] — поиск OpenSpiel "
                "(docs/research.md). Можно несколько раз; --bots называет все места или "
                "оставшиеся свободными.",
        "move_timeout": "Время внешнего бота на каждый ход.",
        "games": "Сколько партий (с --duplicate — сколько наборов раздач).",
        "preset": "Набор правил.",
        "sets": "Изменить правило: имя=значение (можно несколько раз).",
        "seed": "Номер для раздач: с ним они повторяются.",
        "jobs": "Сколько процессов играют (0 — по одному на процессор).",
        "save": "Сохранять сюда запись каждой партии.",
        "quiet": "Без полосы хода работы.",
        "duplicate": "Сдавать каждый набор карт для каждой рассадки ботов, чтобы везение "
                     "в картах взаимно сокращалось; -n считает наборы.",
        "whole_games": "С --duplicate: сыграть ещё столько целых партий на рассадку "
                       "(доля побед).",
        "resume": "С --duplicate --save: продолжить сохранённый прогон.",
        "lang": "Язык отчёта и сообщений: ru или en.",
    },
    "verify": {
        "": "Сверить раздачи записи с хешами, которые стол опубликовал заранее.",
        "file": "Запись партии (JSON); - — читать из стандартного ввода.",
        "lang": "Язык: ru или en.",
    },
    "tournament": {
        "": "Боты играют турнир; таблица показывает места и рейтинги.",
        "bots": "Боты-участники (уровень может повторяться), например "
                "random,beginner,heuristic,strong.",
        "rounds": "Сколько туров.",
        "format": "round-robin (каждая пара встречается так ровно, как позволяют туры) "
                  "или swiss (столы по положению в таблице).",
        "scoring": "places (очки за места за каждым столом) или duplicate (все столы тура "
                   "получают одни и те же карты; место по счёту за вычетом среднего у "
                   "других, державших те же карты).",
        "deals": "Каждый стол играет N раздач вместо целой партии.",
        "games": "Каждый стол играет целую партию (так и без этого параметра).",
        "preset": "Набор правил.",
        "sets": "Изменить правило: имя=значение (можно несколько раз).",
        "seed": "Номер для жеребьёвки и раздач (без него — случайный, его напечатают).",
        "jobs": "Сколько процессов играют (0 — по одному на процессор).",
        "as_json": "Вывести результат в JSON.",
        "quiet": "Без полосы хода работы.",
        "lang": "Язык отчёта и сообщений: ru или en.",
    },
    "serve": {
        "": "Сервер игры для браузеров: столы с людьми и ботами, чат, повторы партий.",
        "host": "Адрес, на котором слушать.",
        "port": "Порт (0 — любой свободный).",
        "db": "База данных: любой адрес SQLAlchemy (по умолчанию SQLite в папке данных "
              "пользователя).",
        "no_browser": "Не открывать браузер.",
        "bot_delay": "Сколько секунд бот ждёт перед ходом.",
        "bots_threads": "Сколько потоков думают за ботов (при --bot-processes 0).",
        "bot_processes": "Сколько процессов думают за ботов и подсказки, с меньшим "
                         "приоритетом, чтобы ходы людей шли первыми (0 — потоки сервера).",
        "log_level": "Подробность журнала: warning, info или debug.",
        "lang": "Язык сообщений об ошибках: ru или en.",
        "waiting_timeout": "Сколько секунд стол, ждущий игроков, может стоять пустым, "
                           "прежде чем его закроют (0 — никогда).",
        "adjourn_after": "Сколько секунд без хода и без людей за столом, прежде чем партию "
                         "отложат (0 — никогда).",
        "trusted_proxy": "Адрес обратного прокси, чей X-Forwarded-For даёт адрес клиента "
                         "(можно несколько раз).",
        "limit_specs": "ИМЯ=ЧАСТОТА (например table=10/minute;60/hour, частоты CLIENT|ADDRESS "
                       "или off): ограничение на клиента (docs/server.md).",
        "limits_storage": "Где считать ограничения: memory:// или redis://host:port "
                          "(по умолчанию — в Redis из --redis, иначе memory://).",
        "max_tables": "Сколько живых столов сервер держит самое большее; у предела первыми "
                      "заканчиваются простаивающие столы тех, у кого их больше всех.",
        "no_limits": "Не ограничивать клиентов (свой сервер для друзей; тесты).",
        "log_format": "text (для людей) или json (объект на строку, с номером воркера: "
                      "для хранилища журналов).",
        "no_metrics": "Без метрик Prometheus на /metrics.",
        "metrics_from": "Сеть (CIDR), клиентам которой открыт /metrics (можно несколько; "
                        "по умолчанию: loopback и частные сети).",
        "redis": "redis://host:port/db: один из нескольких процессов, которые делят столы "
                 "через этот Redis и базу PostgreSQL из --db (docs/server.md, «Many "
                 "workers»).",
        "redis_prefix": "Приставка всех ключей и каналов Redis.",
        "workers": "Сколько процессов-воркеров слушают этот порт (больше одного — только "
                   "с --redis).",
        "worker_id_opt": "Имя этого воркера (по умолчанию хост-pid); при --workers N у "
                         "каждого ИМЯ-pid.",
        "lease_ttl": "Сколько секунд воркер держит стол без продления (несколько "
                     "воркеров): потом стол забирает другой.",
        "smtp": "Почтовый сервер: smtp://user:password@host:587?starttls=1 или "
                "smtps://…:465; без него адреса почты и восстановление пароля выключены "
                "(или переменная THOUSAND_SMTP).",
        "mail_from": "Адрес отправителя писем (по умолчанию noreply@ хост --public-url; "
                     "или THOUSAND_MAIL_FROM).",
        "public_url": "Адрес сайта, как его открывают игроки (https://example.org): из "
                      "него делаются ссылки в письмах (или THOUSAND_PUBLIC_URL).",
        "chat_filter": "Файл слов, которые чат не пропускает, вдобавок к встроенным (по "
                       "одному в строке, * в конце — любое окончание).",
        "vapid_private_key": "Ключ VAPID сайта (ключ P-256 в PEM) для уведомлений о ходе "
                             "через Web Push; без него и --vapid-subject push выключен "
                             "(или переменная THOUSAND_VAPID_PRIVATE_KEY).",
        "vapid_subject": "Контакт, который получают push-сервисы с каждым уведомлением: "
                         "mailto:admin@example.org (или THOUSAND_VAPID_SUBJECT).",
    },
    "admin": {
        "": "Команды владельца сервера над его базой данных: модераторы "
            "(grant-moderator ИМЯ, revoke-moderator ИМЯ, list-moderators; у каждой --db "
            "как у thousand serve).",
    },
    # the subcommands of ``thousand admin`` (their rows in its help)
    "grant-moderator": {"": "Сделать учётную запись ИМЯ модератором (страница /moderation).",
                        "name": "Имя учётной записи.", "db": _ADMIN_DB, "lang": "Язык: ru или en."},
    "revoke-moderator": {"": "Учётная запись ИМЯ больше не модератор.",
                         "name": "Имя учётной записи.", "db": _ADMIN_DB,
                         "lang": "Язык: ru или en."},
    "list-moderators": {"": "Имена модераторов, по одному в строке.", "db": _ADMIN_DB,
                        "lang": "Язык: ru или en."},
}

#: The help option every command has.
HELP_OPTION = "Показать эту справку и выйти."

#: The placeholders of usage lines and help in Russian (whole words).
METAVARS: dict[str, str] = {
    "OPTIONS": "ПАРАМЕТРЫ", "COMMAND": "КОМАНДА", "ARGS": "АРГУМЕНТЫ", "FILE": "ФАЙЛ",
    "RECORD": "ЗАПИСЬ", "PRESET": "ПРАВИЛА", "DIR": "ПАПКА", "SECONDS": "СЕКУНДЫ",
    "BOT": "БОТ", "TEXT": "ТЕКСТ", "INTEGER": "ЧИСЛО", "FLOAT": "ЧИСЛО", "LEVEL": "УРОВЕНЬ",
    "NAME": "ИМЯ",
}

#: The frame of the help and of usage errors.
FRAME: dict[str, str] = {
    "usage": "Запуск:",
    "more": "подробнее: {command} --help --lang ru",
    "arguments": "Аргументы:",
    "options": "Параметры:",
    "commands": "Команды:",
    "default": "по умолчанию: {value}",
    "required": "обязательно",
    "error": "ошибка: {text}",
    "aborted": "прервано",
}

#: Usage errors in Russian, by what Click found wrong.
ERRORS: dict[str, str] = {
    "no_option": "нет такого параметра: {option}",
    "maybe": " (может быть, {options}?)",
    "needs_value": "после {option} нужно значение",
    "no_value": "{option} пишут без значения",
    "needs_values": "после {option} нужно значений: {n}",
    "missing_argument": "не хватает аргумента {name}",
    "missing_option": "не хватает параметра {option}",
    "bad_value": "{option}: «{value}» не годится — нужно {what}",
    "bad_value_unseen": "{option}: значение не годится — нужно {what}",
    "extra": "лишние аргументы: {args}",
    "no_command": "нет такой команды: {name}; команды: {commands}",
    "missing_command": "не указана команда; команды: {commands}",
    "other": "командная строка не разобрана",
}

#: What a value should have been, from the end of Click's (Pydantic's) message.
_WANTED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"valid integer"), "целое число"),
    (re.compile(r"valid number|valid float"), "число"),
    (re.compile(r"valid boolean"), "да или нет (true или false)"),
    (re.compile(r"less than or equal to (\S+?)\.?$"), "число не больше {0}"),
    (re.compile(r"greater than or equal to (\S+?)\.?$"), "число не меньше {0}"),
    (re.compile(r"less than (\S+?)\.?$"), "число меньше {0}"),
    (re.compile(r"greater than (\S+?)\.?$"), "число больше {0}"),
    (re.compile(r"not in the range (\S+?)\.?$"), "число в пределах {0}"),
)


def metavars(text: str) -> str:
    """``text`` with its placeholders (FILE, [OPTIONS]) in Russian."""
    text = re.sub(r"(?<=[\[{])[a-z_]+(?=[\]}])", lambda m: m.group(0).upper(), text)
    return re.sub(r"\b[A-Z]+\b", lambda m: METAVARS.get(m.group(0), m.group(0)), text)


def _option_name(param: Any) -> str:
    opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
    if opts:
        return "/".join(opts)
    return metavars(str(getattr(param, "metavar", None) or getattr(param, "name", "?")).upper())


def _typed_value(args: Sequence[str], param: Any) -> str | None:
    """What was typed for ``param`` on the command line (the last time), if it shows."""
    opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
    found: str | None = None
    for i, word in enumerate(args):
        if word == "--":
            break
        for o in opts:
            if word == o and i + 1 < len(args):
                found = args[i + 1]
            elif word.startswith(o + "=") and o.startswith("--"):
                found = word[len(o) + 1:]
    return found


def _wanted(message: str) -> str:
    for pattern, words in _WANTED:
        m = pattern.search(message)
        if m:
            return words.format(*m.groups())
    return "другое значение"


def usage_error(error: Exception, args: Sequence[str], commands: Sequence[str]) -> str:
    """A Click usage error in Russian, read from its kind and its fields (the option, the
    parameter, what was typed)."""
    kind = {c.__name__ for c in type(error).__mro__}
    message = str(getattr(error, "message", "") or "")
    listed = ", ".join(commands)
    if "NoSuchOption" in kind:
        option = str(getattr(error, "option_name", "?"))
        text = ERRORS["no_option"].format(option=option)
        close = list(getattr(error, "possibilities", None) or [])
        return text + (ERRORS["maybe"].format(options=", ".join(close)) if close else "")
    if "BadOptionUsage" in kind:
        option = str(getattr(error, "option_name", "?"))
        m = re.search(r"requires (\d+) arguments", message)
        if m:
            return ERRORS["needs_values"].format(option=option, n=m.group(1))
        if "requires an argument" in message:
            return ERRORS["needs_value"].format(option=option)
        if "does not take a value" in message:
            return ERRORS["no_value"].format(option=option)
        return ERRORS["other"]
    param = getattr(error, "param", None)
    if "MissingParameter" in kind:
        if param is not None and type(param).__name__.endswith("Argument"):
            return ERRORS["missing_argument"].format(name=_option_name(param))
        return ERRORS["missing_option"].format(option=_option_name(param))
    if "BadParameter" in kind and param is not None:
        value = _typed_value(args, param)
        what = _wanted(message)
        if value is None:
            return ERRORS["bad_value_unseen"].format(option=_option_name(param), what=what)
        from .common import one_line

        return ERRORS["bad_value"].format(option=_option_name(param),
                                          value=one_line(value, 80), what=what)
    m = re.match(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)$", message)
    if m:
        return ERRORS["extra"].format(args=m.group(1))
    m = re.match(r"No such command '(.*)'\.$", message)
    if m:
        return ERRORS["no_command"].format(name=m.group(1), commands=listed)
    if message.startswith("Missing command"):
        return ERRORS["missing_command"].format(commands=listed)
    return ERRORS["other"]


def usage_line(usage: str, command: str) -> str:
    """Click's ``Usage: thousand replay [OPTIONS] FILE`` in Russian, with where to read
    more."""
    rest = usage.strip()
    if rest.startswith("Usage:"):
        rest = rest[len("Usage:"):].strip()
    more = FRAME["more"].format(command=command)
    return f"{FRAME['usage']} {metavars(rest)}  ({more})"


def _wrap(rows: Sequence[tuple[str, str]], width: int) -> list[str]:
    """A definition list: the terms in a column, their help wrapped beside them."""
    if not rows:
        return []
    term = min(max(len(t) for t, _ in rows), 28)
    out = []
    for t, text in rows:
        body = textwrap.wrap(text, max(20, width - term - 4)) or [""]
        if len(t) > term:
            out.append(f"  {t}")
            out.extend(f"  {' ' * term}  {line}" for line in body)
        else:
            out.append(f"  {t.ljust(term)}  {body[0]}")
            out.extend(f"  {' ' * term}  {line}" for line in body[1:])
    return out


def _term(param: Any) -> str:
    """How an option is written in the help: ``--seat N=БОТ``, ``-n, --games ЧИСЛО``."""
    if type(param).__name__.endswith("Argument"):
        return metavars(str(getattr(param, "metavar", None) or param.name).upper())
    opts = ", ".join([*param.opts, *getattr(param, "secondary_opts", [])])
    if getattr(param, "is_flag", False):
        return opts
    metavar = getattr(param, "metavar", None)
    if not metavar:
        bare = getattr(param, "bare_type", None)
        shown = str(bare() if callable(bare) else "")
        metavar = "INTEGER" if "int" in shown else "FLOAT" if "float" in shown else "TEXT"
    return f"{opts} {metavars(str(metavar))}"


def _default(param: Any) -> str:
    value = getattr(param, "default", None)
    if value is None or value is False or value == () or value == []:
        return ""
    return f"  [{FRAME['default'].format(value=value)}]"


def russian_help(command: Any, path: str, width: int | None = None) -> str:
    """The help of a Click ``command`` (``path``: ``thousand arena``) in Russian: its
    usage, what it does and every argument and option, from :data:`HELP`."""
    width = width or min(shutil.get_terminal_size((80, 24)).columns, 100)
    name = path.split(" ", 1)[1] if " " in path else ""
    words = HELP.get(name, {})
    arguments, options = [], []
    for param in command.params:
        if getattr(param, "hidden", False):
            continue  # as Click's own help: a hidden option is not shown
        # an option without a Russian line yet keeps its English one rather than none
        # (tests/test_language.py fails until it has its Russian)
        text = (words.get(param.name or "") or str(getattr(param, "help", "") or "")
                ) + _default(param)
        if type(param).__name__.endswith("Argument"):
            arguments.append((_term(param), text))
        else:
            options.append((_term(param), text))
    options.append(("--help", HELP_OPTION))
    usage = "[OPTIONS]"
    if arguments:
        usage += " " + " ".join(
            f"[{t}]" if not getattr(p, "required", False) else t
            for (t, _), p in zip(arguments, [p for p in command.params
                                            if type(p).__name__.endswith("Argument")],
                                 strict=True)
        )
    subcommands = getattr(command, "commands", None)
    if subcommands:
        usage += " COMMAND [ARGS]..."
    lines = [f"{FRAME['usage']} {path} {metavars(usage)}", ""]
    lines += ["  " + line for line in textwrap.wrap(words.get("", ""), width - 2)]
    if arguments:
        lines += ["", FRAME["arguments"], *_wrap(arguments, width)]
    lines += ["", FRAME["options"], *_wrap(options, width)]
    if subcommands:
        rows = [(n, HELP.get(n, {}).get("", "")) for n in subcommands]
        lines += ["", FRAME["commands"], *_wrap(rows, width)]
    return "\n".join(lines)
