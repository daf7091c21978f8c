"""What each option and preset means, for people, in Russian and English.

Kept apart from :mod:`thousand.engine.rules` so that the rules model stays small and pure and
the wording can be edited without touching the engine's contract.  The Russian text
uses the players' own words (прикуп, заказ, хваленка, роспись, темнить, бочка, болт,
самосвал, перекуп, «сижу на ста», ...) because that is what people say at the table;
the English the plain words of the game.  The players' rules pages, docs/rules.ru.md and
docs/rules.en.md, say the same at length.  Option identifiers (``bid_step``) are for the
command line and the records: what a player reads names an option by its title and a
value in words (:func:`value_words`, :func:`plain_explanation`).  Data only, plus a few
look-up functions.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, NamedTuple

from thousand.engine.options import GROUPS as OPTION_GROUPS
from thousand.engine.rules import (
    OPTION_NAMES,
    OPTIONS,
    PRESET_NAMES,
    UNSUPPORTED,
    Rules,
    RulesError,
    format_value,
)
from thousand.words.grammar import LANGS
from thousand.words.presets import PRESET_TITLES

__all__ = [
    "GROUPS",
    "GROUP_TITLE",
    "LANGS",
    "OPTION_TEXT",
    "PRESET_TEXT",
    "PRESET_TITLE",
    "UNSUPPORTED_TEXT",
    "OptionText",
    "Text",
    "check_lang",
    "explain",
    "plain_explanation",
    "preset_description",
    "preset_title",
    "title",
    "unsupported",
    "value_words",
]


class Text(NamedTuple):
    """One text in both languages."""

    ru: str
    en: str

    def get(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


class OptionText(NamedTuple):
    """A short title (for tables) and a full explanation (for ``--explain``)."""

    title: Text
    text: Text


def _o(title_ru: str, title_en: str, ru: str, en: str) -> OptionText:
    return OptionText(Text(title_ru, title_en), Text(ru, en))


#: Every option, in the order of ``OPTION_NAMES``.
OPTION_TEXT: dict[str, OptionText] = {
    "players": _o(
        "число игроков",
        "number of players",
        "3 — играют втроём. 4 — вчетвером: сдающий в этой раздаче (кону) не играет, "
        "карты получают трое остальных; сдающий меняется каждую раздачу. 2 — вдвоём: "
        "по 10 карт, два прикупа по две карты; взявший игру выбирает прикуп не глядя, "
        "сносит две карты, а второй прикуп после раздачи идёт в очки противнику.",
        "3: three play. 4: four at the table; the dealer sits out each deal and the "
        "other three play; the dealer moves on every deal. 2: two play, 10 cards each "
        "and two talons of two; the declarer picks one unseen and discards two, and the "
        "other talon counts for his opponent when the deal ends.",
    ),
    "sitting_dealer_scores": _o(
        "очки неиграющего сдающего",
        "sitting-out dealer scores",
        "Что пишут сдающему, который не играет (только вчетвером). none — ничего. "
        "talon_marriage — если в прикупе марьяж, сдающий получает его очки. "
        "talon_value — стоимость карт прикупа, причём король или дама добавляет "
        "половину стоимости своего марьяжа (пиковый король = 4 + 20 = 24). "
        "Очки округляются по rounding.",
        "What the dealer who sits out scores (4 players only). none: nothing. "
        "talon_marriage: the value of a marriage in the talon. talon_value: the card "
        "points of the talon, each K or Q adding half its marriage value "
        "(♠K = 4 + 20 = 24). Rounded with rounding.",
    ),
    "first_bidder": _o(
        "кто открывает торговлю",
        "who opens the auction",
        "Кто начинает торговлю (заказывает первым, не меньше 100). left_of_dealer — "
        "игрок слева от сдающего. dealer — сам сдающий (нельзя вчетвером, где сдающий "
        "не играет).",
        "Who opens the auction (bids first, at least 100). left_of_dealer: the player "
        "left of the dealer. dealer: the dealer himself (not with 4 players, where the "
        "dealer sits out).",
    ),
    "opening_bid": _o(
        "первая ставка",
        "opening bid",
        "at_least_100 — открывающий заказывает 100 или больше. exactly_100 — первая "
        "ставка всегда ровно 100: открывающий «сидит на ста» и говорит «сто» (или "
        "темнит, где можно); повысить он может позже, в свою очередь, как все.",
        "at_least_100: the opener bids 100 or more. exactly_100: the opening bid is "
        'always 100 (he "sits on 100", or bids dark where he may); he may raise later, '
        "in his turn, like anyone.",
    ),
    "bid_step": _o(
        "шаг торговли",
        "bid step",
        "На сколько повышают ставку: 5 (обычно), 10 или любое кратное 5 до 50. "
        "Ставка — это 100 плюс целое число шагов (при шаге 15: 100, 115, 130, …). "
        "Тёмная и заказ золотого кона остаются 120, как есть; повышение заказа после "
        "прикупа — до следующей ставки по шагу.",
        "How much a raise adds: 5 (usual), 10, or any multiple of 5 up to 50. A bid is "
        "100 plus a whole number of steps (with 15: 100, 115, 130, …). The dark bid and "
        "the golden contract stay 120 as they are; a contract raise after the talon "
        "goes to a bid on the step.",
    ),
    "bid_jumps": _o(
        "повышать через ступеньку",
        "jump raises",
        "true — в торговле можно повышать сразу на сколько угодно шагов. false — каждое "
        "повышение в торговле ровно на один шаг (100, 105, 110…); повышение заказа после "
        "прикупа остаётся свободным, тёмная 120 разрешена как есть.",
        "true: a raise in the auction may be any number of steps. false: every raise in "
        "the auction is exactly one step; the contract raise after the talon stays free "
        "and the dark bid of 120 is allowed as it is.",
    ),
    "ten_strength": _o(
        "старшинство десятки",
        "rank of the ten",
        "high — десятка бьёт короля: 9, В, Д, К, 10, Т. natural — десятка на своём "
        "месте: 9, 10, В, Д, К, Т («вторая по очкам, но не по силе»). Очки карт не "
        "меняются: десятка по-прежнему 10.",
        "high: the ten beats the king: 9 J Q K 10 A. natural: the ten takes tricks in "
        "its natural place, 9 10 J Q K A. Card points do not change: the ten still "
        "counts 10.",
    ),
    "bid_cap": _o(
        "предел ставки без марьяжа",
        "bid cap without a marriage",
        "Больше этого (120) заказать нельзя без марьяжа на руке; с марьяжами предел — "
        "120 плюс их стоимость (160 с пиковым, 220 с червовым). Не меньше 100; это "
        "верхняя граница, кратной шагу она быть не обязана.",
        "Nobody may bid above this (120) without a marriage in hand; with marriages the "
        "cap is 120 plus their values (160 with ♠, 220 with ♥). At least 100; it is an "
        "upper limit and need not be a multiple of the step.",
    ),
    "min_score_to_bid": _o(
        "минимум очков для торговли",
        "minimum score to bid",
        "none — торгуются все. Число, например −120: игрок, у которого столько очков или "
        "меньше, в торговле не участвует и всегда говорит «пас». Если он должен открывать, "
        "открывает следующий по часовой стрелке; если не может никто, открывающий всё "
        "равно играет 100.",
        "none: everyone bids. A number, e.g. −120: a player at or below it must pass. If "
        "the opener is barred, the next eligible player clockwise opens; if nobody is "
        "eligible, the opener plays 100 anyway.",
    ),
    "exchange": _o(
        "что делают с прикупом",
        "talon exchange",
        "give_one_each — разыгрывающий берёт прикуп и отдаёт по одной карте каждому "
        "сопернику рубашкой вверх: у всех по 8 карт, 8 взяток. discard_three — "
        "разыгрывающий откладывает три карты в снос рубашкой вверх, их очки идут ему; "
        "у всех по 7 карт, 7 взяток.",
        "give_one_each: the declarer takes the talon and gives one card face down to each "
        "opponent: 8 cards each, 8 tricks. discard_three: the declarer discards 3 cards "
        "face down, which count to his points: 7 cards each, 7 tricks.",
    ),
    "talon_shown": _o(
        "показывают ли прикуп",
        "is the talon shown",
        "all — прикуп показывают всем. not_at_100 — если прикуп взят за 100, его не "
        "показывают остальным.",
        "all: the talon is shown to everyone. not_at_100: a talon taken at 100 is not shown.",
    ),
    "must_overtake": _o(
        "бить старшей обязательно",
        "must overtake",
        "false — бить старшей картой не обязательно. true — ходя в масть, нужно положить "
        "карту старше всех карт этой масти во взятке, если такая есть; перебивать "
        "козырем сверх того не обязательно.",
        "false: you need not beat the card led. true: when following suit you must play "
        "a card higher than every card of that suit in the trick if you hold one; there "
        "is no duty to overtrump.",
    ),
    "marriage_values": _o(
        "стоимость марьяжей",
        "marriage values",
        "Стоимость марьяжа (хваленки) по мастям: обычно ♠ 40, ♣ 60, ♦ 80, ♥ 100. Можно "
        "любую, например S:100,C:80,H:60,D:40 или S:100,H:80,C:60,D:40; каждое число "
        "кратно 5.",
        "The value of a marriage by suit: usually ♠ 40, ♣ 60, ♦ 80, ♥ 100. Any map is "
        "allowed, e.g. S:100,C:80,H:60,D:40 or S:100,H:80,C:60,D:40; each a multiple of 5.",
    ),
    "marriage_on_first_lead": _o(
        "марьяж с первого хода",
        "marriage on the first lead",
        "false — на первом ходу раздачи марьяж объявить нельзя: сначала нужно взять "
        "взятку. true — объявлять козырь можно с первого хода.",
        "false: no marriage on the first lead of a deal. true: a marriage may be declared "
        "on the first lead.",
    ),
    "marriage_points_declarer_only": _o(
        "очки за марьяж только заказчику",
        "marriage points for the declarer only",
        "false — очки за марьяж пишут любому объявившему. true — очки за объявленный "
        "козырь пишут только разыгрывающему (заказчику).",
        "false: anyone who declares a marriage scores it. true: only the declarer scores "
        "marriage points.",
    ),
    "half_marriage": _o(
        "постельный марьяж",
        "half marriage",
        "true — постельный марьяж: дама и валет одной масти объявляются как марьяж за "
        "половину его стоимости (♠ 20, ♣ 30, ♦ 40, ♥ 50).",
        "true: Q+J of a suit may be declared like a marriage for half its value "
        "(♠ 20, ♣ 30, ♦ 40, ♥ 50).",
    ),
    "ace_marriage": _o(
        "тузовый марьяж",
        "ace marriage",
        "0 — нет. Число (обычно 200) — тузовый марьяж: у кого четыре туза, тот, будучи "
        "на ходу (на тех же условиях, что и марьяж), заходит с первого туза со знаком "
        "«+» и получает эти очки; козырь не меняется.",
        "0: off. A number (usually 200): holding four aces, the player on lead (same "
        "conditions as a marriage) leads the first ace with `+` and scores it; no trump "
        "change.",
    ),
    "ace_marriage_trump": _o(
        "тузовый марьяж назначает козырь",
        "ace marriage sets trump",
        "true — тузовый марьяж ещё и делает масть этого туза козырной.",
        "true: the ace marriage also makes that suit trump.",
    ),
    "ace_marriage_all_in_row": _o(
        "тузы подряд",
        "aces in a row",
        "true — после тузового марьяжа все четыре туза нужно выложить подряд, в идущих "
        "друг за другом взятках, пока ход остаётся у него.",
        "true: after an ace marriage the four aces must be led in consecutive tricks "
        "while he keeps the lead.",
    ),
    "four_nines_bonus": _o(
        "премия за четыре девятки",
        "four nines bonus",
        "0 — нет. 200 или 360 — у кого четыре девятки, тот, заходя с первой девятки, "
        "получает эти очки.",
        "0: off. 200 or 360: holding four nines, leading the first nine scores it.",
    ),
    "no_lead_own_trump": _o(
        "не ходить со своего козыря",
        "no lead of own trump",
        "true — заходить с козыря может только тот, кто его не объявлял: объявивший "
        "текущий козырь с козыря не ходит.",
        "true: the player who declared the current trump may not lead trump.",
    ),
    "rounding": _o(
        "округление",
        "rounding",
        "5 — очки округляют до ближайшего кратного 5 (остаток 1–2 вниз, 3–4 вверх: "
        "17 → 15, 18 → 20). 10 — до десятков (остаток 5–9 вверх). 1 — без округления.",
        "5: points are rounded to the nearest 5 (remainder 1–2 down, 3–4 up: 17 → 15, "
        "18 → 20). 10: to tens (remainder 5–9 up). 1: no rounding.",
    ),
    "round_declarer_before_compare": _o(
        "округлять заказчику до сравнения",
        "round the declarer before comparing",
        "true — очки разыгрывающего округляют перед сравнением с заказом "
        "(98 при заказе 100 — сыграно).",
        "true: the declarer's points are rounded before they are compared with the "
        "contract (98 makes a contract of 100).",
    ),
    "declarer_scores": _o(
        "что пишут сыгравшему",
        "what a made contract scores",
        "contract — сыгравшему пишут ровно заказ. taken — пишут реально взятое (взятки "
        "плюс марьяжи). Не сыграл — в любом случае минус заказ.",
        "contract: a made contract scores exactly the contract. taken: it scores the "
        "points actually taken (tricks plus marriages). A failed contract always scores "
        "minus the contract.",
    ),
    "concede": _o(
        "роспись",
        "concede",
        "Роспись. true — разыгрывающий, посмотрев прикуп, до первого хода может "
        "расписаться (отказаться от игры); заказом считается его ставка. Ничего не "
        "разыгрывается, это не болт; соперники получают concede_opponents_get.",
        "true: after seeing the talon and before the first lead the declarer may give "
        "up; the conceded contract is his bid. Nothing is played and it is no bolt; the "
        "opponents get concede_opponents_get.",
    ),
    "concede_opponents_get": _o(
        "сколько получают соперники при росписи",
        "what the opponents get for a concede",
        "Сколько пишут каждому сопернику при росписи: число (обычно 60 — половина очков "
        "колоды); half_contract — по половине заказа (сначала вверх до целого, потом по "
        "rounding: 105 → 52,5 → 53 → 55); aces — «по тузам»: по 11 за каждый туз, "
        "который на руке у расписавшегося. Неиграющий сдающий этих очков не получает.",
        "What each opponent scores when the declarer concedes: a number (usually 60, "
        "half the deck); half_contract: half the contract each (rounded up to a whole "
        "number, then with rounding: 105 → 52.5 → 53 → 55); aces: 11 for each ace the "
        "declarer holds when he concedes. The sitting-out dealer gets none of it.",
    ),
    "concede_declarer_loses": _o(
        "что теряет расписавшийся",
        "what the conceding declarer loses",
        "true — расписавшийся пишет себе минус заказ. false — ничего не теряет. half — "
        "он теряет половину заказа — половина заказа сначала округляется вверх до целого, "
        "потом по rounding. Списание "
        "«по тузам» — это half вместе с concede_opponents_get=aces.",
        "true: the conceding declarer scores minus the contract. false: he loses nothing. "
        "half: he loses half the contract (rounded up to a whole number, then with "
        "rounding). The write-off by aces is half with concede_opponents_get=aces.",
    ),
    "concede_limit": _o(
        "предел росписей",
        "concede limit",
        "none — без ограничения. Число (например 3) — столько росписей у каждого игрока за партию.",
        "none: unlimited. A number (e.g. 3): concedes allowed per player per game.",
    ),
    "concede_penalty_every": _o(
        "штраф за частые росписи",
        "penalty for every n-th concede",
        "none — нет. Число (например 3) — каждая третья роспись стоит ещё минус penalty (штраф).",
        "none: off. A number (e.g. 3): every third concede costs another −penalty.",
    ),
    "concede_on_barrel": _o(
        "роспись на бочке",
        "concede on the barrel",
        "true — роспись разрешена, даже когда кто-то сидит на бочке; если расписался "
        "сам сидящий, роспись стоит как обычно, и он слетает с бочки (если она ему "
        "ничего не стоит — остаётся). false — пока хоть один игрок сидит на бочке, "
        "не расписывается никто.",
        "true: conceding is allowed while someone sits on the barrel; a sitter's own "
        "concede costs what a concede costs and he leaves the barrel, a fall (one that "
        "costs him nothing leaves him on it). false: nobody may concede while any player "
        "sits on the barrel.",
    ),
    "concede_in_golden": _o(
        "роспись на золотом коне",
        "concede in golden deals",
        "true — на золотом коне расписываться можно. false — на золотом коне не "
        "расписывается никто.",
        "true: a declarer may concede in a golden deal. false: nobody may concede in a "
        "golden deal.",
    ),
    "dark": _o(
        "тёмная",
        "dark bid",
        "Тёмная. true — игрок слева от сдающего (и там, где открывает сдающий) в свой "
        "первый ход, не глядя в карты, может заказать 120 втемную («темнить»), если "
        "ставка ещё ниже 120. Если тёмная устояла, раздача тёмная: очки удваиваются "
        "(см. dark_doubles; ±240 при 120). Если тёмную перебили, он смотрит карты и "
        "торгуется дальше как обычно; раздача уже не тёмная. Темнить нельзя, пока "
        "кто-то сидит на бочке. Тёмную раздачу не расписывают, её прикуп не перекупают.",
        "true: at his first turn, before looking at his cards, the player left of the "
        "dealer (also where the dealer opens) may bid 120 blind if the bid is still "
        "below 120. If the dark bid stands the deal is dark and counts double (see "
        "dark_doubles; ±240 at 120). A dark bidder who is outbid looks at his cards and "
        "bids on as usual; the deal is then not dark. Not allowed while anyone sits on "
        "the barrel. A dark deal cannot be conceded and its talon cannot be bought.",
    ),
    "dark_doubles": _o(
        "что удваивается в тёмной",
        "what a dark deal doubles",
        "declarer — вдвойне пишут только разыгрывающему. all — вдвойне очки за раздачу "
        "у всех (после округления), и у неиграющего сдающего тоже. Штрафы не удваиваются.",
        "declarer: only the declarer's deal score counts double. all: every player's "
        "deal score (after rounding) counts double, the sitting-out dealer's too. "
        "Penalties are never doubled.",
    ),
    "dark_min_score": _o(
        "минимум очков для тёмной",
        "minimum score for a dark bid",
        "Темнить можно, только если очков не меньше этого числа: 0 — нельзя в минусе. "
        "Любое число, например 120 или 240.",
        "A dark bid is allowed only at or above this score: 0 means not while negative. "
        "Any number, e.g. 120 or 240.",
    ),
    "dark_outbid_needs_marriage": _o(
        "растемнить только с марьяжем",
        "outbidding a dark bid needs a marriage",
        "true — перебить тёмную («растемнить») можно только с марьяжем на руке, "
        "следующей ставкой после 120 (125 при шаге 5). false — как обычную ставку.",
        "true: others may outbid a dark bid only holding a marriage, with the next bid "
        "above 120 (125 with steps of 5). false: as any bid.",
    ),
    "dark_marriages_doubled": _o(
        "марьяжи в тёмной вдвойне",
        "marriages doubled in the dark",
        "true — в тёмной удваивается всё. false — при declarer_scores=taken очки за "
        "марьяжи в сыгранной тёмной не удваиваются (когда пишут заказ, ни на что не влияет).",
        "true: everything is doubled. false: with declarer_scores=taken, the marriage part "
        "of a made dark score is not doubled (no effect when the contract is scored).",
    ),
    "dark_talon_shown": _o(
        "прикуп при тёмной показывают",
        "talon shown in a dark deal",
        "true — при тёмной прикуп показывают как обычно. false — не показывают; "
        "вчетвером его видит только сдающий.",
        "true: the talon is shown as usual. false: it is not shown (with 4 players only "
        "the dealer sees it).",
    ),
    "redeal_four_nines": _o(
        "пересдача при четырёх девятках",
        "redeal on four nines",
        "true — у кого четыре девятки на руке, может потребовать пересдачу до торговли "
        "(вместо первой ставки).",
        "true: a player dealt four nines may demand a redeal before the auction (on his "
        "first turn, instead of bidding).",
    ),
    "redeal_weak_hand": _o(
        "пересдача при слабой руке",
        "redeal on a weak hand",
        "none — нет. Число (например 14) — у кого на руке меньше стольких очков, может "
        "потребовать пересдачу до торговли.",
        "none: off. A number (e.g. 14): a hand under that many points may demand a "
        "redeal before the auction.",
    ),
    "redeal_weak_talon": _o(
        "пересдача при плохом прикупе",
        "redeal on a weak talon",
        "true — если в прикупе две девятки или меньше 5 очков, взявший прикуп может "
        "пересдать, пока не отдал карт.",
        "true: a talon with two nines or under 5 points lets the declarer redeal before "
        "he gives cards.",
    ),
    "redeal_weak_talon_only_at_100": _o(
        "пересдача по прикупу только при 100",
        "weak-talon redeal only at 100",
        "true — пересдать по плохому прикупу можно, только если прикуп взят за 100: "
        "кто сам повышал, тот не пересдаёт.",
        "true: the weak-talon redeal is allowed only when the talon was taken at 100.",
    ),
    "redeal_after_exchange": _o(
        "пересдача после сноса",
        "redeal after the exchange",
        "true — после того как карты отданы (снос), игрок, у которого теперь четыре "
        "девятки (или, с redeal_weak_hand, меньше очков, чем там сказано), может "
        "потребовать пересдачу до первого хода.",
        "true: after the exchange, a player who now holds four nines (or, with "
        "redeal_weak_hand, fewer points than it) may demand a redeal before the first lead.",
    ),
    "redeal_penalty_after": _o(
        "штраф за пересдачи подряд",
        "penalty for redeals in a row",
        "none — нет. Число (например 3) — три пересдачи подряд («плохая раздача»): "
        "сдающему минус penalty.",
        "none: off. A number (e.g. 3): that many redeals in a row cost the dealer −penalty.",
    ),
    "cut_nines": _o(
        "снятие с девятками",
        "cutting for nines",
        "true — перед раздачей игрок слева от сдающего снимает колоду, а сдающий смотрит "
        "нижнюю карту. Девятку показывают всем, и тот же игрок снимает снова (может "
        "снова открыться та же девятка); если девятка внизу оказалась три раза, "
        "снимающему минус penalty, и сдают как лежит. Валет — его показывают, сдающий "
        "сам снимает ещё раз, и больше никто не смотрит. Нижняя карта уходит в прикуп: "
        "сдающий знает последнюю увиденную карту, все знают показанные.",
        "true: before the deal the player left of the dealer cuts and the dealer looks "
        "at the bottom card. A nine is shown and the same player cuts again (the same "
        "nine may come up again); when it has been a nine three times the cutter gets "
        "−penalty and the deal goes on as the deck lies. A jack is shown and the dealer "
        "cuts once more himself, and nobody looks. The bottom card goes to the talon: "
        "the dealer knows the last card he saw, everyone knows the cards shown.",
    ),
    "bolts": _o(
        "болты",
        "bolts",
        "Болт — раздача, в которой защитник не взял ни одной взятки. none — болты не "
        "пишут. every_3rd — каждый третий болт стоит минус penalty; three_in_a_row — "
        "три болта подряд; every_5th — каждый пятый. Неиграющий сдающий болтов не получает.",
        "A bolt is a defender's deal with no trick. none: not counted. every_3rd: every "
        "third bolt costs −penalty; three_in_a_row: three bolts in a row; every_5th: "
        "every fifth. The sitting-out dealer never bolts.",
    ),
    "bolt_means": _o(
        "что считать болтом",
        "what counts as a bolt",
        "no_trick — ни одной взятки. no_points — ни одного очка.",
        "no_trick: no trick taken. no_points: no points taken.",
    ),
    "bolt_samosval": _o(
        "самосвал за болты",
        "bolt samosval",
        "true — три болта подряд: счёт в ноль («самосвал»), хоть из плюса, хоть из минуса.",
        "true: three bolts in a row reset the score to 0, from plus or minus.",
    ),
    "samosval": _o(
        "самосвал",
        "samosval (reset to 0)",
        "Самосвал. none — нет. Список чисел (например 555,−555): кто после раздачи "
        "оказался ровно на одном из них, у того счёт становится 0.",
        "none: off. A list of scores (e.g. 555,−555): landing exactly on one after a deal "
        "resets the score to 0.",
    ),
    "penalty": _o(
        "штраф",
        "penalty",
        "Размер штрафа — за болты, росписи, пересдачи, снятие и падение с бочки: 120; "
        "можно, например, 100.",
        "The size of a penalty (bolts, concedes, redeals, the cut, falling off the "
        "barrel): 120; any, e.g. 100.",
    ),
    "barrel": _o(
        "бочка",
        "barrel",
        "Бочка. 880 — набравший от 880 до 999 останавливается на 880 и «садится на "
        "бочку»: очки ему не пишут, кроме сыгранного своего заказа, который доводит до "
        "1000 (с 880 — заказ от 120). Провалил заказ — минус заказ, и слетает с бочки. "
        "Можно 850, 900 или none — без бочки.",
        "880: a score from 880 to 999 is set to 880 and the player sits on the barrel: "
        "nothing is recorded for him but a made contract of his own that brings him to "
        "1000. A failed contract is subtracted and he falls off. Also 850, 900, or none "
        "(no barrel).",
    ),
    "barrel_score": _o(
        "очки на бочке",
        "score on the barrel",
        "capped — счёт от barrel до 999 срезают до barrel (до 880). kept — счёт "
        "остаётся как есть (например 930), а остальное правило бочки действует: очки "
        "пишут только за свой сыгранный заказ; провал или падение вычитаются из его "
        "счёта. Слетевший с бочки в этой раздаче на неё в той же раздаче не садится.",
        "capped: a score from barrel up to the win score is set to barrel (880). kept: "
        "it stays as it is (e.g. 930) and the rest of the barrel rule holds: he scores "
        "only by a contract he makes; a failed contract or a fall subtracts from the "
        "score he has. A player who left the barrel in a deal does not climb back on "
        "in that same deal.",
    ),
    "barrel_deals": _o(
        "раздач на бочке",
        "deals on the barrel",
        "3 — на бочке сидят три раздачи; не вышел — минус penalty, и слетает с бочки. "
        "none — сидит, пока не выиграет или не провалит заказ.",
        "3: three deals on the barrel, then −penalty and he falls off. none: he sits until "
        "he wins or fails a contract.",
    ),
    "barrel_knock_off": _o(
        "сталкивание с бочки",
        "knock-off",
        "true — двое на бочке не сидят: новый сталкивает прежнего (тот слетает с бочки: "
        "минус penalty).",
        "true: a player climbing on pushes the sitter off (he falls: −penalty).",
    ),
    "barrel_simultaneous_fall": _o(
        "одновременно — все слетают",
        "simultaneous fall",
        "true — если двое или трое одновременно садятся на бочку, все сразу слетают.",
        "true: two or three reaching the barrel in one deal all fall at once.",
    ),
    "barrel_falls_reset": _o(
        "сброс за падения с бочки",
        "reset after falls",
        "none — нет. Число (например 3) — кто слетел с бочки в третий раз, у того счёт "
        "становится barrel_reset_score («начинает с нуля»).",
        "none: off. A number (e.g. 3): every third fall sets the score to barrel_reset_score.",
    ),
    "barrel_reset_score": _o(
        "счёт после сброса",
        "score after the reset",
        "Каким становится счёт после сброса за падения с бочки: 0 или, например, 5.",
        "The score after the fall reset: 0, or e.g. 5.",
    ),
    "no_barrel_after_reset": _o(
        "после сброса без бочки",
        "no barrel after the reset",
        "true — после сброса игрок доходит до тысячи уже без бочки (до конца партии).",
        "true: after that reset he plays on to 1000 without the barrel (for the rest of the game).",
    ),
    "barrel_bolts": _o(
        "болты на бочке",
        "bolts on the barrel",
        "false — на бочке болтов не пишут. true — пишут и там.",
        "false: bolts are not counted on the barrel. true: they are.",
    ),
    "golden_deals": _o(
        "золотой кон",
        "golden deals",
        "Золотой кон. true — в каждой из первых трёх раздач тот, кто открывал бы "
        "торговлю, играет 120 без торговли (так каждый по разу), может повысить заказ "
        "после прикупа, и все очки этих раздач удваиваются.",
        "true: in each of the first three deals the player who would open the auction "
        "plays 120 without an auction (so each player once), may raise after the talon, "
        "and every score of those deals counts double.",
    ),
    "golden_restart": _o(
        "золотой кон заново",
        "golden restart",
        "true — если на золотом коне никто не сыграл свой заказ, партия начинается заново с нуля.",
        "true: if nobody made his contract in the golden deals, the game starts again from 0.",
    ),
    "win_score": _o(
        "до скольких играют",
        "win score",
        "Сколько нужно набрать для победы: 1000.",
        "The score that wins: 1000.",
    ),
    "win_strict": _o(
        "больше тысячи",
        "strictly more",
        "false — побеждает набравший 1000 или больше. true — нужно набрать больше 1000.",
        "false: reaching 1000 wins. true: more than 1000 is needed.",
    ),
    "max_deals": _o(
        "предел раздач",
        "deal limit",
        "200 — после 200 раздач партия заканчивается и побеждает лидер (при равенстве "
        "победу делят). none — без ограничения.",
        "200: after 200 deals the game ends and the leader wins (equal leaders share the "
        "win). none: no limit.",
    ),
    "settlement": _o(
        "расчёт",
        "settlement",
        "true — после партии каждый проигравший должен победителю столько очков, "
        "сколько ему не хватило до 1000 (записи это не меняет).",
        "true: at the end each loser owes the winner the points he lacks to 1000 (the "
        "scores themselves do not change).",
    ),
    "talon_buy": _o(
        "перекуп",
        "talon buy-out",
        "Перекуп. true — когда прикуп показан всем (не в тёмной и не на золотом коне, "
        "и не когда его не показывают), до того как разыгрывающий отдал или снёс "
        "карту, остальные по очереди по часовой стрелке от него могут перекупить прикуп "
        "(buy) или отказаться (pass). Цена — ближайшее из 120, 240, 360, … выше заказа, "
        "марьяж для неё не нужен. Перекупивший берёт прикуп себе и становится "
        "разыгрывающим по этой цене; прежний ничего не теряет. После перекупа всех "
        "спрашивают снова, уже по следующей цене. Когда все спасовали, разыгрывающий "
        "отдаёт карты и называет заказ (не меньше цены) или расписывается. Перекуп идёт "
        "раньше пересдачи по плохому прикупу: разыгрывающий после перекупа ещё может "
        "потребовать её вместо первой отданной карты. Неиграющий сдающий и игрок, "
        "которому торговаться нельзя (min_score_to_bid), не перекупают.",
        "true: when the talon has been shown to everyone (not in a dark or golden deal, "
        "nor when it stays hidden), before the declarer gives or discards a card, each "
        "other player in turn clockwise from the declarer may buy it (buy) or not "
        "(pass). The price is the smallest of 120, 240, 360, … above the contract and "
        "needs no marriage. The buyer takes the talon into his hand and is the declarer "
        "at that price; the former declarer loses nothing. After a buy everyone is asked "
        "again at the next price. When all have passed, the declarer exchanges and names "
        "his contract (at least the price) or concedes. The buy round comes before the "
        "weak-talon redeal: the declarer after it may still demand that redeal instead "
        "of his first give or discard. The sitting-out dealer and a "
        "player barred from bidding (min_score_to_bid) never buy.",
    ),
}

#: One line per preset (what it changes from ``classic``), in the order of ``PRESET_NAMES``.
PRESET_TEXT: dict[str, Text] = {
    "classic": Text(
        "Классика: втроём, торговля от 100 шагом 5 (можно через ступеньку), десятка "
        "бьёт короля, без марьяжа не выше 120, по карте каждому сопернику, округление "
        "до 5, бочка 880 на три раздачи, не больше 200 раздач; без росписи, тёмной и "
        "перекупа.",
        "Classic: three players, bids from 100 in fives (jumps allowed), the ten beats "
        "the king, no bid above 120 without a marriage, one card to each opponent, "
        "rounding to 5, barrel at 880 for three deals, at most 200 deals; no concede, "
        "dark bid or talon buy-out.",
    ),
    "dealer-opens": Text(
        "Сдающий открывает: торговлю начинает сдающий и «сидит на ста» (первая ставка "
        "ровно 100), снятие с девятками, роспись (соперникам по 60, себе минус заказ), "
        "без предела раздач, расчёт в конце.",
        "Dealer opens: the dealer opens the auction at exactly 100, cutting for nines, "
        "concede (60 to each opponent, the declarer minus the contract), no deal limit, "
        "settlement at the end.",
    ),
    "house": Text(
        "Домашние: первая ставка ровно 100, повышают только на один шаг, золотой кон, "
        "роспись (по 60, каждая третья −120, не когда кто-то на бочке и не на золотом "
        "коне), тёмная, пересдачи (четыре девятки, плохой прикуп; третья подряд — "
        "сдающему −120), болты (каждый третий), самосвал ±555, сталкивание с бочки, "
        "третье падение — в ноль, без предела раздач; вчетвером сдающему марьяж из "
        "прикупа.",
        "House: the opening bid is exactly 100, raises of one step only, golden deals, "
        "concede (60 each, every third −120, not while anyone is on the barrel nor in "
        "golden deals), dark bid, redeals (four nines, weak talon; the third in a row "
        "costs the dealer −120), bolts (every third), samosval ±555, knock-off barrel, "
        "the third fall resets to 0, no deal limit; with 4 players the dealer scores a "
        "talon marriage.",
    ),
    "textbook": Text(
        "Самоучитель: вчетвером, сдающему стоимость прикупа, первая ставка ровно 100, "
        "повышают по одному шагу в 10, десятка на своём месте (ниже валета), снос трёх "
        "карт, роспись (по 60, себе без минуса), округление до 10, бочка 900 с "
        "сохранением счёта и без срока, тёмная без показа прикупа, без предела раздач.",
        "Textbook: four players, the dealer scores the talon, the opening bid is exactly "
        "100, raises of one step of 10, the ten in its natural place (below the jack), "
        "discard three, concede (60 each, no loss for the declarer), rounding to 10, "
        "barrel at 900 with the score kept and without the three-deal limit, dark bid "
        "with the talon hidden, no deal limit.",
    ),
    "casual": Text(
        "Попросту: шаг 10, бить старшей обязательно, сыгравшему пишут взятое, без "
        "округления, бочка 850 без срока, без предела раздач.",
        "Casual: steps of 10, must overtake, a made contract scores what was taken, no "
        "rounding, barrel at 850 without the three-deal limit, no deal limit.",
    ),
    "two": Text(
        "Вдвоём: классика на двоих — по 10 карт, два прикупа по две карты на выбор, "
        "снос двух карт, второй прикуп противнику, 10 взяток, золотые — первые две раздачи.",
        "Two: classic for two players — 10 cards each, two talons of two to choose from, "
        "two cards discarded, the other talon to the opponent, 10 tricks.",
    ),
}

#: The agreements of ``rules.UNSUPPORTED``, in both languages.
UNSUPPORTED_TEXT: dict[str, Text] = {}


#: Each preset's short name for players: the way a family plays.
#: The presets' short names for players, as :data:`thousand.words.presets.PRESET_TITLES` words
#: them (that table is their one home; this view keeps the ``Text`` shape of the module).
PRESET_TITLE: dict[str, Text] = {
    name: Text(ru, en) for name, (en, ru) in PRESET_TITLES.items()
}

#: The titles of the option groups, by group (the groups and which options they hold are the
#: engine's declaration: :data:`thousand.engine.options.GROUPS`, ``Option.group``).
GROUP_TITLE: dict[str, Text] = {
    "players": Text("Игроки и раздача", "Players and the deal"),
    "auction": Text("Торговля", "The auction"),
    "dark": Text("Тёмная", "The dark bid"),
    "talon": Text("Прикуп и снос", "The talon and the exchange"),
    "redeals": Text("Пересдачи", "Redeals"),
    "play": Text("Розыгрыш", "The card play"),
    "marriages": Text("Марьяжи и премии", "Marriages and bonuses"),
    "scoring": Text("Подсчёт", "Scoring"),
    "conceding": Text("Роспись", "Conceding"),
    "bolts": Text("Болты, самосвал, штраф", "Bolts, samosval, the penalty"),
    "barrel": Text("Бочка", "The barrel"),
    "golden": Text("Золотой кон", "Golden deals"),
    "end": Text("Конец партии", "The end of the game"),
}

#: The options by theme, for listings (the rules pages' sections, the site's option picker,
#: ``thousand rules``): (Russian title, English title, options), made from the declaration.
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = tuple(
    (GROUP_TITLE[group].ru, GROUP_TITLE[group].en,
     tuple(name for name, o in OPTIONS.items() if o.group == group))
    for group in OPTION_GROUPS
)

#: Words for the values that are words, by option: value -> (Russian, English).
_VALUE_WORDS: dict[str, dict[Any, Text]] = {
    "sitting_dealer_scores": {None: Text("ничего", "nothing"),
                              "talon_marriage": Text("марьяж из прикупа",
                                                     "a marriage lying in the talon"),
                              "talon_value": Text("очки прикупа", "the talon's points")},
    "first_bidder": {"left_of_dealer": Text("игрок слева от сдающего",
                                            "the player left of the dealer"),
                     "dealer": Text("сдающий", "the dealer")},
    "opening_bid": {"at_least_100": Text("100 или больше", "100 or more"),
                    "exactly_100": Text("ровно 100 («сижу на ста»)",
                                        "exactly 100 (\"I sit on 100\")")},
    "ten_strength": {"high": Text("выше короля: 9 В Д К 10 Т", "above the king: 9 J Q K 10 A"),
                     "natural": Text("на своём месте: 9 10 В Д К Т",
                                     "in its natural place: 9 10 J Q K A")},
    "exchange": {"give_one_each": Text("по карте каждому сопернику",
                                       "one card to each opponent"),
                 "discard_three": Text("три карты в снос", "three cards discarded")},
    "talon_shown": {"all": Text("всем", "to everyone"),
                    "not_at_100": Text("всем, кроме взятого за 100",
                                       "to everyone, unless taken at 100")},
    "declarer_scores": {"contract": Text("заказ", "the contract"),
                        "taken": Text("взятое", "what was taken")},
    "concede_opponents_get": {"half_contract": Text("по половине заказа",
                                                    "half the contract each"),
                              "aces": Text("по тузам: 11 за каждый туз расписавшегося",
                                           "by aces: 11 for each ace of the declarer")},
    "concede_declarer_loses": {True: Text("минус заказ", "minus the contract"),
                               False: Text("ничего", "nothing"),
                               "half": Text("минус половина заказа", "minus half the contract")},
    "dark_doubles": {"declarer": Text("очки разыгрывающего", "the declarer's score"),
                     "all": Text("очки всех", "everyone's scores")},
    "bolts": {None: Text("не считают", "not counted"),
              "every_3rd": Text("каждый третий — штраф", "every third costs the penalty"),
              "three_in_a_row": Text("три подряд — штраф", "three in a row cost the penalty"),
              "every_5th": Text("каждый пятый — штраф", "every fifth costs the penalty")},
    "bolt_means": {"no_trick": Text("ни одной взятки", "no trick"),
                   "no_points": Text("ни одного очка", "no points")},
    "barrel_score": {"capped": Text("срезают до бочки", "cut to the barrel"),
                     "kept": Text("сохраняется", "kept")},
    "rounding": {1: Text("без округления", "none"), 5: Text("до 5", "to 5"),
                 10: Text("до 10", "to 10")},
    "ace_marriage": {0: Text("нет", "no")},
    "four_nines_bonus": {0: Text("нет", "no")},
}
#: What "none" means for an option that may be off, where "нет"/"no" does not say it.
_NONE_WORDS: dict[str, Text] = {
    "min_score_to_bid": Text("торгуются все", "everyone bids"),
    "concede_limit": Text("без ограничения", "no limit"),
    "concede_penalty_every": Text("нет", "no"),
    "redeal_weak_hand": Text("нет", "no"),
    "redeal_penalty_after": Text("нет", "no"),
    "samosval": Text("нет", "no"),
    "barrel": Text("без бочки", "no barrel"),
    "barrel_deals": Text("без срока", "no limit"),
    "barrel_falls_reset": Text("нет", "no"),
    "max_deals": Text("без предела", "no limit"),
}
#: A number with its unit, for the options whose number needs one.
_NUMBER_WORDS: dict[str, Text] = {
    "min_score_to_bid": Text("при {n} и ниже — только пас", "at {n} or below: pass only"),
    "concede_limit": Text("{n} за партию", "{n} a game"),
    "concede_penalty_every": Text("каждая {n}-я", "every {n}th"),
    "redeal_weak_hand": Text("меньше {n} очков на руке", "under {n} points in hand"),
    "redeal_penalty_after": Text("{n} подряд — штраф сдающему", "{n} in a row cost the dealer"),
    "barrel_deals": Text("{n}", "{n}"),
    "barrel_falls_reset": Text("каждое {n}-е падение", "every {n}th fall"),
    "concede_opponents_get": Text("по {n}", "{n} each"),
    "max_deals": Text("{n}", "{n}"),
}
_SUIT_SIGNS = "♠♣♦♥"


def preset_title(name: str, lang: str = "ru") -> str:
    """A preset's short name for players: «домашние правила», "house rules"."""
    text = PRESET_TITLE.get(name)
    return text.get(lang) if text is not None else name


