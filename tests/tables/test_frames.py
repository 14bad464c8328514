"""Frames: one version of a table is read once and its pieces shared, yet each viewer sees only their own."""

from __future__ import annotations

import re

import pytest

from accounts.services import do_set_coach_hints
from tables.live import frames
from tables.live.consumers import TableConsumer
from tables.live.pieces import Sent, frame_for, whole_table
from tables.models import Seat
from tables.play import services
from tests.tables.test_verify_shoe import version

pytestmark = pytest.mark.django_db


def seat_html(frame: str, number: int) -> str:
    match = re.search(rf'<article id="seat-{number}".*?</article>', frame, re.S)
    assert match, f"no seat {number} in the frame"
    return match.group(0)


def controls_html(frame: str) -> str:
    return re.search(r'<section id="controls".*?</section>', frame, re.S).group(0)


def test_it_shows_each_viewer_their_own_seat_and_buttons_from_one_shared_version(betting, alice, bob, carol):
    for_alice, _ = whole_table(betting.pk, alice)
    for_bob, _ = whole_table(betting.pk, bob)
    for_carol, _ = whole_table(betting.pk, carol)

    assert "mine" in seat_html(for_alice, 1) and "Leave table" in seat_html(for_alice, 1)
    assert "mine" not in seat_html(for_alice, 2) and "Leave table" not in seat_html(for_alice, 2)
    assert "mine" in seat_html(for_bob, 2) and "mine" not in seat_html(for_bob, 1)
    assert 'name="seat" value="1"' in controls_html(for_alice) and ">Deal<" in controls_html(for_alice)
    assert 'name="seat" value="2"' in controls_html(for_bob) and 'value="1"' not in controls_html(for_bob)
    # carol watches: nobody's seat is hers, no buttons, and she may sit in a free seat.
    assert "mine" not in seat_html(for_carol, 1) and ">Deal<" not in for_carol
    assert "Sit here" in seat_html(for_carol, 3) and "Sit here" not in seat_html(for_alice, 3)
    # The shared pieces are the same for all three.
    for piece in ("status", "dealer", "log"):
        pattern = rf'<(?:div|section) id="{piece}".*?</(?:div|section)>'
        assert re.search(pattern, for_alice, re.S).group(0) == re.search(pattern, for_carol, re.S).group(0)


def test_it_reads_a_version_once_for_all_its_viewers(betting, alice, bob, carol, django_assert_num_queries):
    current = version(betting)
    whole_table(betting.pk, alice, version=current)
    # bob's bankroll was read with the table, as he sits at it.
    with django_assert_num_queries(0):
        whole_table(betting.pk, bob, version=current)
    # carol watches: her bankroll is read for her frame.
    with django_assert_num_queries(1):
        for_carol, _ = whole_table(betting.pk, carol, version=current)
    assert '<strong id="bankroll">1,000</strong>' in for_carol


def test_a_socket_opening_reads_the_table_once(betting, carol, django_assert_num_queries):
    current = version(betting)
    whole_table(betting.pk, carol, version=current)  # this process holds the table at that version
    consumer = TableConsumer()
    # As its connect leaves it: the table, the viewer and their id, nothing sent yet.
    consumer.table_id, consumer.user, consumer.player_id, consumer.sent = betting.pk, carol, carol.pk, Sent()
    # Anything overdue (nothing); the version and next deadline; carol's bankroll, as she
    # watches. The table at the version just read is taken as held, not asked for again.
    with django_assert_num_queries(3):
        opened_at, deadline, frame = consumer._first_frame()
    assert (opened_at, deadline) == (current, betting.deadline)
    assert f'id="version" data-version="{current}"' in frame and '<strong id="bankroll">1,000</strong>' in frame


def test_it_shows_the_new_version_after_a_change(betting, alice, bob):
    before, seen = whole_table(betting.pk, bob)
    assert ">Deal<" in controls_html(before)

    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=seen)

    # Asked with the version of the event that told of the change, the bet is there.
    after, shown = whole_table(betting.pk, bob, version=change.version)
    assert shown == change.version
    assert "Bet 10" in seat_html(after, 1)
    # bob's own seat did not change hands: its Leave form still sends the version it changed at.
    assert seat_html(after, 2) == seat_html(before, 2)
    assert f'name="version" value="{Seat.objects.get(table=betting, number=2).changed_version}"' in seat_html(after, 2)


