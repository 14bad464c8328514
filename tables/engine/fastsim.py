"""The simulator's fast path: basic strategy in one tight loop over the seeded card order.

It deals exactly what a ``GameRound`` deals from the same shoe (docs/engine.md, the
shoe algorithm, computed as ``CardShoe.draw`` computes it: ``fastshoe.py``), plays the
same basic-strategy decisions (looked up in a table filled from
``strategy.basic_strategy``) and settles to the chip as RULES.md says, but
keeps no events, no objects per hand and no checks a simulated player cannot
fail. ``tests/engine/test_fastsim.py`` holds it to ``GameRound`` round by round.

A round that would run the shoe out (the mid-round reshuffle of RULES.md) is
played instead by ``GameRound`` itself from the same shoe position.
"""

from __future__ import annotations

from collections.abc import Iterator

from .fastshoe import FastShoe, OutOfCards, hmac_pads, hmac_sha256
from .fasttable import BET, POINT, SimTable
from .round import GameRound
from .rules import RuleSet
from .shoe import CardShoe
from .state import Phase
from .strategy import basic_strategy

def _dealer(table: SimTable, shoe: FastShoe, hard: int, aces: int) -> int:
    """The dealer draws to 17 (standing on soft 17 unless the rules say hit); the final total."""
    total, shoe.dealt = _dealer_from(shoe, shoe.dealt, hard, aces, table.hits_soft_17)
    return total


def _dealer_from(shoe: FastShoe, dealt: int, hard: int, aces: int, hits_soft_17: bool) -> tuple[int, int]:
    """``_dealer`` drawing from ``shoe.cards[dealt:]``: (final total, cards dealt after it)."""
    cards = shoe.cards
    while True:
        total = hard + 10 if aces and hard <= 11 else hard
        if total > 17 or (total == 17 and not (hits_soft_17 and aces and hard <= 11)):
            return total, dealt
        if dealt == len(cards):
            shoe.shuffle(3)
            if dealt == len(cards):
                raise OutOfCards
        point = POINT[cards[dealt]]
        dealt += 1
        hard += point + 1
        aces += point == 0