def value_words(option: str, value: Any, lang: str = "ru") -> str:
    """``value`` of ``option`` in words for players (no identifiers): «да», «нет»,
    «ровно 100 («сижу на ста»)», «♠ 40, ♣ 60, ♦ 80, ♥ 100», «без бочки»."""
    lang = check_lang(lang)
    words = _VALUE_WORDS.get(option, {})
    for key, text in words.items():
        if key == value and type(key) is type(value):
            return text.get(lang)
    if value is None or (option == "samosval" and not value):
        text = _NONE_WORDS.get(option) or words.get(None) or Text("нет", "no")
        return text.get(lang)
    if isinstance(value, bool):
        return ("да" if value else "нет") if lang == "ru" else ("yes" if value else "no")
    if option == "marriage_values":
        return ", ".join(f"{_SUIT_SIGNS[i]} {v}" for i, v in enumerate(value))
    if option == "samosval":
        return ", ".join(str(v).replace("-", "−") for v in value)
    if isinstance(value, int) and option in _NUMBER_WORDS:
        return _NUMBER_WORDS[option].get(lang).format(n=str(value).replace("-", "−"))
    if isinstance(value, int):
        return str(value).replace("-", "−")
    return str(value)


_IDENT = re.compile(r"[SCDH]:\d+(?:,[SCDH]:\d+)+|[A-Za-z_][A-Za-z0-9_]*(?:=[A-Za-z0-9_,:\-]+)?")


