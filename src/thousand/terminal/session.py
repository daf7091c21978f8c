"""The terminal game: one person against bots, with plain console input and output.

:class:`TerminalGame` runs the loop.  It takes an ``input_fn`` (``input`` by default), so
tests drive it with scripted lines, and a Rich console for output.  Everything it shows
comes from the human seat's :class:`~thousand.view.View`, except in the open-hands
training mode (``open_hands``), which shows every hand on purpose.  Bots are handed
their own seat's view only.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from thousand import moves as mv
from thousand.bots import Bot, best_level, checked_choice, decide_with_reason, make_bot
from thousand.cards import CardError, parse_card
from thousand.deal import Deal, Declaration, Phase
from thousand.game import Game
from thousand.messages import IllegalMove
from thousand.moves import Move
from thousand.view import View, view_of

from .i18n import T
from .render import (
    auction_markup,
    card_markup,
    cards_markup,
    hand_markup,
    move_markup,
    move_plain,
    phase_line,
    suit_markup,
    trick_markup,
    trump_markup,
)

InputFn = Callable[[str], str]

_QUIT = {"quit", "exit", "q", "выход", "выйти", "конец"}
_HINT = {"hint", "h", "?", "подсказка", "п?"}
_HELP = {"help", "помощь", "справка"}
_WORDS: dict[str, Move] = {
    "pass": mv.PASS, "пас": mv.PASS, "p": mv.PASS,
    "dark": mv.DARK, "тёмная": mv.DARK, "темная": mv.DARK, "темню": mv.DARK,
    "look": mv.LOOK, "смотреть": mv.LOOK, "смотрю": mv.LOOK,
    "redeal": mv.REDEAL, "пересдача": mv.REDEAL,
    "concede": mv.CONCEDE, "расписать": mv.CONCEDE, "роспись": mv.CONCEDE,
    "расписываюсь": mv.CONCEDE,
}
_RU_SUITS = {"П": "S", "Т": "C", "Б": "D", "Ч": "H"}
_RU_RANKS = {"В": "J", "Д": "Q", "К": "K", "Т": "A", "10": "T"}


class QuitGame(Exception):
    """The player asked to leave."""


def parse_card_text(text: str) -> int:
    """A card typed by a person: ``KH``, ``10h``, ``к♥``, ``кч`` (Russian suit letters
    п т б ч), ``Тб`` (ace of diamonds)."""
    t = text.strip().upper().replace("Ё", "Е")
    if len(t) >= 2 and t[-1] in _RU_SUITS:
        rank = t[:-1]
        rank = _RU_RANKS.get(rank, rank)
        t = rank + _RU_SUITS[t[-1]]
    return parse_card(t)


def parse_input(text: str, view: View) -> Move | str | None:
    """The move a line of input asks for; ``"hint"``, ``"help"``, ``"quit"`` for those
    commands; ``None`` when the line means nothing."""
    t = text.strip()
    low = t.lower()
    if not low:
        return None
    if low in _QUIT:
        return "quit"
    if low in _HINT:
        return "hint"
    if low in _HELP:
        return "help"
    if low in _WORDS:
        return _WORDS[low]
    legal = view.legal
    if low.isdigit():
        n = int(low)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        if view.phase == Phase.CONTRACT:
            return mv.contract(n)
        return mv.bid(n)
    m = re.fullmatch(r"(contract|заказ)\s+(\d+)", low)
    if m:
        return mv.contract(int(m.group(2)))
    declare = t.endswith("+")
    body = t[:-1] if declare else t
    for word in ("give ", "discard ", "отдать ", "снос "):
        if low.startswith(word):
            body = t[len(word):]
            break
    try:
        card = parse_card_text(body)
    except CardError:
        try:
            return mv.parse_move(t)
        except mv.MoveError:
            return None
    if view.phase == Phase.EXCHANGE:
        if view.rules.exchange == "discard_three":
            return mv.discard(card)
        return mv.give(card)
    return mv.play(card, declare)


def default_save_path() -> str:
    return datetime.datetime.now().strftime("thousand-%Y%m%d-%H%M%S.json")


class TerminalGame:
    """A game of Тысяча in the terminal: ``human`` is the person's seat (or ``None`` to
    watch bots play), ``bots`` the other seats' bots by seat."""

    def __init__(
        self,
        game: Game,
        bots: dict[int, Bot],
        human: int | None = 0,
        console: Console | None = None,
        input_fn: InputFn | None = None,
        lang: str = "ru",
        open_hands: bool = False,
        save_path: str | None = None,
        hint_level: str | None = None,
        bot_levels: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.bots = bots
        self.human = human
        self.console = console if console is not None else Console(highlight=False)
        self.input_fn: InputFn = input_fn if input_fn is not None else input
        self.lang = lang
        self.open_hands = open_hands
        self.save_path = save_path
        self.hint_level = hint_level or best_level()
        self._hint_bot: Bot | None = None
        self.bot_levels = list(bot_levels)
        self.names = list(game.names)
        self.saved: str | None = None

    # ------------------------------------------------------------------ output

    def say(self, text: str = "") -> None:
        self.console.print(text, highlight=False)

    def _t(self, key: str, **params: object) -> str:
        return T(self.lang, key, **params)

    def _name(self, seat: int) -> str:
        return escape(self.names[seat])

    # -------------------------------------------------------------------- loop

    def run(self) -> int:
        """Play until the game ends or the player leaves; 0 either way."""
        g = self.game
        lv = ", ".join(self.bot_levels) if self.bot_levels else "bots"
        self.say(f"[bold]{self._t('welcome', bots=lv, preset=g.rules.preset)}[/]")
        if g.seed is not None:
            self.say(self._t("seed", seed=g.seed))
        if self.open_hands:
            self.say(self._t("open_mode"))
        if self.human is not None:
            self.say(self._t("help_short"))
        try:
            while not g.over:
                deal = g.deal
                assert deal is not None
                self._deal_start(deal)
                while g.deal is deal and not g.over:
                    self._one_move(deal)
        except QuitGame:
            self._leave()
            return 0
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks
            self.say()
            self._leave()
            return 0
        self._game_end()
        return 0

    def _deal_start(self, deal: Deal) -> None:
        g = self.game
        info = g.info()
        golden = ""
        if deal.ctx.golden:
            golden = self._t("golden", player=self._name(deal.ctx.opener))
        self.say()
        header = self._t(
            "deal_header", n=info.deal_number, dealer=self._name(deal.ctx.dealer), golden=golden
        )
        self.say(f"[bold]{header}[/]")
        if g.n == 4:
            self.say(self._t("sits_out", name=self._name(deal.ctx.dealer)))
        self._show_hands(deal)

    def _show_hands(self, deal: Deal) -> None:
        if self.open_hands:
            for s in deal.active:
                label = self._t("hand_of", name=self._name(s))
                self.say(f"  {label}: {hand_markup(deal.hands[s], self.lang)}")
            if deal.declarer < 0:
                self.say(f"  {self._t('talon')}: {cards_markup(deal.talon, self.lang)}")
        elif self.human is not None:
            view = view_of(deal, self.human)
            if view.hand is not None and self.human in deal.active:
                self.say(f"  {self._t('your_hand')}: {hand_markup(view.hand, self.lang)}")

    def _one_move(self, deal: Deal) -> None:
        seat = deal.to_move
        watcher = self.human
        before = view_of(deal, watcher)
        if seat == self.human:
            move = self._ask(deal)
        else:
            move = checked_choice(self.bots[seat], self.game.view(seat))
            self.game.apply(move)
        after = view_of(deal, watcher)
        self._narrate(seat, move, before, after, deal)

    # -------------------------------------------------------------- the human

    def _ask(self, deal: Deal) -> Move:
        g = self.game
        assert self.human is not None
        view = g.view(self.human)
        self._show_turn(view, deal)
        while True:
            try:
                line = self.input_fn(self._t("prompt"))
            except KeyboardInterrupt:
                self.say()
                raise QuitGame from None
            except EOFError:
                self.say()
                self.say(self._t("eof"))
                raise QuitGame from None
            asked = parse_input(line, view)
            if asked is None:
                self.say(self._t("unknown_input", text=escape(line.strip())))
                continue
            if asked == "quit":
                raise QuitGame
            if asked == "help":
                self.say(self._t("help"))
                self._show_moves(view)
                continue
            if asked == "hint":
                self._hint(view)
                continue
            assert isinstance(asked, int)
            try:
                g.apply(asked)
            except IllegalMove as e:
                self.say(f"[yellow]{escape(self._t('illegal', why=e.text(self.lang)))}[/]")
                continue
            return asked

    def _show_turn(self, view: View, deal: Deal) -> None:
        lang = self.lang
        self.say()
        if self.open_hands:
            for s in deal.active:
                if s != self.human:
                    label = self._t("hand_of", name=self._name(s))
                    self.say(f"  {label}: {hand_markup(deal.hands[s], lang)}")
        line = phase_line(view, self.names, lang)
        if line:
            self.say(line)
        if view.phase == Phase.AUCTION and view.auction:
            self.say(f"  {self._t('auction')}: {auction_markup(view, self.names, lang)}")
        if view.phase == Phase.PLAY:
            contract = self._t(
                "contract_line", name=self._name(view.declarer), n=view.contract,
                dark=self._t("dark_mark") if view.dark else "",
            )
            self.say(f"  {self._t('trump')}: {trump_markup(view.trump, lang)}; {contract}")
            if view.trick:
                self.say(f"  {self._t('on_table')}: {trick_markup(view.trick, self.names, lang)}")
        if view.hand is not None:
            self.say(f"  {self._t('your_hand')}: {hand_markup(view.hand, lang)}")
        else:
            self.say(f"  {self._t('hidden_hand')}")
        self._show_moves(view)

    def _show_moves(self, view: View) -> None:
        items = [
            f"[cyan]{i}[/]) {move_markup(m, view, self.names, self.lang)}"
            for i, m in enumerate(view.legal, 1)
        ]
        self.say(f"  {self._t('moves')}: " + "  ".join(items))

    def _hint(self, view: View) -> None:
        if self._hint_bot is None:
            self._hint_bot = make_bot(self.hint_level, seed=0)
        move, why = decide_with_reason(self._hint_bot, view, self.lang)
        text = self._t(
            "hint", level=self.hint_level, move=move_plain(move, self.lang), why=why or "—"
        )
        number = view.legal.index(move) + 1 if move in view.legal else None
        suffix = f" [{number}]" if number is not None else ""
        self.say(f"[green]{escape(text)}{suffix}[/]")

    # ------------------------------------------------------------- narration

    def _narrate(self, seat: int, move: Move, before: View, after: View, deal: Deal) -> None:
        lang = self.lang
        name = self._name(seat)
        if move == mv.LOOK:
            return
        if before.phase in (Phase.AUCTION, Phase.DARK_CHOICE):
            if move == mv.PASS:
                self.say(self._t("passes", name=name))
            elif move == mv.DARK:
                self.say(self._t("dark", name=name))
            elif move == mv.REDEAL:
                self.say(self._t("redeal", name=name))
            elif mv.is_bid(move):
                self.say(self._t("bids", name=name, bid=mv.value_of(move)))
        elif before.phase == Phase.EXCHANGE:
            if move == mv.REDEAL:
                self.say(self._t("redeal", name=name))
            elif mv.is_give(move):
                to = after.given[len(before.given)][1]
                card = after.given[len(before.given)][0]
                if seat == self.human:
                    self.say(self._t("you_give", card=card_markup(mv.card_of(move), lang),
                                     to=self._name(to)))
                elif to == self.human and card is not None:
                    self.say(self._t("gives_you", name=name, card=card_markup(card, lang)))
                else:
                    self.say(self._t("gives", name=name, to=self._name(to)))
            elif mv.is_discard(move):
                if seat == self.human:
                    self.say(self._t("you_discard", card=card_markup(mv.card_of(move), lang)))
                else:
                    self.say(self._t("discards", name=name))
        elif before.phase == Phase.CONTRACT:
            if move == mv.CONCEDE:
                self.say(self._t("concedes", name=name, n=before.bid))
            else:
                self.say(f"[bold]{self._t('contract', name=name, n=mv.value_of(move))}[/]")
        elif before.phase == Phase.REDEAL_OFFER:
            if move == mv.REDEAL:
                self.say(self._t("redeal", name=name))
            else:
                self.say(self._t("redeal_pass", name=name))
        elif before.phase == Phase.PLAY:
            if len(after.declarations) > len(before.declarations):
                self._declaration(after.declarations[-1])
            card = mv.card_of(move)
            if len(after.tricks) > len(before.tricks):
                t = after.tricks[-1]
                self.say(self._t(
                    "trick", n=len(after.tricks), cards=trick_markup(t.cards, self.names, lang),
                    name=self._name(t.winner), points=t.points,
                ))
            else:
                self.say(self._t("plays", name=name, card=card_markup(card, lang)))
        # the auction is over: the declarer takes the talon
        if before.declarer < 0 and after.declarer >= 0 and after.phase != Phase.DONE:
            d = self._name(after.declarer)
            if not deal.ctx.golden:
                self.say(f"[bold]{self._t('declarer', name=d, bid=after.bid)}[/]")
            if after.talon is not None or self.open_hands:
                self.say(self._t("talon_taken", name=d, cards=cards_markup(deal.talon, lang)))
            else:
                self.say(self._t("talon_taken_hidden", name=d))
            if self.human == after.declarer and after.hand is not None:
                self.say(f"  {self._t('your_hand')}: {hand_markup(after.hand, lang)}")
        if before.phase == Phase.CONTRACT and after.phase == Phase.PLAY and self.open_hands:
            self._show_hands(deal)
        if after.phase == Phase.DONE and before.phase != Phase.DONE:
            self._deal_end(after)

    def _declaration(self, d: Declaration) -> None:
        lang = self.lang
        key = {"marriage": "marriage", "half_marriage": "half_marriage",
               "ace_marriage": "ace_marriage", "four_nines": "four_nines"}[d.kind]
        text = self._t(
            key, name=self._name(d.seat), suit=suit_markup(d.suit, lang), points=d.points
        )
        self.say(f"[bold magenta]{text}[/]")

    def _deal_end(self, view: View) -> None:
        res = view.result
        if res is None:
            return
        self.say(f"[bold]{self._t('deal_over')}[/]")
        if res.outcome == "redeal":
            self.say(self._t("redealt"))
        elif res.outcome == "conceded" and res.declarer is not None:
            self.say(self._t("conceded", name=self._name(res.declarer), n=res.contract))
        elif res.declarer is not None:
            d = res.declarer
            key = "made" if res.made else "failed"
            text = self._t(key, name=self._name(d), n=res.contract, points=res.points[d])
            self.say(f"[bold]{text}[/]")
            items = ", ".join(f"{self._name(s)} {res.points[s]}" for s in res.active)
            self.say(self._t("points_line", items=items))
        self._sheet()

    def _sheet(self) -> None:
        from thousand.sheet import render_sheet

        self.console.print(render_sheet(self.game, self.lang))

    def _game_end(self) -> None:
        g = self.game
        self.say()
        self.say(f"[bold]{self._t('game_over')}[/]")
        w = g.winner
        if isinstance(w, list):
            self.say(self._t("shared", names=", ".join(self._name(s) for s in w)))
        elif w is not None:
            self.say(f"[bold green]{self._t('winner', name=self._name(w))}[/]")
            if w == self.human:
                self.say(self._t("you_win"))
        items = ", ".join(f"{self._name(s)} {sc}" for s, sc in enumerate(g.scores))
        self.say(self._t("scores", items=items))
        if self.save_path:
            self.save(self.save_path)

    # ---------------------------------------------------------------- leaving

    def _leave(self) -> None:
        """Ctrl-C, ``quit`` or the end of input: offer to save, then go."""
        try:
            answer = self.input_fn(self._t("save_ask"))
        except (KeyboardInterrupt, EOFError):
            answer = "y" if self.save_path else "n"
            self.say()
        if answer.strip().lower() in {"y", "yes", "д", "да", "l"}:
            default = self.save_path or default_save_path()
            try:
                path = self.input_fn(self._t("save_file_ask", default=default)).strip()
            except (KeyboardInterrupt, EOFError):
                path = ""
                self.say()
            self.save(path or default)
        self.say(self._t("bye"))

    def save(self, path: str) -> bool:
        from thousand.record import dumps_record, game_to_record

        try:
            Path(path).write_text(dumps_record(game_to_record(self.game)) + "\n",
                                  encoding="utf-8")
        except OSError as e:
            self.say(self._t("save_failed", path=escape(path), why=escape(e.strerror or str(e))))
            return False
        self.saved = path
        self.say(self._t("saved", path=escape(path)))
        return True


def make_session(
    game: Game,
    levels: Sequence[str],
    human: int | None = 0,
    seed: int | None = None,
    **kwargs: object,
) -> TerminalGame:
    """A :class:`TerminalGame` whose non-human seats are bots of ``levels`` in seat order."""
    bots: dict[int, Bot] = {}
    others = [s for s in range(game.n) if s != human]
    for i, s in enumerate(others):
        level = levels[i % len(levels)]
        bots[s] = make_bot(level, seed=None if seed is None else seed * 10 + s)
    used = [levels[i % len(levels)] for i in range(len(others))]
    return TerminalGame(game, bots, human=human, bot_levels=used, **kwargs)  # type: ignore[arg-type]
