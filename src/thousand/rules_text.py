"""What each option and preset means, for people, in Russian and English.

Kept apart from :mod:`thousand.rules` so that the rules model stays small and pure and
the wording can be edited without touching the engine's contract.  The Russian text
uses the players' own words (RULES.md §8: прикуп, заказ, хваленка, роспись, темнить,
бочка, болт, самосвал, ...) because that is what people say at the table; the
English follows RULES.md §4.  Data only, plus a few look-up functions.
"""

from __future__ import annotations

import difflib
from typing import NamedTuple

from thousand.rules import (
    OPTION_NAMES,
    PRESET_NAMES,
    UNSUPPORTED,
    Rules,
    RulesError,
    format_value,
)

__all__ = [
    "LANGS",
    "OPTION_TEXT",
    "PRESET_TEXT",
    "UNSUPPORTED_TEXT",
    "OptionText",
    "Text",
    "check_lang",
    "explain",
    "preset_description",
    "title",
    "unsupported",
]

#: Interface languages; Russian first, the default.
LANGS: tuple[str, ...] = ("ru", "en")


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


#: Every option of RULES.md §4, in its order.
OPTION_TEXT: dict[str, OptionText] = {
    "players": _o(
        "число игроков",
        "number of players",
        "3 — играют втроём. 4 — вчетвером: сдающий в этой раздаче (кону) не играет, "
        "карты получают трое остальных; сдающий меняется каждую раздачу.",
        "3: three play. 4: four at the table; the dealer sits out each deal and the "
        "other three play; the dealer moves on every deal.",
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
        "Кто начинает торговлю и обязан заказать не меньше 100. left_of_dealer — "
        "игрок слева от сдающего («сидит на ста»). dealer — сам сдающий "
        "(нельзя вчетвером, где сдающий не играет).",
        "Who opens the auction and must bid at least 100. left_of_dealer: the player "
        "left of the dealer. dealer: the dealer himself (not with 4 players, where the "
        "dealer sits out).",
    ),
    "bid_step": _o(
        "шаг торговли",
        "bid step",
        "5 или 10: ставки кратны шагу, поднимать можно сразу на несколько шагов.",
        "5 or 10: bids are multiples of the step; jumps are allowed.",
    ),
    "bid_cap": _o(
        "предел ставки без марьяжа",
        "bid cap without a marriage",
        "Больше этого (120) заказать нельзя без марьяжа на руке; с марьяжами предел — "
        "120 плюс их стоимость (160 с пиковым, 220 с червовым). Кратно шагу, не меньше 100.",
        "Nobody may bid above this (120) without a marriage in hand; with marriages the "
        "cap is 120 plus their values (160 with ♠, 220 with ♥). A multiple of the step, "
        "at least 100.",
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
        "Сколько пишут каждому сопернику при росписи: 60 (половина очков колоды) или "
        "half_contract — по половине заказа, округлённой по rounding. Неиграющий "
        "сдающий этих очков не получает.",
        "What each opponent scores when the declarer concedes: 60 (half the deck) or "
        "half_contract: half the contract each, rounded with rounding. The sitting-out "
        "dealer gets none of it.",
    ),
    "concede_declarer_loses": _o(
        "расписавшемуся минус заказ",
        "conceding declarer loses the contract",
        "true — расписавшийся пишет себе минус заказ. false — заказ у него не вычитается.",
        "true: the conceding declarer scores minus the contract. false: he loses nothing.",
    ),
    "concede_limit": _o(
        "предел росписей",
        "concede limit",
        "none — без ограничения. Число (например 3) — столько росписей у каждого игрока за партию.",
        "none: unlimited. A number (e.g. 3): concedes allowed per player per game.",
    ),
    "concede_penalty_every": _o(
        "штраф за каждую n-ю роспись",
        "penalty for every n-th concede",
        "none — нет. Число (например 3) — каждая третья роспись стоит ещё минус penalty (штраф).",
        "none: off. A number (e.g. 3): every third concede costs another −penalty.",
    ),
    "concede_on_barrel": _o(
        "роспись на бочке",
        "concede on the barrel",
        "true — на бочке расписываться можно: роспись стоит как обычно, и игрок слетает "
        "с бочки. false — сидящий на бочке не расписывается.",
        "true: a player on the barrel may concede; it costs what a concede costs and he "
        "leaves the barrel (a fall). false: he may not concede there.",
    ),
    "concede_in_golden": _o(
        "роспись на золотом коне",
        "concede in golden deals",
        "true — на золотом коне расписываться можно. false — нельзя.",
        "true: a declarer may concede in a golden deal. false: he may not.",
    ),
    "dark": _o(
        "тёмная",
        "dark bid",
        "Тёмная. true — первый в торговле может, не глядя в карты, заказать 120 "
        "втемную («темнить»). Если он остаётся разыгрывающим, его очки за раздачу "
        "удваиваются (+240 или −240 при 120). Темнить нельзя, пока кто-то сидит на бочке.",
        "true: before looking at his cards the first bidder may bid 120 blind; if he "
        "becomes declarer his deal score counts double (±240 at 120). Not allowed while "
        "anyone sits on the barrel.",
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
        "true — перебить тёмную («растемнить») можно только с марьяжем на руке, от 125. "
        "false — как обычную ставку.",
        "true: others may outbid a dark bid only holding a marriage, from 125. false: as any bid.",
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
        "true — снимающий (слева от сдающего) смотрит нижнюю карту: девятку показывают "
        "всем и снимают снова; три девятки — снимающему минус penalty; валет — сдающий "
        "сам снимает ещё раз (только один).",
        "true: the cutter sees the bottom card; a nine is shown and the cut is repeated; "
        "three nines cost the cutter −penalty; a jack makes the dealer cut once more "
        "himself.",
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
}

#: One line per preset of RULES.md §5.
PRESET_TEXT: dict[str, Text] = {
    "classic": Text(
        "Классика (000): втроём, торговля от 100 шагом 5, по карте каждому сопернику, "
        "бочка 880 на три раздачи, не больше 200 раздач.",
        "Classic (000): three players, bids from 100 in fives, one card to each "
        "opponent, barrel at 880 for three deals, at most 200 deals.",
    ),
    "dealer-opens": Text(
        "Сдающий открывает (002): торговлю начинает сдающий, снятие с девятками, "
        "роспись (по 60, себе минус заказ), без предела раздач, расчёт в конце.",
        "Dealer opens (002): the dealer opens the auction, cutting for nines, concede "
        "(60 each, declarer minus the contract), no deal limit, settlement at the end.",
    ),
    "house": Text(
        "Домашние (003): роспись (по 60, каждая третья −120, не на бочке и не на "
        "золотом коне), тёмная, пересдачи, болты (каждый третий), самосвал ±555, "
        "сталкивание с бочки, третье падение — в ноль; вчетвером сдающему марьяж из прикупа.",
        "House (003): concede (60 each, every third −120, not on the barrel or in golden "
        "deals), dark bid, redeals, bolts (every third), samosval ±555, knock-off barrel, "
        "third fall resets to 0; with 4 players the dealer scores a talon marriage.",
    ),
    "textbook": Text(
        "Самоучитель (004): вчетвером, сдающему стоимость прикупа, шаг 10, снос трёх "
        "карт, роспись без минуса себе, округление до 10, бочка 900 без срока, тёмная "
        "без показа прикупа.",
        "Textbook (004): four players, the dealer scores the talon, steps of 10, discard "
        "three, concede without loss, rounding to 10, barrel at 900 without a deal "
        "limit, dark bid with the talon hidden.",
    ),
    "casual": Text(
        "Попросту (001): шаг 10, бить старшей обязательно, сыгравшему пишут взятое, "
        "без округления, бочка 850 без срока.",
        "Casual (001): steps of 10, must overtake, a made contract scores what was taken, "
        "no rounding, barrel at 850 without a deal limit.",
    ),
}

#: The agreements of ``rules.UNSUPPORTED``, in both languages.
UNSUPPORTED_TEXT: dict[str, Text] = {
    "перекуп (talon buy-out)": Text(
        "перекуп: в 002 сказано лишь, что прикуп можно перекупить за 120, 240 и т. д.; "
        "кто, в каком порядке и как потом считать — не сказано",
        "talon buy-out (перекуп): " + UNSUPPORTED["перекуп (talon buy-out)"],
    ),
    "списание по тузам (write-off by aces)": Text(
        "списание «по тузам»: в 002 у заказчика списывают половину заказа, а соперникам "
        "прибавляют «определённое количество» за тузы — сколько, не сказано",
        "write-off by aces (списание по тузам): "
        + UNSUPPORTED["списание по тузам (write-off by aces)"],
    ),
    "two players (seed 004)": Text(
        "игра вдвоём: в 004 сказано, что можно и вдвоём, но правил нет",
        "two players: " + UNSUPPORTED["two players (seed 004)"],
    ),
}


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


def explain(option: str, lang: str = "ru") -> str:
    """What ``option`` does and its values, then its value in each preset.

    Raises :class:`RulesError` for an unknown option (with a did-you-mean) or language.
    """
    text = _option(option)
    lang = check_lang(lang)
    name = option.strip().replace("-", "_")
    values = ", ".join(
        f"{p} {format_value(name, getattr(Rules.preset_rules(p), name))}" for p in PRESET_NAMES
    )
    label = "В пресетах" if lang == "ru" else "In the presets"
    return f"{name} — {text.title.get(lang)}\n{text.text.get(lang)}\n{label}: {values}."


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


assert tuple(OPTION_TEXT) == OPTION_NAMES, "explain every option, in RULES.md §4 order"
assert tuple(PRESET_TEXT) == PRESET_NAMES and set(UNSUPPORTED_TEXT) == set(UNSUPPORTED)
