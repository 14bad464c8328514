"""A settled round replayed from its events: the table after each step, the hole card hidden until turned."""

import pytest

from tables.history import replay
from tables.models import Round, RoundSeat, RuleProfile
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db


def act(table, user, action, seat=1, **fields):
    table.refresh_from_db()
    services.do_act(table.pk, user, action, seat=seat, version=table.version, **fields)


def settled_round(table) -> Round:
    table.refresh_from_db()
    round_row = table.current_round
    assert round_row.phase == "settled"
    return round_row


def replay_of(round_row: Round, names=None) -> list[replay.Step]:
    return replay.steps(round_row.state, round_row.event_times, names or {1: "alice"})


def codes(cards) -> list[str]:
    return [card.code for card in cards]


def captions(all_steps) -> list[str]:
    return [step.caption for step in all_steps]


def index_of(all_steps, words: str) -> int:
    return next(step.index for step in all_steps if words in step.caption)


def assert_last_step_matches_the_history_row(all_steps, round_row):
    """The replay ends where the round ended: every seat's cards, bets, outcomes and stack."""
    last = all_steps[-1]
    for row in RoundSeat.objects.filter(round=round_row):
        seat = next(s for s in last.seats if s.number == row.seat)
        assert seat.stack == row.stack_after
        assert seat.net == row.net
        assert seat.insurance == row.insurance
        assert [(codes(h.cards), h.bet, h.outcome, h.total) for h in seat.hands] == [
            (h["cards"], h["bet"], h["outcome"], h["total"]) for h in row.hands
        ]
    assert codes(last.dealer) == round_row.state["dealer"]


def test_a_split_and_double_round_is_replayed_hand_by_hand(solo_table, alice, rig):
    # alice 8 8 splits; hand 1 gets 3 (11) and doubles onto T (21); hand 2 gets T (18); dealer 6 T 9 busts.
    rig(["8S", "6H", "8C", "TD", "3H", "TC", "TS", "9D"])
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "split")
    act(solo_table, alice, "double", hand=0)
    act(solo_table, alice, "stand", hand=1)
    round_row = settled_round(solo_table)
    all_steps = replay_of(round_row)

    assert len(all_steps) == len(round_row.state["events"]) + 1
    opening = all_steps[0]
    assert (opening.index, opening.dealer, opening.seats[0].stack, opening.seats[0].hands) == (0, [], 100, [])

    split = all_steps[index_of(all_steps, "alice splits")]
    seat = split.seats[0]
    assert [(codes(h.cards), h.bet) for h in seat.hands] == [(["8S"], 10), (["8C"], 10)]
    assert (seat.stack, seat.acting, split.actor) == (80, True, "player")

    doubled = all_steps[index_of(all_steps, "alice doubles for 10")]
    assert [(codes(h.cards), h.bet) for h in doubled.seats[0].hands] == [(["8S", "3H"], 20), (["8C"], 10)]
    assert doubled.seats[0].stack == 70
    after_double = all_steps[doubled.index + 1]
    assert codes(after_double.seats[0].hands[0].cards) == ["8S", "3H", "TC"]
    assert after_double.seats[0].hands[0].total == 21

    assert [h.outcome for h in all_steps[-1].seats[0].hands] == ["win", "win"]
    assert all_steps[-1].seats[0].stack == 130
    assert_last_step_matches_the_history_row(all_steps, round_row)


def test_the_hole_card_is_face_down_until_the_step_that_turns_it(solo_table, alice, rig):
    rig(["8S", "6H", "8C", "TD", "3H", "TC", "TS", "9D"])
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "split")
    act(solo_table, alice, "double", hand=0)
    act(solo_table, alice, "stand", hand=1)
    all_steps = replay_of(settled_round(solo_table))
    hole_dealt = index_of(all_steps, "takes the hole card")
    turned = index_of(all_steps, "turns the hole card")
    assert hole_dealt < turned
    for step in all_steps[hole_dealt:turned]:
        assert codes(step.dealer) == ["6H", "??"]
        assert [card.face_up for card in step.dealer] == [True, False]
        assert step.dealer_total == 6  # the up-card alone
        assert "TD" not in repr(step) and "ten of diamonds" not in repr(step)
    assert codes(all_steps[turned].dealer) == ["6H", "TD"]
    assert all_steps[turned].dealer_total == 16
    assert codes(all_steps[-1].dealer) == ["6H", "TD", "9D"]


