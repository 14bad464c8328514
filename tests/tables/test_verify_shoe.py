"""Shoe verification: a retired shoe's seed rebuilds every card and payout of its rounds.

Real seeded shoes throughout (no `rig`): a stacked shoe has no seed to reveal.
"""

from __future__ import annotations

import hashlib

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from tables.engine import CardShoe
from tables.fairness.verification import verify_shoe
from tables.models import Round, RoundSeat, Shoe
from tables.play import rounds, services
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.django_db


def version(table) -> int:
    table.refresh_from_db()
    return table.version


def play_out(table, players: dict) -> Round:
    """Play the table's current round to the end: no insurance, hit below 12, stand from 12."""
    for _ in range(40):
        table.refresh_from_db()
        engine = rounds.load(table.current_round)
        if engine.phase == "settled":
            return table.current_round
        if engine.phase == "insurance":
            seat = engine.pending_insurance()[0]
            services.do_act(table.pk, players[seat], "no_insurance", seat=seat, version=version(table))
        elif engine.phase == "players":
            seat, hand = engine.to_act()
            action = "hit" if engine.seats[seat].hands[hand].total < 12 else "stand"
            services.do_act(table.pk, players[seat], action, seat=seat, hand=hand, version=version(table))
        else:
            raise AssertionError(f"the round waits in {engine.phase}")
    raise AssertionError("the round did not end")


def play_solo_round(table, player) -> Round:
    """One real round at a solo atlantic-city table: a fresh seeded shoe, retired when the round ends."""
    services.do_sit(table.pk, player, 1)
    services.do_act(table.pk, player, "bet", seat=1, amount=10, version=version(table))
    return play_out(table, {1: player})


def play_three_rounds_on_one_shoe(table, alice, bob) -> Shoe:
    """Three rounds from one cut-card shoe: both bet; bob passes; bob is left out by the timer."""
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    players = {1: alice, 2: bob}
    open_next_window(table)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    services.do_act(table.pk, bob, "bet", seat=2, amount=20, version=version(table))
    play_out(table, players)
    open_next_window(table)
    services.do_act(table.pk, bob, "pass", seat=2, version=version(table))
    services.do_act(table.pk, alice, "bet", seat=1, amount=5, version=version(table))
    play_out(table, players)
    open_next_window(table)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    open_next_window(table)  # the betting window runs out: bob is left out by the timer
    play_out(table, players)
    assert Shoe.objects.filter(table=table).count() == 1  # 139 cards before the cut card: still the first shoe
    return Shoe.objects.get(table=table)


def retire(shoe: Shoe) -> Shoe:
    shoe.retired_at = timezone.now()
    shoe.save(update_fields=["retired_at"])
    return shoe


def dealt_cards(round_row: Round) -> list[str]:
    return [event["card"] for event in round_row.state["events"] if event["kind"] == "deal_card"]


def tamper(round_row: Round, change) -> None:
    state = round_row.state
    change(state["events"])
    Round.objects.filter(pk=round_row.pk).update(state=state)


# --- The check ----------------------------------------------------------------------------