def _value_of(option: str, text: str) -> Any:
    """A value of ``option`` written as on the command line, as Python (or the text)."""
    try:
        return getattr(Rules.preset_rules("classic", **{option: _parse(option, text)}), option)
    except (RulesError, ValueError):
        return text


def _parse(option: str, text: str) -> Any:
    return Rules.from_cli("classic", [f"{option}={text}"]).__getattribute__(option)


def plain_explanation(option: str, lang: str = "ru") -> str:
    """The explanation of ``option`` with every identifier in it put in words: another
    option by its title in quotes, a value by :func:`value_words` (``true`` → «да»)."""
    name = _option_name(option)
    text = OPTION_TEXT[name].text.get(lang)
    own = {format_value(name, v) for v in _VALUE_WORDS.get(name, {})}

    def quoted(words: str) -> str:  # «…» in Russian, “…” in English
        return f"«{words}»" if lang == "ru" else f"“{words}”"

    def word(match: re.Match[str]) -> str:
        token = match.group(0)
        if re.fullmatch(r"[SCDH]:\d+(?:,[SCDH]:\d+)+", token):
            return value_words("marriage_values", _value_of("marriage_values", token), lang)
        other, eq, value = token.partition("=")
        if eq and other in OPTION_TEXT:
            shown = value_words(other, _value_of(other, value.rstrip(".,")), lang)
            return quoted(f"{title(other, lang)}: {shown}")
        if token in OPTION_TEXT and (lang == "ru" or "_" in token):
            return quoted(title(token, lang))
        if token in ("true", "false"):
            return value_words(name, token == "true", lang) if name not in (
                "concede_declarer_loses",) else value_words("concede", token == "true", lang)
        if token == "none":
            return value_words(name, None, lang)
        if token in own or (lang == "ru" and token in {format_value(name, v) for v in
                                                       _VALUE_WORDS.get(name, {})}):
            return value_words(name, _value_of(name, token), lang)
        if lang == "ru" and token in ("buy", "pass"):
            return {"buy": "«куплю»", "pass": "«пас»"}[token]
        return token

    plain = _IDENT.sub(word, text)
    # a value put in words may now say what its explanation says: "нет — нет"
    return _REPEAT.sub(r"\1", plain)