def _round_one_seat(table: SimTable, shoe: FastShoe) -> int:
    """One seat's round, its hand in local variables; a split hands it to the general path.

    Cards are read straight from ``shoe.cards`` (``dealt`` kept locally and
    stored back before every return).
    """
    cards = shoe.cards
    dealt = shoe.dealt
    if dealt + 4 > len(cards):
        shoe.shuffle(dealt + 5 - len(cards))
        if dealt + 4 > len(cards):
            raise OutOfCards
    first, up_rank, second, hole_rank = cards[dealt:dealt + 4]
    dealt += 4
    shoe.dealt = dealt
    one, two, up, hole = POINT[first], POINT[second], POINT[up_rank], POINT[hole_rank]
    natural = one + two == 9 and (one == 0 or two == 0)
    dealer_blackjack = up + hole == 9 and (up == 0 or hole == 0)
    if up == 0 or up == 9:
        if table.peek:
            if dealer_blackjack:
                return 0 if natural else -BET  # the peek ends the round
            waits = False
        else:
            waits = True  # no peek: the hole card is turned after play
    else:
        waits = False
    dealer_hard = up + hole + 2
    dealer_aces = (up == 0) + (hole == 0)
    if natural:
        if not waits:
            return table.pays  # paid at once; no live hand, so the dealer does not draw
        if dealer_blackjack:
            return 0
        _dealer(table, shoe, dealer_hard, dealer_aces)  # the natural is live: the dealer draws
        return table.pays
    hard = one + two + 2
    aces = (one == 0) + (two == 0)
    count = 2
    bet = BET
    moves = table.moves
    pair = one if table.max_hands >= 2 and (first == second if table.by_rank else one == two) else -1
    surrender = table.surrender
    while True:
        total = hard + 10 if aces and hard <= 11 else hard
        if hard > 21 or total == 21:
            break
        two_cards = count == 2
        soft = aces > 0 and hard <= 11
        key = ((((up * 22 + total) * 2 + soft) * 11 + (pair + 1 if two_cards else 0)) * 2 + two_cards) * 2 \
            + (surrender and two_cards)
        action = moves[key] or table.ask(key)
        if action == "stand":
            break
        if action == "hit" or action == "double":
            if dealt == len(cards):
                shoe.shuffle(3)
                if dealt == len(cards):
                    raise OutOfCards
            point = POINT[cards[dealt]]
            dealt += 1
            hard += point + 1
            aces += point == 0
            count += 1
            if action == "double":
                bet += BET
                break
        elif action == "surrender":
            shoe.dealt = dealt
            return -(BET - BET // 2)  # RULES.md: floor(bet / 2) comes back; no live hand
        else:
            shoe.dealt = dealt
            hands = [[hard, aces, count, bet, first, second, False, False, False, False]]
            net = _play_seat(table, hands, up, shoe)
            return net + _settle(table, shoe, [hands], [False], waits and dealer_blackjack, dealer_hard, dealer_aces)
    shoe.dealt = dealt
    if waits and dealer_blackjack:
        return -BET  # OBO: only the initial bet is lost, the double comes back
    if hard > 21:
        return -bet  # no live hand: the dealer does not draw
    total = hard + 10 if aces and hard <= 11 else hard
    dealer, shoe.dealt = _dealer_from(shoe, dealt, dealer_hard, dealer_aces, table.hits_soft_17)
    if dealer > 21 or total > dealer:
        return bet
    return -bet if total < dealer else 0


def _round(table: SimTable, shoe: FastShoe, seats: int) -> int:
    """Every seat's round (any number of seats): all seats' net chips."""
    draw = shoe.draw
    # A hand: [hard, aces, cards, bet, first rank, second rank, from split, one card, done, settled]
    hands_of = []
    for _ in range(seats):
        rank = draw()
        hands_of.append([[POINT[rank] + 1, int(rank == 0), 1, BET, rank, -1, False, False, False, False]])
    up = POINT[draw()]
    for hands in hands_of:
        hand = hands[0]
        rank = draw()
        hand[0] += POINT[rank] + 1
        hand[1] += rank == 0
        hand[2] = 2
        hand[5] = rank
    hole = POINT[draw()]
    dealer_hard = up + hole + 2
    dealer_aces = (up == 0) + (hole == 0)
    dealer_blackjack = up + hole == 9 and (up == 0 or hole == 0)
    naturals = [hands[0][0] == 11 and hands[0][1] == 1 for hands in hands_of]
    net = 0
    waits = False
    if up == 0 or up == 9:
        if table.peek:
            if dealer_blackjack:
                return -BET * naturals.count(False)  # naturals push, the rest lose the bet
        else:
            waits = True
    if not waits:
        for seat, hands in enumerate(hands_of):
            if naturals[seat]:
                net += table.pays
                hands[0][8] = hands[0][9] = True
    for seat, hands in enumerate(hands_of):
        if naturals[seat]:
            hands[0][8] = True
        else:
            net += _play_seat(table, hands, up, shoe)
    return net + _settle(table, shoe, hands_of, naturals, waits and dealer_blackjack, dealer_hard, dealer_aces)


def _settle(table: SimTable, shoe: FastShoe, hands_of: list, naturals: list[bool], dealer_blackjack: bool,
            dealer_hard: int, dealer_aces: int) -> int:
    """The dealer's draw (only for a live hand) and every unsettled hand's result."""
    net = 0
    if dealer_blackjack:
        for seat, hands in enumerate(hands_of):
            for index, hand in enumerate(hands):
                if hand[9] or naturals[seat]:
                    continue  # settled already, or a natural pushing
                # OBO: only the original bet is lost; doubles and split hands come back.
                net -= (BET if index == 0 else 0) if table.obo else hand[3]
        return net
    dealer = 0
    if any(not hand[9] and hand[0] <= 21 for hands in hands_of for hand in hands):
        dealer = _dealer(table, shoe, dealer_hard, dealer_aces)
    for seat, hands in enumerate(hands_of):
        for hand in hands:
            if hand[9]:
                continue
            bet = hand[3]
            if naturals[seat]:
                net += table.pays
            elif hand[0] > 21:
                net -= bet
            else:
                total = hand[0] + 10 if hand[1] and hand[0] <= 11 else hand[0]
                if dealer > 21 or total > dealer:
                    net += bet
                elif total < dealer:
                    net -= bet
    return net


def _play_seat(table: SimTable, hands: list[list], up: int, shoe: FastShoe) -> int:
    """Basic strategy for one seat's hands, left to right, a split hand right after its source.

    Returns the chips settled during play (surrenders)."""
    draw = shoe.draw
    play = table.play
    net = 0
    index = 0
    while index < len(hands):
        hand = hands[index]
        if hand[2] == 1:
            # A split hand gets its second card when play reaches it.
            rank = draw()
            hand[0] += POINT[rank] + 1
            hand[1] += rank == 0
            hand[2] = 2
            hand[5] = rank
            if hand[7]:
                hand[8] = True
        while not hand[8]:
            hard, aces, count = hand[0], hand[1], hand[2]
            total = hard + 10 if aces and hard <= 11 else hard
            if hard > 21 or total == 21:
                hand[8] = True
                break
            pair = -1
            if count == 2:
                first, second = hand[4], hand[5]
                same = first == second if table.by_rank else POINT[first] == POINT[second]
                if (same and len(hands) < table.max_hands
                        and not (hand[6] and first == 0 and not table.resplit_aces)):
                    pair = POINT[first]
            double = count == 2 and (table.das or not hand[6])
            action = play(up, total, aces > 0 and hard <= 11, pair, double, table.surrender and count == 2)
            if action == "stand":
                hand[8] = True
            elif action == "hit":
                rank = draw()
                hand[0] += POINT[rank] + 1
                hand[1] += rank == 0
                hand[2] += 1
            elif action == "double":
                hand[3] += BET
                rank = draw()
                hand[0] += POINT[rank] + 1
                hand[1] += rank == 0
                hand[2] += 1
                hand[8] = True
            elif action == "surrender":
                # RULES.md: the hand ends and floor(bet / 2) comes back at once.
                hand[8] = hand[9] = True
                net -= hand[3] - hand[3] // 2
            else:  # split: this hand keeps its first card and draws at once; the new hand waits
                first, second = hand[4], hand[5]
                one_card = first == 0 and table.one_card_aces
                hands.insert(index + 1, [POINT[second] + 1, int(second == 0), 1, BET, second, -1, True,
                                         one_card, False, False])
                rank = draw()
                hand[0] = POINT[first] + 1 + POINT[rank] + 1
                hand[1] = int(first == 0) + (rank == 0)
                hand[2] = 2
                hand[5] = rank
                hand[6] = True
                hand[7] = one_card
                if one_card:
                    hand[8] = True
        index += 1
    return net


def round_nets(rules: RuleSet, rounds: int, seats: int, seed: bytes, fresh_shoe: bool = False) -> Iterator[int]:
    """Each round's net chips (all seats), from the shoes ``simulate.play_rounds`` deals."""
    for net, _, _ in round_results(rules, rounds, seats, seed, fresh_shoe):
        yield net


def round_results(rules: RuleSet, rounds: int, seats: int, seed: bytes,
                  fresh_shoe: bool = False) -> Iterator[tuple[int, int, int]]:
    """Per round: (net chips, number of the shoe, cards dealt from it so far)."""
    table = SimTable(rules)
    decks = rules.decks
    cut = rules.cut_card(decks * 52)
    master = hmac_pads(seed)  # derive_seed(seed, b"shoe", k) without hmac's per-call setup
    shoes = 0
    shoe = FastShoe(hmac_sha256(master, b"shoe" + shoes.to_bytes(8, "big")), decks)
    replace = False
    for _ in range(rounds):
        # CardShoe.needs_reshuffle: a fresh shoe once any card is dealt, else at the cut card.
        if fresh_shoe or replace or (shoe.dealt > 0 if cut is None else shoe.dealt >= cut):
            shoes += 1
            shoe.reset(hmac_sha256(master, b"shoe" + shoes.to_bytes(8, "big")))
            replace = False
        start = shoe.dealt
        try:
            net = _round_one_seat(table, shoe) if seats == 1 else _round(table, shoe, seats)
        except OutOfCards:
            # RULES.md's mid-round reshuffle: the table's own GameRound deals this one.
            shoe.dealt = start
            engine_shoe = shoe.as_shoe()
            net = _round_by_the_engine(rules, engine_shoe, seats)
            shoe.dealt = engine_shoe.dealt
            replace = True
        yield net, shoes, shoe.dealt


def _round_by_the_engine(rules: RuleSet, shoe: CardShoe, seats: int) -> int:
    stack = 10**9
    round_ = GameRound.new(rules=rules, shoe=shoe, seats={number: stack for number in range(1, seats + 1)})
    for number in range(1, seats + 1):
        round_.bet(number, BET)
    if round_.phase is Phase.INSURANCE:
        round_.close_insurance(actor="player")
    up_card = round_.dealer.cards[0]
    while round_.phase is Phase.PLAYERS:
        number, index = round_.to_act()
        cards = round_.seats[number].hands[index].cards
        legal = round_.legal_actions(number, index)
        round_.act(basic_strategy(rules, cards, up_card, legal), seat=number, hand=index)
    return sum(seat.stack for seat in round_.seats.values()) - stack * seats


def play_rounds_fast(rules: RuleSet, rounds: int, seats: int, seed: bytes,
                     fresh_shoe: bool = False) -> tuple[int, int, int]:
    """``simulate.play_rounds`` through the fast path: (rounds, sum of nets, sum of squares)."""
    total = squares = 0
    for net, _, _ in round_results(rules, rounds, seats, seed, fresh_shoe):
        total += net
        squares += net * net
    return rounds, total, squares