def test_a_solo_round_played_at_the_table_is_verified_card_for_card(solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    shoe = round_row.shoe
    shoe.refresh_from_db()
    result = verify_shoe(shoe)
    assert result.problems == []
    assert result.ok
    assert (result.rounds_checked, result.seed, result.commitment) == (1, shoe.seed, shoe.commitment)
    cards = dealt_cards(round_row)
    assert result.cards_dealt == len(cards) >= 4
    assert result.card_order[: len(cards)] == cards
    assert result.card_order == CardShoe.from_seed(bytes.fromhex(shoe.seed), 8).order()
    assert len(result.card_order) == 416


def test_a_cut_card_shoe_is_verified_across_all_its_rounds(multi_table, alice, bob):
    shoe = retire(play_three_rounds_on_one_shoe(multi_table, alice, bob))
    kinds = [event["kind"] for r in shoe.rounds.all() for event in r.state["events"]]
    assert {"pass", "left_out"} <= set(kinds)
    result = verify_shoe(shoe)
    assert result.problems == []
    assert result.ok and result.rounds_checked == 3
    cards = [card for r in shoe.rounds.order_by("id") for card in dealt_cards(r)]
    assert result.card_order[: len(cards)] == cards


def test_a_shoe_still_in_use_is_refused_because_its_seed_is_secret(multi_table, alice, bob):
    shoe = play_three_rounds_on_one_shoe(multi_table, alice, bob)
    result = verify_shoe(shoe)
    assert not result.ok
    assert result.seed is None and result.card_order == []
    assert result.problems == ["The shoe is still in use: its seed is still secret, so it cannot be checked yet."]
    assert shoe.seed not in result.report()


def test_a_changed_card_in_the_record_fails(solo_table, alice):
    round_row = play_solo_round(solo_table, alice)

    def swap_first_card(events):
        deal = next(event for event in events if event["kind"] == "deal_card")
        deal["card"] = "KD" if deal["card"] != "KD" else "AS"
        swap_first_card.seq = deal["seq"]

    tamper(round_row, swap_first_card)
    result = verify_shoe(round_row.shoe)
    assert not result.ok
    assert len(result.problems) == 1
    assert f"Round #{round_row.pk}" in result.problems[0]
    assert f"event {swap_first_card.seq}: the record has deal_card" in result.problems[0]


def test_a_changed_payout_in_the_record_fails(multi_table, alice, bob):
    shoe = retire(play_three_rounds_on_one_shoe(multi_table, alice, bob))
    second = shoe.rounds.order_by("id")[1]

    def pay_ten_more(events):
        settle = next(event for event in events if event["kind"] == "settle")
        settle["chips"] += 10

    tamper(second, pay_ten_more)
    result = verify_shoe(shoe)
    assert not result.ok
    only_the_second = f"Round #{second.pk} ({second.table} round {second.number})"
    assert [problem.split(",")[0] for problem in result.problems] == [only_the_second]
    assert "settle" in result.problems[0]


@pytest.mark.ledger_broken
def test_a_changed_final_stack_in_the_history_fails(solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    row = RoundSeat.objects.get(round=round_row)
    RoundSeat.objects.filter(pk=row.pk).update(stack_after=row.stack_after + 10, net=row.net + 10)
    result = verify_shoe(round_row.shoe)
    assert not result.ok
    assert result.problems == [
        f"Round #{round_row.pk} ({solo_table} round 1): seat 1 ends with {row.stack_after} chips in the rebuilt "
        f"round but its history row says {row.stack_after + 10}."
    ]


def test_a_seed_that_does_not_match_the_commitment_fails(solo_table, alice):
    shoe = play_solo_round(solo_table, alice).shoe
    other = hashlib.sha256(b"another seed").hexdigest()
    Shoe.objects.filter(pk=shoe.pk).update(commitment=other)
    shoe.refresh_from_db()
    result = verify_shoe(shoe)
    assert not result.ok
    assert "does not match the commitment" in result.problems[0]


# --- The command --------------------------------------------------------------------------


def test_the_command_prints_the_verdict_and_exits_0_for_a_verified_shoe(solo_table, alice, capsys):
    shoe = play_solo_round(solo_table, alice).shoe
    call_command("verify_shoe", str(shoe.pk))
    out = capsys.readouterr().out
    assert "Verified" in out
    assert shoe.seed in out and shoe.commitment in out


def test_the_command_exits_1_for_a_tampered_record(solo_table, alice, capsys):
    round_row = play_solo_round(solo_table, alice)
    tamper(round_row, lambda events: events.pop())  # the round_settled event is gone
    with pytest.raises(CommandError) as refused:
        call_command("verify_shoe", str(round_row.shoe_id))
    assert refused.value.returncode == 1
    assert "the rebuilt round goes on with round_settled" in capsys.readouterr().out


def test_the_command_exits_1_for_a_shoe_in_use_and_keeps_its_seed(multi_table, alice, bob, capsys):
    shoe = play_three_rounds_on_one_shoe(multi_table, alice, bob)
    with pytest.raises(CommandError) as refused:
        call_command("verify_shoe", str(shoe.pk))
    assert refused.value.returncode == 1
    out = capsys.readouterr().out
    assert "still secret" in out and shoe.seed not in out


def test_the_command_names_an_unknown_shoe():
    with pytest.raises(CommandError, match="There is no shoe #999."):
        call_command("verify_shoe", "999")


# --- The page -----------------------------------------------------------------------------


def test_a_player_who_played_the_shoe_sees_it_verified_with_its_card_order(client, solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    client.force_login(alice)
    response = client.get(reverse("verify_shoe", args=[round_row.shoe_id]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "✔ Verified" in html
    assert f'<code id="seed">{round_row.shoe.seed}</code>' in html
    assert html.count('<li class="dealt') == len(dealt_cards(round_row))
    assert html.count("data-card=") == 416


def test_the_page_shows_a_tampered_shoe_as_not_verified(client, solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    tamper(round_row, lambda events: events[-2].update(chips=events[-2]["chips"] + 5))
    client.force_login(alice)
    html = client.get(reverse("verify_shoe", args=[round_row.shoe_id])).content.decode()
    assert "✘ Not verified" in html
    assert f"Round #{round_row.pk}" in html


def test_the_page_keeps_the_seed_of_a_shoe_in_use_secret(client, multi_table, alice, bob):
    shoe = play_three_rounds_on_one_shoe(multi_table, alice, bob)
    client.force_login(bob)
    html = client.get(reverse("verify_shoe", args=[shoe.pk])).content.decode()
    assert "Not yet verifiable" in html
    assert shoe.commitment in html and shoe.seed not in html


def test_staff_may_check_any_shoe(client, solo_table, alice, carol):
    carol.is_staff = True
    carol.save()
    shoe = play_solo_round(solo_table, alice).shoe
    client.force_login(carol)
    assert client.get(reverse("verify_shoe", args=[shoe.pk])).status_code == 200


def test_a_player_who_did_not_play_the_shoe_gets_a_404(client, solo_table, alice, bob):
    shoe = play_solo_round(solo_table, alice).shoe
    client.force_login(bob)
    assert client.get(reverse("verify_shoe", args=[shoe.pk])).status_code == 404


def test_an_anonymous_visitor_is_asked_to_sign_in(client, solo_table, alice):
    shoe = play_solo_round(solo_table, alice).shoe
    response = client.get(reverse("verify_shoe", args=[shoe.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]

