"""The hand history's CSV and JSON exports (docs/hand-history-format.md): streamed, the player's own rounds."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.history import export
from tables.models import Round, RoundSeat, RuleProfile, Shoe, Table
from tables.play import rounds, services
from tests.tables.conftest import make_table, open_next_window
from tests.tables.test_history_view import history_row

# History rows made by hand (no ledger transfers behind them): no audit after each test.
pytestmark = [pytest.mark.django_db, pytest.mark.ledger_broken]

CSV_URL = reverse("history_export_csv")
JSON_URL = reverse("history_export_json")


def act(table, user, action, seat=1, **fields):
    table.refresh_from_db()
    services.do_act(table.pk, user, action, seat=seat, version=table.version, **fields)


def body(response) -> str:
    assert response.streaming
    return b"".join(response.streaming_content).decode()


def csv_records(response) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body(response), newline="")))


def play_the_four_kinds_of_round(alice, bob, rig) -> list[Round]:
    """A split with a double, an insured dealer blackjack, a surrender, and a round shared with bob."""
    solo = make_table(RuleProfile.ATLANTIC_CITY, name="Solo")
    # The stacked shoe carries on from round to round: both rounds' cards, in order.
    rig(["8S", "6H", "8C", "TD", "3H", "TC", "TS", "9D", "9S", "AH", "7C", "KD"])
    services.do_sit(solo.pk, alice, 1)
    act(solo, alice, "bet", amount=10)
    act(solo, alice, "split")
    act(solo, alice, "double", hand=0)
    act(solo, alice, "stand", hand=1)
    split_round = Table.objects.get(pk=solo.pk).current_round
    open_next_window(solo)
    act(solo, alice, "bet", amount=10)
    act(solo, alice, "insurance")
    insured_round = Table.objects.get(pk=solo.pk).current_round

    rocket = make_table(RuleProfile.ROCKET_ACADEMY, name="Rocket")
    rig(["TS", "9H", "6C", "8D"])
    services.do_sit(rocket.pk, alice, 1)
    open_next_window(rocket)
    act(rocket, alice, "bet", amount=11)
    act(rocket, alice, "surrender")
    surrendered_round = Table.objects.get(pk=rocket.pk).current_round

    shared = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Boardwalk")
    rig(["TS", "5C", "9H", "9C", "6D", "8D", "TH"])
    services.do_sit(shared.pk, alice, 1)
    services.do_sit(shared.pk, bob, 2)
    open_next_window(shared)
    act(shared, alice, "bet", amount=10)
    act(shared, bob, "bet", seat=2, amount=20)
    act(shared, alice, "stand")
    act(shared, bob, "stand", seat=2)
    shared_round = Table.objects.get(pk=shared.pk).current_round
    rounds_played = [split_round, insured_round, surrendered_round, shared_round]
    assert all(r.phase == "settled" for r in Round.objects.filter(pk__in=[r.pk for r in rounds_played]))
    return rounds_played


def stored(row: RoundSeat) -> dict:
    """What the database holds of one history row, in the format's terms."""
    round_row = Round.objects.select_related("shoe", "table").get(pk=row.round_id)
    shoe = round_row.shoe
    return {
        "round_id": round_row.pk,
        "table_id": row.table_id,
        "table": round_row.table.name,
        "profile": row.profile,
        "round_number": round_row.number,
        "settled_at": row.settled_at,
        "seat": row.seat,
        "stack_before": row.stack_before,
        "stack_after": row.stack_after,
        "net": row.net,
        "bet": row.bet,
        "staked": row.staked,
        "insurance": row.insurance,
        "result": row.result,
        "blackjacks": row.blackjacks,
        "hands": row.hands,
        "dealer": {"cards": round_row.state["dealer"], "total": rounds.load(round_row).dealer.total},
        "shoe": {"commitment": shoe.commitment, "seed": shoe.seed if shoe.retired_at else None},
        "events": [
            {**event, "time": time} for event, time in zip(round_row.state["events"], round_row.event_times, strict=True)
        ],
        "review": row.review,
    }


def reread(item: dict) -> dict:
    """An exported item as another program would read it back."""
    import datetime as dt

    return {**item, "settled_at": dt.datetime.fromisoformat(item["settled_at"])}


def test_a_visitor_is_sent_to_sign_in(client):
    for url in (CSV_URL, JSON_URL):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_json_export_read_back_equals_the_stored_rounds(client, alice, bob, rig):
    play_the_four_kinds_of_round(alice, bob, rig)
    client.force_login(alice)
    response = client.get(JSON_URL)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="hand-history-')
    items = json.loads(body(response))
    rows = list(RoundSeat.objects.filter(player=alice).order_by("id"))
    assert len(items) == len(rows) == 4
    assert [reread(item) for item in items] == [stored(row) for row in rows]
    # What each kind of round left in the file.
    split, insured, surrendered, shared = items
    assert [h["bet"] for h in split["hands"]] == [20, 10] and split["staked"] == 30 and split["net"] == 30
    assert split["dealer"] == {"cards": ["6H", "TD", "9D"], "total": 25}
    assert (insured["insurance"], insured["net"], insured["dealer"]["total"]) == (5, 0, 21)
    assert [e["kind"] for e in insured["events"]].count("insurance_taken") == 1
    assert surrendered["hands"][0]["outcome"] == "surrender" and surrendered["net"] == -6
    assert surrendered["profile"] == "rocket-academy"
    assert (shared["table"], shared["seat"], shared["result"]) == ("Boardwalk", 1, "win")
    assert {e["actor"] for e in shared["events"]} == {"player", "house"}