def test_it_never_mistakes_a_players_text_for_markup(multi_table, django_user_model, bob):
    from tests.conftest import make_player

    mallory = make_player(django_user_model, "<!--seat body-->")
    services.do_sit(multi_table.pk, mallory, 1)

    frame, shown = whole_table(multi_table.pk, bob)

    assert '<span class="player">&lt;!--seat body--&gt;</span>' in seat_html(frame, 1)
    assert 'name="action" value="sit"' in seat_html(frame, 2)


def test_it_asks_the_database_for_the_version_when_the_caller_does_not_know_it(betting, alice, bob):
    whole_table(betting.pk, bob)
    services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    # No event seen yet (say, a refusal notice): not the cached older version.
    after, _ = whole_table(betting.pk, bob, notice="Not now.")
    assert "Bet 10" in seat_html(after, 1)


def test_it_shows_a_notice_to_its_viewer_only(betting, alice, bob):
    current = version(betting)
    refused, _ = whole_table(betting.pk, alice, "That is not your seat.", version=current)
    other, _ = whole_table(betting.pk, bob, version=current)
    again, _ = whole_table(betting.pk, alice, version=current)

    assert 'role="alert"' in refused and "That is not your seat." in refused
    assert "That is not your seat." not in other
    assert "That is not your seat." not in again


def test_it_reads_the_table_after_a_version_it_did_not_see(betting, alice, bob, carol, django_assert_num_queries):
    whole_table(betting.pk, bob)
    services.do_sit(betting.pk, carol, 3)  # a version this process never rendered
    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    frame, _ = whole_table(betting.pk, bob, version=change.version)

    assert "carol" in seat_html(frame, 3) and "Bet 10" in seat_html(frame, 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_viewers_told_of_one_change_wait_for_one_read(monkeypatch):
    import asyncio

    from channels.db import database_sync_to_async

    from tests.tables.conftest import make_table

    table = await database_sync_to_async(make_table)()
    reads = []
    real = frames.rendered

    def counting(table_id, version=None):
        reads.append(version)
        return real(table_id, version)

    monkeypatch.setattr(frames, "rendered", counting)

    await asyncio.gather(*(frames.read(table.pk, table.version) for _ in range(5)))

    assert reads == [table.version]
    assert frames.holds(table.pk, table.version)


def piece_ids(frame: str) -> list[str]:
    """The ids of a frame's top-level pieces, in order (htmx's ws extension swaps each by id)."""
    ids, depth = [], 0
    for match in re.finditer(r"<(/?)([a-z]+)([^>]*)>", frame):
        closing, tag, attributes = match.groups()
        if tag in ("input", "br", "img", "meta"):
            continue
        if closing:
            depth -= 1
            continue
        if depth == 0:
            ids.append(re.search(r'id="([^"]+)"', attributes).group(1))
        if not attributes.rstrip().endswith("/"):
            depth += 1
    return ids


def test_a_frame_after_a_play_carries_only_the_pieces_that_changed(betting, alice, bob, carol):
    sent = {viewer: Sent() for viewer in (alice, bob, carol)}
    for viewer in sent:
        frame_for(frames.rendered(betting.pk), viewer, 900, None, sent[viewer])

    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))
    table = frames.rendered(betting.pk, change.version)
    after = {viewer: frame_for(table, viewer, 900, None, sent[viewer]) for viewer in sent}

    # Everyone sees the parts of alice's seat that changed (her countdown, stack and bet) and
    # the log's new line, and nothing else of the table.
    changed = ["seat-1-head", "seat-1-play", "seat-1-stack"]
    assert piece_ids(after[carol]) == [*changed, "log-lines", "version"]
    assert piece_ids(after[bob]) == [*changed, "log-lines", "version"]
    # alice's buttons are gone: she has bet.
    assert piece_ids(after[alice]) == [*changed, "controls", "log-lines", "version"]
    assert "alice bets 10." in after[carol] and 'hx-swap-oob="beforeend"' in after[carol]
    assert len(after[carol]) < 1000


