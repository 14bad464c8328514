"""`manage.py loadtest` against a live daphne: bots sign up, sit and play over real websockets."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tables.loadtest import frames
from tables.loadtest.runner import Plan, Progress
from tables.loadtest.stats import Stats
from tables.models import Round, Seat, Table

REPO = Path(__file__).resolve().parents[2]
OUTPUT = REPO / "test-output" / "loadtest"


@pytest.fixture
def live_daphne(start_daphne) -> str:
    """A daphne child on the test database (tests/conftest.py), its log in test-output/loadtest/."""
    return start_daphne("loadtest", log_dir=OUTPUT).url


def run_loadtest(**options) -> tuple[dict, str]:
    out = io.StringIO()
    try:
        call_command("loadtest", stdout=out, stderr=out, **options)
    except CommandError as error:
        pytest.fail(f"{error}\n{out.getvalue()}")
    text = out.getvalue()
    return json.loads(text.strip().splitlines()[-1]), text


def test_bots_play_rounds_without_errors_and_the_ledger_audits_clean(live_daphne):
    result, text = run_loadtest(url=live_daphne, players=4, tables=1, seconds=6, think_ms=50)

    assert result["rounds"] > 0, text
    assert result["errors"] == 0, text
    assert result["audit_ok"] is True, text
    assert "Ledger OK" in text
    assert result["actions"] >= result["rounds"] * 4  # at least every seat's bet, round after round
    assert result["latency_ms"]["p99"] is not None
    # daphne compresses the frames (permessage-deflate, casino/compression.py): the wire carries far fewer bytes.
    assert 0 < result["wire_bytes_per_frame"] < result["bytes_per_frame"] / 2, text
    table = Table.objects.get(name="Load test 1")
    assert Round.objects.filter(table=table, settled_at__isnull=False).count() >= result["rounds"]
    # The bots left when the run ended: no seat is still held, no stack still out.
    assert not Seat.objects.filter(table=table, player__isnull=False, leaving=False).exists()


def test_it_refuses_a_server_that_is_not_on_this_machine(db):
    with pytest.raises(CommandError, match="not on this machine"):
        call_command("loadtest", url="http://192.0.2.10:8000", stdout=io.StringIO())


def test_it_refuses_more_players_than_seats(db):
    with pytest.raises(CommandError, match="need at least 3 tables"):
        call_command("loadtest", players=11, tables=2, stdout=io.StringIO())


def test_it_spreads_a_tables_players_over_the_servers_or_keeps_them_on_one():
    urls = ["http://127.0.0.1:8001", "http://127.0.0.1:8002"]
    tables = (11, 12, 13, 14)
    # Bot n sits at table n % 4, seat n // 4 + 1 (runner.play).
    alternate = Plan(urls=urls, players=20, seconds=1, think_ms=0, table_ids=tables)
    by_table = Plan(urls=urls, players=20, seconds=1, think_ms=0, table_ids=tables, route="by-table")
    for table in range(len(tables)):
        players = range(table, 20, len(tables))
        assert {alternate.url_of(n) for n in players} == set(urls)  # every change crosses the channel layer
        assert len({by_table.url_of(n) for n in players}) == 1  # one server has the whole table
    assert {by_table.url_of(n) for n in range(20)} == set(urls)  # and the tables are shared out
    # Echo bots have no table: they alternate either way.
    echo = Plan(urls=urls, players=4, seconds=1, think_ms=0, route="by-table")
    assert [echo.url_of(n) for n in range(4)] == [urls[0], urls[1], urls[0], urls[1]]


def test_its_progress_shows_the_latest_windows_latency_beside_the_runs():
    # A slow start (the tables filling up) weighs on the run's p99 for the whole run; the window's is its own.
    stats = Stats()
    progress = Progress(stats)
    stats.latencies_ms.extend([900.0] * 10)
    assert progress.line(10).endswith("p99 900.0 ms; since the line before: 10 answered, p99 900.0 ms")
    stats.latencies_ms.extend([20.0] * 30)
    assert progress.line(20).endswith("p99 900.0 ms; since the line before: 30 answered, p99 20.0 ms")
    assert progress.line(30).endswith("since the line before: 0 answered")


def test_it_refuses_an_unknown_route(db):
    with pytest.raises(CommandError, match="route"):
        call_command("loadtest", "--route", "random", stdout=io.StringIO())


FRAME = """
<div id="status" class="status" hx-swap-oob="true">
    <strong>Players' turn</strong> · round 7
</div>
<section id="dealer" class="dealer" hx-swap-oob="true" aria-label="Dealer">
  <div class="cards"><span class="card" data-card="TS">10♠</span><span class="card back" data-card="hidden"></span></div>