def test_each_player_exports_only_their_own_rounds(client, alice, bob, rig):
    play_the_four_kinds_of_round(alice, bob, rig)
    client.force_login(bob)
    items = json.loads(body(client.get(JSON_URL)))
    assert [(item["table"], item["seat"], item["net"]) for item in items] == [("Boardwalk", 2, -20)]
    assert [(r["table"], r["seat"]) for r in csv_records(client.get(CSV_URL))] == [("Boardwalk", "2")]


def test_the_csv_export_has_the_documented_columns_and_reads_back(client, alice, bob, rig):
    play_the_four_kinds_of_round(alice, bob, rig)
    client.force_login(alice)
    response = client.get(CSV_URL)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="hand-history-')
    text = body(response)
    assert text.splitlines()[0] == ",".join(export.CSV_COLUMNS)
    records = csv_records(response_again := client.get(CSV_URL))
    assert response_again.status_code == 200
    rows = list(RoundSeat.objects.filter(player=alice).order_by("id"))
    assert len(records) == len(rows)
    for record, row in zip(records, rows):
        expected = stored(row)
        assert int(record["round_id"]) == expected["round_id"]
        assert (record["table"], record["profile"], int(record["round_number"])) == (
            expected["table"], expected["profile"], expected["round_number"]
        )
        assert record["settled_at"] == row.settled_at.isoformat()
        for name in ("seat", "stack_before", "stack_after", "net", "bet", "staked", "insurance", "blackjacks"):
            assert int(record[name]) == expected[name], name
        assert record["result"] == row.result
        assert json.loads(record["hands"]) == row.hands
        assert record["dealer_cards"].split(" ") == expected["dealer"]["cards"]
        assert int(record["dealer_total"]) == expected["dealer"]["total"]
        assert record["shoe_commitment"] == expected["shoe"]["commitment"]
        assert record["shoe_seed"] == (expected["shoe"]["seed"] or "")


def test_a_shoe_still_in_use_keeps_its_seed_out_of_both_exports(client, alice):
    # A real seeded shoe at a shared table lasts many rounds: after one it is still in use.
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, alice, 1)
    open_next_window(table)
    act(table, alice, "bet", amount=10)
    for _ in range(8):
        table.refresh_from_db()
        engine = rounds.load(table.current_round)
        if engine.phase == "settled":
            break
        if engine.phase == "insurance":
            act(table, alice, "no_insurance")
        elif engine.to_act():
            act(table, alice, "stand", hand=engine.to_act()[1])
    round_row = Table.objects.get(pk=table.pk).current_round
    assert round_row.phase == "settled"
    shoe = round_row.shoe
    assert shoe.retired_at is None and len(shoe.seed) == 64
    assert round_row.state["shoe"]["seed"] == shoe.seed  # the state holds it: the exports must not read it
    client.force_login(alice)
    json_text, csv_text = body(client.get(JSON_URL)), body(client.get(CSV_URL))
    for text in (json_text, csv_text):
        assert shoe.commitment in text
        assert shoe.seed not in text
    assert json.loads(json_text)[0]["shoe"] == {"commitment": shoe.commitment, "seed": None}

    Shoe.objects.filter(pk=shoe.pk).update(retired_at=timezone.now())
    assert json.loads(body(client.get(JSON_URL)))[0]["shoe"]["seed"] == shoe.seed
    assert csv_records(client.get(CSV_URL))[0]["shoe_seed"] == shoe.seed


def test_the_exports_apply_the_history_filters(client, alice, solo_table):
    other = make_table(RuleProfile.INTERNET_6, name="Six seats")
    history_row(alice, solo_table, net=10)
    wanted = history_row(alice, other, net=-10)
    history_row(alice, other, net=10)
    client.force_login(alice)
    items = json.loads(body(client.get(JSON_URL, {"table": other.pk, "outcome": "loss"})))
    assert [item["round_id"] for item in items] == [wanted.round_id]
    records = csv_records(client.get(CSV_URL, {"table": other.pk, "outcome": "loss"}))
    assert [int(r["round_id"]) for r in records] == [wanted.round_id]


def test_an_empty_history_exports_an_empty_array_and_a_header(client, alice):
    client.force_login(alice)
    assert json.loads(body(client.get(JSON_URL))) == []
    assert body(client.get(CSV_URL)) == ",".join(export.CSV_COLUMNS) + "\r\n"