def test_it_builds_a_viewers_whole_view_only_when_a_piece_of_their_own_is_new(betting, alice, bob, carol, monkeypatch):
    from tables.live import viewer_pieces

    sent = {viewer: Sent() for viewer in (alice, bob, carol)}
    for viewer in sent:
        frame_for(frames.rendered(betting.pk), viewer, 900, None, sent[viewer])
    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))
    table = frames.rendered(betting.pk, change.version)
    built = []
    view_for = viewer_pieces.view_for
    monkeypatch.setattr(viewer_pieces, "view_for", lambda state, who, *args: built.append(who) or view_for(state, who, *args))

    after = {viewer: frame_for(table, viewer, 900, None, sent[viewer]) for viewer in sent}

    # The shared pieces once, from a watcher's view; nobody's whole view of their own: alice's buttons
    # went, and her seat's new body is the one every viewer shares, in the shell she already had.
    assert built == [None]
    assert "controls" in piece_ids(after[alice])
    assert piece_ids(after[bob]) == piece_ids(after[carol]) == ["seat-1-head", "seat-1-play", "seat-1-stack", "log-lines", "version"]


def test_a_frame_keeps_an_open_decisions_buttons_while_others_play(betting, alice, bob):
    sent = Sent()
    first = frame_for(frames.rendered(betting.pk), bob, 1000, None, sent)
    offered_at = re.search(r'name="version" value="(\d+)"', controls_html(first)).group(1)

    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))
    after = frame_for(frames.rendered(betting.pk, change.version), bob, 1000, None, sent)

    # bob's Deal button was not sent again, and the version it carries still buys a bet.
    assert "controls" not in piece_ids(after)
    services.do_act(betting.pk, bob, "bet", seat=2, amount=10, version=int(offered_at))


def test_a_reconnecting_viewer_gets_the_whole_table(betting, alice, bob):
    sent = Sent()
    frame_for(frames.rendered(betting.pk), bob, 1000, None, sent)
    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    again = frame_for(frames.rendered(betting.pk, change.version), bob, 1000, None, Sent())

    assert piece_ids(again) == ["bankroll", "status", "turn", "dealer", "result", "notice", "controls", "hints-switch", "seats", "log", "version"]
    assert all(f'id="seat-{n}"' in again for n in range(1, 6))
    assert "alice bets 10." in again


def test_a_viewer_who_skipped_versions_gets_everything_that_changed_since(betting, alice, bob, carol, rig):
    sent = Sent()
    frame_for(frames.rendered(betting.pk), carol, 1000, None, sent)
    # Two plays while carol's connection heard of neither: the bets deal the cards.
    services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))
    change = services.do_act(betting.pk, bob, "bet", seat=2, amount=10, version=version(betting))

    later = frame_for(frames.rendered(betting.pk, change.version), carol, 1000, None, sent)

    # The seats' parts that changed: the bets and the cards dealt.
    assert {"seat-1-play", "seat-2-play", "status", "dealer", "log-lines"} <= set(piece_ids(later))
    assert later.count('data-card="') == 4 + 2  # two cards a seat and the dealer's two (one a back)
    assert "alice bets 10." in later and "bob bets 10." in later
    assert f'data-version="{change.version}"' in later


def test_a_frame_with_nothing_new_for_its_viewer_is_empty(betting, bob):
    sent = Sent()
    table = frames.rendered(betting.pk)
    frame_for(table, bob, 1000, None, sent)

    assert frame_for(table, bob, 1000, None, sent) == ""
    # A notice answers a click even when nothing else changed, and is cleared by the next frame.
    assert piece_ids(frame_for(table, bob, 1000, "Not now.", sent)) == ["notice", "version"]
    assert piece_ids(frame_for(table, bob, 1000, None, sent)) == ["notice", "version"]


def tight(html: str) -> str:
    return re.sub(r">\s+<", "><", html)