def test_an_insured_dealer_blackjack_is_replayed_with_the_insurance_paid(solo_table, alice, rig):
    # alice 9 7 (16); dealer A up, K in the hole: insurance 5 pays 10 and its stake back.
    rig(["9S", "AH", "7C", "KD"])
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "insurance")
    round_row = settled_round(solo_table)
    all_steps = replay_of(round_row)

    offered = all_steps[index_of(all_steps, "takes the hole card")]
    assert codes(offered.dealer) == ["AH", "??"]
    taken = all_steps[index_of(all_steps, "alice takes insurance for 5")]
    assert (taken.seats[0].insurance, taken.seats[0].stack, taken.actor) == (5, 85, "player")
    assert codes(taken.dealer) == ["AH", "??"]
    peek = index_of(all_steps, "Dealer checks for blackjack: blackjack!")
    assert codes(all_steps[peek].dealer) == ["AH", "??"]  # the peek alone shows nothing
    paid = all_steps[index_of(all_steps, "insurance pays 15")]
    assert paid.seats[0].stack == 100
    turned = index_of(all_steps, "turns the hole card")
    assert codes(all_steps[turned].dealer) == ["AH", "KD"] and all_steps[turned].dealer_total == 21
    assert all_steps[-1].seats[0].hands[0].outcome == "lose"
    assert_last_step_matches_the_history_row(all_steps, round_row)


def test_a_surrender_is_replayed_with_half_the_bet_back(alice, rig):
    table = make_table(RuleProfile.ROCKET_ACADEMY)
    rig(["TS", "9H", "6C", "8D"])
    services.do_sit(table.pk, alice, 1)
    open_next_window(table)
    act(table, alice, "bet", amount=11)
    act(table, alice, "surrender")
    round_row = settled_round(table)
    all_steps = replay_of(round_row)

    surrendered = all_steps[index_of(all_steps, "alice surrenders")]
    assert (surrendered.actor, surrendered.seats[0].acting, surrendered.seats[0].stack) == ("player", True, 89)
    assert codes(surrendered.seats[0].hands[0].cards) == ["TS", "6C"]
    last = all_steps[-1]
    assert last.seats[0].hands[0].outcome == "surrender"
    assert last.seats[0].stack == 94
    assert_last_step_matches_the_history_row(all_steps, round_row)


def test_each_step_carries_its_time_and_who_acted(solo_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "stand")
    round_row = settled_round(solo_table)
    all_steps = replay_of(round_row)
    assert all_steps[0].time is None and all_steps[0].actor is None
    assert all(step.time is not None and step.time.isoformat() == round_row.event_times[step.index - 1]
               for step in all_steps[1:])
    kinds = [event["kind"] for event in round_row.state["events"]]
    assert [(kind, step.actor) for kind, step in zip(kinds, all_steps[1:])] == [
        ("bet", "player"), ("deal_card", "house"), ("deal_card", "house"), ("deal_card", "house"),
        ("deal_card", "house"), ("stand", "player"), ("hole_card_revealed", "house"), ("settle", "house"),
        ("round_settled", "house"),
    ]
    stood = all_steps[index_of(all_steps, "alice stands")]
    assert stood.actor == "player"


def test_a_seat_without_a_name_is_called_by_its_number(solo_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "stand")
    all_steps = replay.steps(settled_round(solo_table).state, [], {})
    # No name under the seat's own "Seat 1" (the replay used to read "Seat 1 Seat 1"); the log says the number.
    assert all_steps[-1].seats[0].player == ""
    assert "Seat 1 stands." in captions(all_steps)
    assert all(step.time is None for step in all_steps)


def test_every_actions_event_has_words_in_the_log():
    """The registry is the list of actions: each one's event is narrated, with no list of its own here."""
    from tables.engine import ACTIONS, Event
    from tables.live.narration import narrate

    for spec in ACTIONS:
        line = narrate(Event(seq=1, kind=spec.event, seat=1, hand=0, chips=-10 if spec.stake else 0, actor="player"), {1: "alice"})
        assert line and line.startswith("alice"), spec.name