</section>
<div id="seats" class="seats" hx-swap-oob="true">
  <article id="seat-1" class="seat mine turn" aria-label="Seat 1">
    <div class="hand active" data-hand="0">
      <div class="cards"><span data-card="9H">9♥</span><span data-card="7C">7♣</span></div>
      <p class="total">16</p>
    </div>
    <form ws-send method="post" action="/tables/1/act/" class="inline">
      <input type="hidden" name="seat" value="1">
      <input type="hidden" name="version" value="42">
      <button type="submit" name="action" value="leave" class="secondary">Leave table</button>
    </form>
  </article>
</div>
<div id="notice" class="notice" role="alert" hx-swap-oob="true"></div>
<section id="controls" class="controls" hx-swap-oob="true" aria-label="Your actions">
  <form ws-send method="post" action="/tables/1/act/" class="control" data-seat="1">
    <input type="hidden" name="seat" value="1">
    <input type="hidden" name="hand" value="0">
    <input type="hidden" name="version" value="42">
    <div class="buttons">
      <button type="submit" name="action" value="hit">Hit</button>
      <button type="submit" name="action" value="stand">Stand</button>
      <button type="submit" name="action" value="surrender">Surrender</button>
    </div>
  </form>
</section>
<i id="version" data-version="42"></i>
"""


def test_a_bot_reads_the_frame_and_plays_basic_strategy():
    frame = frames.parse(FRAME)
    assert frame.version == 42 and frame.round == 7 and frame.my_seats == [1]
    assert frame.dealer == ["TS", "hidden"]
    assert frame.hands == {(1, 0): ["9H", "7C"]}
    # Hard 16 against a ten: surrender when offered (Wizard of Odds' chart), else hit.
    assert frames.choose(frame, "atlantic-city-multi")["action"] == "surrender"
    without_surrender = FRAME.replace('<button type="submit" name="action" value="surrender">Surrender</button>', "")
    assert frames.choose(frames.parse(without_surrender), "atlantic-city-multi") == {
        "seat": "1", "hand": "0", "version": "42", "action": "hit",
    }


def test_a_bot_keeps_its_page_and_swaps_in_what_a_later_frame_brings():
    frame = frames.parse(FRAME)
    # The next frame: bob's seat changed and the bot's buttons are gone; nothing else was sent.
    frame.update(
        '<article id="seat-2" class="seat" aria-label="Seat 2"><div class="hand" data-hand="0"><div class="cards">'
        '<span data-card="5D">5♦</span></div></div></article>'
        '<section id="controls" class="controls"><p class="help">Nothing to decide right now.</p></section>'
        '<i id="version" data-version="43"></i>'
    )
    assert frame.version == 43 and frame.round == 7 and frame.dealer == ["TS", "hidden"]
    assert frame.my_seats == [1] and frame.hands == {(1, 0): ["9H", "7C"]}  # its own seat, as it was
    assert frame.controls == [] and frames.choose(frame, "atlantic-city-multi") is None


def test_a_seat_leaving_at_the_rounds_end_is_read_from_a_frame_without_forms():
    # While its round is played out, a leaving seat shows neither a form nor a version.
    leaving = FRAME.replace(
        """    <form ws-send method="post" action="/tables/1/act/" class="inline">
      <input type="hidden" name="seat" value="1">
      <input type="hidden" name="version" value="42">
      <button type="submit" name="action" value="leave" class="secondary">Leave table</button>
    </form>""",
        '<p class="help">Leaving when this round ends.</p>',
    )
    controls_start = leaving.index('<section id="controls"')
    frame = frames.parse(leaving[:controls_start])
    assert frame.leaving and frame.my_seats == [1]
    assert frame.version is None and frame.controls == []
    assert frames.choose(frame, "atlantic-city-multi") is None


def test_a_bot_reads_its_hands_from_a_frame_that_brings_only_its_seats_play():
    frame = frames.parse(FRAME)
    frame.update(
        '<div id="seat-1-play"><p class="bet">Bet 10</p><div class="hand" data-hand="0"><div class="cards">'
        '<span data-card="9H">9♥</span><span data-card="7C">7♣</span><span data-card="2D">2♦</span></div>'
        '<p class="total">18</p></div></div>'
        '<div id="seat-2-play"><div class="hand" data-hand="0"><div class="cards"><span data-card="5D">5♦</span>'
        '</div></div></div><i id="version" data-version="43"></i>'
    )
    assert frame.my_seats == [1] and frame.hands == {(1, 0): ["9H", "7C", "2D"]}  # not bob's seat 2
    assert frame.version == 43