def test_the_page_draws_the_very_pieces_the_frames_send(betting, alice, bob, carol, client):
    from tables.live.parts import compact

    services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))
    for viewer in (alice, bob, carol):
        client.force_login(viewer)
        page = compact(client.get(f"/tables/{betting.pk}/").content.decode())
        frame, _ = whole_table(betting.pk, viewer)
        for piece in ("status", "turn", "dealer", "result", "notice", "log", "seat-1", "seat-2", "seat-3"):
            html = re.search(rf'<(\w+) id="{piece}"', frame)
            tag = html.group(1)
            element = re.search(rf'<{tag} id="{piece}".*?</{tag}>', frame, re.S).group(0)
            if piece.startswith("seat-"):
                # The page's forms carry its CSRF token (their plain-HTTP fallback); the frames' post over the socket.
                page_seat = re.search(rf'<article id="{piece}".*?</article>', page, re.S).group(0)
                page_seat = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="\w+">', "", page_seat)
                assert tight(page_seat) == tight(seat_html(frame, int(piece[-1]))), (viewer, piece)
            else:
                assert element in page, (viewer, piece)
        if viewer == bob:
            # bob's Deal buttons: the frame's, with the page's token in the form.
            assert 'name="csrfmiddlewaretoken"' in controls_html(page)
            assert re.findall(r'value="(\w+)"', controls_html(frame)) == re.findall(
                r'value="(\w+)"', re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="\w+">', "", controls_html(page))
            )


def test_it_sends_only_the_part_of_a_seat_that_changed(betting, alice, bob, carol):
    seen = {viewer: Sent() for viewer in (alice, bob, carol)}
    for viewer, sent in seen.items():
        frame_for(frames.rendered(betting.pk), viewer, 1000, None, sent)

    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))
    table = frames.rendered(betting.pk, change.version)
    for viewer, sent in seen.items():
        frame = frame_for(table, viewer, 1000, None, sent)
        # alice's seat changed its parts (no countdown, her stack, her bet), not its shell (mine or not).
        assert '<article id="seat-1"' not in frame and "Leave table" not in frame
        assert 'id="seat-1-stack"' in frame and re.search(r'<div id="seat-1-play">.*Bet 10', frame)
        assert "seat-2" not in frame
    # A viewer whose page is new gets the whole seat.
    assert '<article id="seat-1"' in frame_for(table, carol, 1000, None, Sent())


def test_it_sends_the_whole_seat_when_more_than_its_parts_changed(multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)  # no round yet: alice may leave at once
    sent = Sent()
    frame_for(frames.rendered(multi_table.pk), bob, 1000, None, sent)

    change = services.do_leave(multi_table.pk, alice, 1, version=version(multi_table))

    frame = frame_for(frames.rendered(multi_table.pk, change.version), bob, 1000, None, sent)
    # A free seat, whole: bob may move there, and nothing of the taken seat's parts is left.
    assert "Move here" in seat_html(frame, 1) and "seat-1-stack" not in frame


def test_it_sends_the_hints_switch_on_its_own_and_never_with_a_decisions_buttons(betting, alice):
    sent = Sent()
    first = frame_for(frames.rendered(betting.pk), alice, 1000, None, sent)
    assert "Hints: off" in re.search(r'<div id="hints-switch".*?</div>', first, re.S).group(0)
    assert "Hints" not in controls_html(first)

    do_set_coach_hints(alice, True)
    after = frame_for(frames.rendered(betting.pk), alice, 1000, None, sent)

    # Only the switch changed for alice: her Deal buttons are not sent again.
    assert piece_ids(after) == ["hints-switch", "version"]
    assert 'aria-pressed="true">Hints: on<' in after


def test_a_piece_is_sent_with_each_run_of_whitespace_folded_to_one_space():
    from markupsafe import Markup

    from tables.live.parts import compact

    html = compact(Markup('\n  <p class="stack">\n\t  Stack <strong>90</strong>\u00a0 chips </p>\n'))

    assert html == '<p class="stack"> Stack <strong>90</strong> chips </p>'
    assert html.__html__() == html  # still safe: the templates' output, not text to escape
