"""A hand's result and a round's result in the words the table shows: "Blackjack +15", "You lose -10"."""

from __future__ import annotations

# The engine's outcome of a hand (tables.engine.round_flow) as a player says it.
OUTCOME_WORDS = {
    "blackjack": "Blackjack",
    "win": "Win",
    "push": "Push",
    "lose": "Lose",
    "bust": "Bust",
    "surrender": "Surrender",
}


def signed(chips: int) -> str:
    """+15, -10, and 0 for nothing won or lost."""
    return f"+{chips}" if chips > 0 else str(chips)


def hand_words(outcome: str, net: int, *, dealer_blackjack: bool = False) -> str:
    """One settled hand: its outcome and the chips it won or lost ("Bust -10", "Push")."""
    if outcome == "lose" and dealer_blackjack:
        words = "Dealer blackjack"
    else:
        words = OUTCOME_WORDS.get(outcome, outcome.capitalize())
    return words if net == 0 else f"{words} {signed(net)}"


def round_words(net: int, *, blackjack: bool) -> str:
    """The viewer's round over all their seats, as the banner says it."""
    if net == 0:
        return "Push"
    if net > 0 and blackjack:
        return f"Blackjack {signed(net)}"
    return f"You win {signed(net)}" if net > 0 else f"You lose {signed(net)}"