_REPEAT = re.compile(r"(?<![\w«])(\w[^.;:—«»]{1,60}?)\s?(?:—|:)\s\1(?!\w)")


def check_lang(lang: str) -> str:
    """``lang`` if it is an interface language, else :class:`RulesError`."""
    if lang not in LANGS:
        raise RulesError(f"lang: {lang!r} is not allowed; use ru or en")
    return lang


def _option(option: str) -> OptionText:
    name = option.strip().replace("-", "_")
    if name in OPTION_TEXT:
        return OPTION_TEXT[name]
    close = difflib.get_close_matches(name, OPTION_NAMES, n=1, cutoff=0.6)
    if close:
        raise RulesError(f"unknown option {option!r} (did you mean {close[0]!r}?)")
    raise RulesError(f"unknown option {option!r}; `thousand rules` lists the options")


def title(option: str, lang: str = "ru") -> str:
    """The short name of an option, for a table."""
    return _option(option).title.get(check_lang(lang))


def _option_name(option: str) -> str:
    _option(option)
    return option.strip().replace("-", "_")


def explain(option: str, lang: str = "ru", ids: bool = True) -> str:
    """What ``option`` does and its values, then its value in each preset.

    With ``ids`` (the default) as the command line knows them: ``dark — тёмная``, the
    values as written after ``--set``, the presets by name; without, for players: the
    title, the explanation and the values in words (:func:`plain_explanation`).
    Raises :class:`RulesError` for an unknown option (with a did-you-mean) or language.
    """
    text = _option(option)
    lang = check_lang(lang)
    name = option.strip().replace("-", "_")
    if ids:
        values = ", ".join(
            f"{p} {format_value(name, getattr(Rules.preset_rules(p), name))}"
            for p in PRESET_NAMES
        )
        label = "В пресетах" if lang == "ru" else "In the presets"
        return f"{name} — {text.title.get(lang)}\n{text.text.get(lang)}\n{label}: {values}."
    values = "; ".join(
        f"{preset_title(p, lang)} — {value_words(name, getattr(Rules.preset_rules(p), name), lang)}"
        for p in PRESET_NAMES
    )
    label = "Как играют" if lang == "ru" else "How each family plays it"
    head = text.title.get(lang)
    return f"{head[:1].upper()}{head[1:]}\n{plain_explanation(name, lang)}\n{label}: {values}."