def test_the_exports_stream_in_pieces_with_no_query_per_row(client, alice, solo_table, django_assert_num_queries):
    for n in range(export.RECORDS_PER_WRITE * 2 + 5):
        history_row(alice, solo_table, net=n % 3 - 1)
    client.force_login(alice)
    # The session and the user, then one query for every row with its round, table and shoe.
    written = {}
    for url in (JSON_URL, CSV_URL):
        with django_assert_num_queries(3):
            response = client.get(url)
            written[url] = list(response.streaming_content)
        assert len(written[url]) >= 3  # written a hundred records at a time, not all at once
    assert len(json.loads(b"".join(written[JSON_URL]))) == export.RECORDS_PER_WRITE * 2 + 5
    assert b"".join(written[CSV_URL]).count(b"\r\n") == export.RECORDS_PER_WRITE * 2 + 5 + 1


def test_a_table_name_a_spreadsheet_would_run_is_quoted_in_the_csv(client, alice):
    table = make_table(RuleProfile.ATLANTIC_CITY, name="=HYPERLINK(1)")
    history_row(alice, table)
    client.force_login(alice)
    assert csv_records(client.get(CSV_URL))[0]["table"] == "'=HYPERLINK(1)"
    assert json.loads(body(client.get(JSON_URL)))[0]["table"] == "=HYPERLINK(1)"


@pytest.mark.asyncio
async def test_under_asgi_each_piece_is_written_as_it_is_sent():
    from django.test import AsyncRequestFactory

    written: list[int] = []

    def chunks():
        for n in range(3):
            written.append(n)
            yield f"[{n}]"

    request = AsyncRequestFactory().get(JSON_URL)
    response = export.streaming_response(request, chunks(), content_type="application/json", filename="h.json")
    # An async iterator: Django under daphne would read a plain one into a list before the first byte.
    assert response.is_async
    sent = []
    async for piece in response:
        sent.append(piece)
        assert len(written) == len(sent)  # the next piece is not written before this one is sent
    assert sent == [b"[0]", b"[1]", b"[2]"]


def test_the_exports_carry_each_decisions_review_once_it_is_done(client, alice, bob, rig):
    from tables.play.reviews import review_unreviewed

    play_the_four_kinds_of_round(alice, bob, rig)
    client.force_login(alice)
    before = json.loads(body(client.get(JSON_URL)))
    assert all(item["review"] is None for item in before)
    assert review_unreviewed() >= 4
    items = json.loads(body(client.get(JSON_URL)))
    rows = list(RoundSeat.objects.filter(player=alice).order_by("id"))
    assert [item["review"] for item in items] == [row.review for row in rows]
    split = items[0]["review"]
    assert split[0]["action"] == "split" and {"best", "ev", "best_ev", "cost_chips", "cost_pct", "is_best"} <= set(split[0])
    records = list(csv.DictReader(io.StringIO(body(client.get(CSV_URL)), newline="")))
    assert [int(r["decisions"]) for r in records] == [row.decisions for row in rows]
    assert [float(r["chips_given_away"]) for r in records] == [round(row.ev_given, 2) for row in rows]


def failing_after_the_first_record(monkeypatch):
    """export._record raising on its second call: a failure mid-stream, after the status and a piece were sent."""
    calls = []
    record = export._record

    def once(row, **kwargs):
        calls.append(row)
        if len(calls) > 1:
            raise RuntimeError("the database went away")
        return record(row, **kwargs)

    monkeypatch.setattr(export, "_record", once)
    monkeypatch.setattr(export, "RECORDS_PER_WRITE", 1)


@pytest.mark.parametrize("url", [CSV_URL, JSON_URL])
def test_an_export_that_fails_mid_stream_ends_its_response_and_logs(client, alice, solo_table, monkeypatch, caplog, url):
    for _ in range(3):
        history_row(alice, solo_table)
    failing_after_the_first_record(monkeypatch)
    client.force_login(alice)
    response = client.get(url)
    assert response.status_code == 200
    written = body(response)  # ends, rather than raising out of the body
    assert written.count("\n") == (1 if url == JSON_URL else 2)  # the first record only, and no closing "]"
    assert "failed part way" in caplog.text and "the database went away" in caplog.text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_under_asgi_a_failing_export_finishes_rather_than_hangs(alice, solo_table, monkeypatch):
    import asyncio

    from asgiref.sync import sync_to_async
    from django.db import connections
    from django.test import AsyncClient

    await sync_to_async(history_row)(alice, solo_table)
    await sync_to_async(history_row)(alice, solo_table)
    failing_after_the_first_record(monkeypatch)
    client = AsyncClient()
    await client.aforce_login(alice)
    response = await client.get(JSON_URL)

    async def read() -> bytes:
        return b"".join([piece async for piece in response.streaming_content])

    try:
        written = await asyncio.wait_for(read(), timeout=10)
    finally:
        # The request's thread keeps its connection otherwise, and a later test without the database trips on it.
        await sync_to_async(connections.close_all)()
    assert written.startswith(b"[\n{") and not written.rstrip().endswith(b"]")
