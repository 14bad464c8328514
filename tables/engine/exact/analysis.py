"""The exact analyser's public functions: dealer probabilities, one decision, the whole game.

Values are per unit of initial bet. On peek profiles they are conditioned on
the dealer not holding blackjack (the player only acts then); on no-peek
profiles with OBO they include the dealer's blackjack, found after play, which
takes the initial bet only (RULES.md). Insurance is the value of the side bet
itself at its largest stake, half the bet, decided before the peek.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..actions import action_named, actions_in
from ..rules import InsuranceRule, RuleSet, SplitAces, SplitBy, Surrender
from ..state import Phase
from .composition import INDEX_RANK, Composition, card_index
from .dealer import OUTCOMES
from .hands import UpCardSolver, encode, hand_state
from .split import best_split_value

#: The player's decisions, named and ordered as ``GameRound.legal_actions()`` gives them
#: (the engine's action registry), and insurance.
PLAY_ACTIONS: tuple[str, ...] = tuple(spec.name for spec in actions_in(Phase.PLAYERS))
ACTIONS = PLAY_ACTIONS + (action_named("insurance").name,)
LEVEL0 = ("optimal", False, 0, 0)


def check_rules(rules: RuleSet) -> None:
    if not rules.dealer_peek and not rules.original_bets_only:
        # Every value here assumes a dealer blackjack takes the initial bet only.
        raise ValueError("the exact analyser needs a peek or OBO (original bets only)")


@lru_cache(maxsize=64)
def solver_for(rules: RuleSet, shoe: tuple[int, ...], up: int) -> UpCardSolver:
    """The cached solver for one rule set, shoe and up card (dealer caches and memos inside)."""
    return UpCardSolver(rules, shoe, up)


def clear_caches() -> None:
    """Forget every cached dealer distribution and hand value (for cold-cache timings)."""
    solver_for.cache_clear()


def _shoe(rules: RuleSet, composition: Composition | None) -> tuple[int, ...]:
    return (composition or Composition.full(rules.decks)).counts


def dealer_probabilities(rules: RuleSet, up_card: str, composition: Composition | None = None,
                         removed: Sequence[str] = ()) -> dict[str, float]:
    """The dealer's final outcomes for ``up_card``: totals 17-21, ``bust`` and ``blackjack``.

    ``composition`` is the shoe before the up card is dealt (a fresh shoe by
    default); ``removed`` are other cards known to be out (the player's, say).
    Unconditional: on peek profiles the player acts only on the rows given no
    blackjack, i.e. each divided by ``1 - blackjack``.
    """
    shoe = Composition(_shoe(rules, composition)).without(removed).counts
    up = card_index(up_card)
    solver = solver_for(rules, shoe, up)
    solver.prefetch([0])
    return dict(zip(OUTCOMES, solver.outcomes[0]))


def _parse_hand(hand_cards: Sequence[str]) -> list[int]:
    hand = [card_index(card) for card in hand_cards]
    if len(hand) < 2:
        raise ValueError("a hand to decide on holds at least two cards")
    return hand


def _is_pair(rules: RuleSet, hand_cards: Sequence[str], hand: list[int]) -> bool:
    if len(hand) != 2 or hand[0] != hand[1]:
        return False
    if rules.split_by is SplitBy.RANK:
        ranks = [str(card).strip().upper().replace("10", "T")[0] for card in hand_cards]
        return ranks[0] == ranks[1]
    return True


def legal_actions(rules: RuleSet, hand_cards: Sequence[str], up_card: str, *,
                  split_hands: int = 0) -> tuple[str, ...]:
    """What the round offers this hand (``GameRound.legal_actions``), plus insurance on two cards.

    ``split_hands``: 0 for an unsplit hand; for a hand that came from a split,
    the number of hands the seat holds now (``hand_cards[0]`` the pair card).
    """
    hand = _parse_hand(hand_cards)
    hard, aces, ncards = hand_state(encode([hand.count(i) for i in range(10)]))
    total = hard + 10 if aces and hard <= 11 else hard
    if total > 21:
        raise ValueError("a busted hand has no decision left")
    after_split = split_hands != 0
    if after_split and not 2 <= split_hands <= rules.max_hands:
        raise ValueError(f"a seat holds 2 to {rules.max_hands} hands after splitting at this table")
    insurance = (not after_split and rules.insurance is not InsuranceRule.NONE
                 and card_index(up_card) == 0 and ncards == 2)
    split_ace = after_split and hand[0] == 0
    if total == 21 or (split_ace and rules.split_aces is SplitAces.ONE_CARD):
        # 21 ends the hand at once; split aces take one card each: nothing left to decide.
        return ("stand", "insurance") if insurance else ("stand",)
    actions = ["hit", "stand"]
    if ncards == 2:
        if not after_split or rules.double_after_split:
            actions.append("double")
        if (_is_pair(rules, hand_cards, hand) and max(split_hands, 1) < rules.max_hands
                and not (split_ace and not rules.resplit_aces)):
            actions.append("split")
        if rules.surrender is Surrender.LATE:
            actions.append("surrender")
        if insurance:
            actions.append("insurance")
    return tuple(actions)


def action_evs(rules: RuleSet, composition: Composition | None, hand_cards: Sequence[str],
               up_card: str, *, split_hands: int = 0) -> dict[str, float]:
    """Expected value of every legal action for a hand (per unit of initial bet).

    ``composition``: the shoe before this round's cards were dealt (``None``:
    a fresh shoe); the hand and the up card are taken out of it (take the
    other cards on the table out of ``composition`` too). Doubling is for the
    full bet; docs/engine.md gives the value of a double for less. With
    ``split_hands`` (a hand from a split, the seat now holding that many
    hands) the values are this hand's, per unit of its bet, given no dealer
    blackjack on every profile (on a no-peek table a blackjack takes the
    seat's original bet whatever this hand does).
    """
    check_rules(rules)
    legal = legal_actions(rules, hand_cards, up_card, split_hands=split_hands)
    hand = _parse_hand(hand_cards)
    shoe = Composition(_shoe(rules, composition)).without(hand).counts
    up = card_index(up_card)
    # The hand's cards stay in the solver's shoe as its code, so one solver serves every hand.
    full = list(shoe)
    for index in hand:
        full[index] += 1
    solver = solver_for(rules, tuple(full), up)
    counts = [hand.count(index) for index in range(10)]
    code = encode(counts)
    hard, aces, ncards = hand_state(code)
    blackjack = solver.blackjack_chance(code)
    natural = ncards == 2 and hard == 11 and aces and not split_hands
    given_no_blackjack = rules.dealer_peek or bool(split_hands)
    values: dict[str, float] = {}
    plays = [action for action in legal if action not in ("split", "insurance")]
    if natural:
        # Paid at once (3:2) unless the dealer has blackjack too, which pushes.
        values["stand"] = float(rules.blackjack_pays) * (1.0 - blackjack)
    else:
        solver.prefetch(solver.reachable(code))
        values.update(solver.action_values(code, tuple(plays), LEVEL0))
    if "split" in legal:
        limit = rules.max_hands - split_hands + 1 if split_hands else None
        values["split"] = best_split_value(solver, hand[0], limit)[0]
    result = {}
    for action in legal:
        if action == "insurance":
            # Half the bet on the hole card being a ten: pays 2:1.
            result[action] = 0.5 * (3.0 * blackjack - 1.0)
        elif natural:
            result[action] = float(rules.blackjack_pays) if rules.dealer_peek else values[action]
        elif action == "surrender" and given_no_blackjack:
            result[action] = -0.5  # exactly: half the bet back, the dealer known not to hold blackjack
        elif given_no_blackjack and blackjack < 1.0:
            result[action] = (values[action] + blackjack) / (1.0 - blackjack)
        else:
            result[action] = values[action]
    return result


def insurance_value(composition: Composition, hand_cards: Sequence[str], up_card: str) -> float:
    """Insurance for half the bet, per unit of the bet: ``0.5 × (3p − 1)``.

    ``p`` is the chance that the hole card is a ten-value, drawn from
    ``composition`` (the shoe before this round's cards were dealt, as for
    ``action_evs``) with the hand and the up card taken out. ``action_evs``
    gives the same value; this takes no dealer table. A stake of ``s`` chips
    is worth ``s × (3p − 1)``.
    """
    shoe = composition.without([*hand_cards, up_card])
    if shoe.size == 0:
        raise ValueError("no card is left for the hole")
    return 0.5 * (3.0 * shoe.counts[9] / shoe.size - 1.0)


def best_action(evs: dict[str, float]) -> str:
    """The play with the highest value (insurance, a side bet, is not a play)."""
    plays = {action: value for action, value in evs.items() if action in PLAY_ACTIONS}
    return max(plays, key=plays.__getitem__)


def describe_hand(hand_cards: Sequence[str]) -> str:
    return ",".join(INDEX_RANK[card_index(card)] for card in hand_cards)