def preset_description(name: str, lang: str = "ru") -> str:
    """One line saying what preset ``name`` is."""
    lang = check_lang(lang)
    if name not in PRESET_TEXT:
        raise RulesError(f"unknown preset {name!r}; presets: {', '.join(PRESET_NAMES)}")
    return PRESET_TEXT[name].get(lang)


def unsupported(lang: str = "ru") -> list[str]:
    """The agreements that are not supported, one line each."""
    lang = check_lang(lang)
    return [UNSUPPORTED_TEXT[key].get(lang) for key in UNSUPPORTED]


assert tuple(OPTION_TEXT) == OPTION_NAMES, "explain every option, in OPTION_NAMES order"
assert tuple(GROUP_TITLE) == OPTION_GROUPS, "a title for every group, in the engine's order"
assert tuple(PRESET_TEXT) == PRESET_NAMES and set(UNSUPPORTED_TEXT) == set(UNSUPPORTED)


# --------------------------------------------------------------------------- errors in Russian

#: What :class:`~thousand.engine.rules.RulesError` says, in Russian: (a pattern of the English
#: message, its Russian with ``\1``-style groups).  The engine words its errors once, in
#: English (scripts and the records read them); a person at a Russian command line reads
#: them through :func:`rules_error_text`.  Tried in order; the first match wins.
_RU_ERRORS: tuple[tuple[str, str], ...] = (
    (r"unknown preset (.+); presets: (.+)", r"нет набора правил \1; наборы: \2"),
    (r"unknown option (.+) \(did you mean (.+)\?\)", r"нет правила \1 (может быть, \2?)"),
    (r"unknown option (.+); `thousand rules` lists the options",
     r"нет правила \1; все правила: thousand rules --ids"),
    (r"'preset' is not an option; give the preset name itself",
     r"preset — не правило; назовите сам набор правил"),
    (r"--set (.+): write it as name=value, e\.g\. (.+)",
     r"--set \1: пишите имя=значение, например \2"),
    (r"(\w+): no value given; write \w+=VALUE with VALUE (.+)",
     r"\1: не указано значение; пишите \1=ЗНАЧЕНИЕ, где ЗНАЧЕНИЕ — \2"),
    (r"first_bidder: dealer cannot be used with players=4, where the dealer sits out the "
     r"deal; use first_bidder=left_of_dealer or players=3",
     r"first_bidder: dealer нельзя при players=4 — там сдающий в раздаче не играет; "
     r"поставьте first_bidder=left_of_dealer или players=3"),
    (r"sitting_dealer_scores: (\S+) needs players=4 \(with 3 players nobody sits out\); "
     r"use sitting_dealer_scores=none or players=4",
     r"sitting_dealer_scores: \1 — только при players=4 (втроём все играют); поставьте "
     r"sitting_dealer_scores=none или players=4"),
    (r"(\w+): true needs bid_cap of at least 120 \(it plays a contract of 120\), but bid_cap "
     r"is (\S+); raise bid_cap or set \w+=false",
     r"\1: true требует bid_cap не меньше 120 (играется заказ 120), а bid_cap — \2; "
     r"поднимите bid_cap или поставьте \1=false"),
    (r"barrel: (\S+) is not allowed; use a score below win_score \((\S+)\), or none",
     r"barrel: \1 нельзя; нужен счёт ниже win_score (\2) или none"),
    (r"barrel_reset_score: (\S+) is not allowed; use a score below (\w+) \((\S+)\)",
     r"barrel_reset_score: \1 нельзя; нужен счёт ниже \2 (\3)"),
    (r"samosval: (\S+) is not allowed; use scores below win_score \((\S+)\): a player there "
     r"has already won",
     r"samosval: \1 нельзя; нужны значения ниже win_score (\2): с таким счётом уже "
     r"выиграли"),
    (r"marriage_values: (\S+) cannot be halved; with (.+) use multiples of 10",
     r"marriage_values: \1 не делится пополам; при \2 нужны значения, кратные 10"),
    (r"marriage_values: (.+) is not allowed; suit (.+) missing; use (.+)",
     r"marriage_values: \1 нельзя: нет масти \2; можно \3"),
    (r"rules: (.+) is not allowed; use a preset name or an object (.+)",
     r"rules: \1 нельзя; нужно имя набора правил или объект \2"),
    (r"lang: (.+) is not allowed; use ru or en", r"--lang: \1 нельзя; можно ru или en"),
    (r"(\w+): (.+) is not allowed; use (.+)", r"\1: \2 нельзя; можно \3"),
)

#: The words of the allowed values (``a whole number from 5 to 50``), in Russian.
_RU_ALLOWED: tuple[tuple[str, str], ...] = (
    (r"a value for each of the four suits S, C, D, H, each a multiple of 5, from 0 to (\d+)",
     r"значение для каждой из четырёх мастей S, C, D, H, кратное 5, от 0 до \1"),
    (r"\(in JSON ", "(в JSON "),
    (r"a list of up to (\d+) different non-zero whole numbers from (\S+) to (\S+), e\.g\.",
     r"список не больше чем из \1 разных ненулевых целых чисел от \2 до \3, например"),
    (r"a multiple of (\d+) from (\S+) to (\S+)", r"число, кратное \1, от \2 до \3"),
    (r"a whole number from (\S+) to (\S+)", r"целое число от \1 до \2"),
    (r"a positive whole number", "целое положительное число"),
    (r"a whole number, (\S+) or more", r"целое число от \1"),
    (r"a whole number", "целое число"),
    (r" or ", " или "),
    (r", или ", " или "),
)


def rules_error_text(error: Exception | str, lang: str = "en") -> str:
    """A :class:`~thousand.engine.rules.RulesError` for a person in ``lang``: the engine's
    English as it is for ``en``, in Russian for ``ru`` (the option names, values and
    identifiers stay as ``--set`` writes them)."""
    text = str(error)
    if lang != "ru":
        return text
    for pattern, ru in _RU_ERRORS:
        m = re.fullmatch(pattern, text)
        if m:
            out = m.expand(ru)
            for a, b in _RU_ALLOWED:
                out = re.sub(a, b, out)
            return out
    return "правила не годятся: " + text
