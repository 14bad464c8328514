"""Thousands of random frames at a seated player's table websocket.

Hypothesis builds the steps: clicks on whichever buttons the page shows,
with amounts typed in or not, so that rounds are really played; messages
with the page's actions and nonsense names, and seats, hands, versions,
amounts and buy-ins that are plausible, stale, negative, huge, fractional,
non-ASCII digits, lists, objects, booleans or nulls; random text, JSON that
is not an object, binary and oversized frames, half UTF-16 pairs; the last
message replayed; and deadlines passing, so that the timers' defaults (a
silent seat left out, insurance declined, a stand) come between the
player's actions. One consumer per table takes them all (about a thousand
frames on SQLite), one after another, and after every frame:

- it answers: a frame comes back, with a notice or a newer version, never
  the catch-all "Something went wrong" (that is an exception we did not foresee);
- nothing escaped: the consumer is still running, and its frame is text a
  real websocket can carry (daphne encodes it to UTF-8);
- nothing secret left: no frame holds the live shoe's seed, any `"shoe"`
  JSON, or the dealer's hole card before it is turned;

and after every example the ledger audits clean and every seat's stack is
its ledger balance. The shoes come from fixed seeds and Hypothesis is
derandomized, so a run is the same every time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accounts import ledger
from accounts.audit import audit_ledger
from accounts.models import User
from tables.engine import CardShoe
from tables.fairness import shoes
from tables.live import coach
from tables.models import RoundPhase, RuleProfile, Seat, Table
from tables.play import rounds, services
from tests.tables.conftest import make_table
from tests.tables.ws import Tab, frame_version, notice

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER_SECONDS = 20  # generous: the machine may be busy with other work
CATCH_ALL = "Something went wrong on our side; nothing was changed."


# --- Frames -------------------------------------------------------------------------


class Version:
    """Stands for a version in a generated frame; the driver fills in the table's own."""

    def __init__(self, offset: int) -> None:
        self.offset = offset

    def __repr__(self) -> str:
        return f"Version(current{self.offset:+d})"


CURRENT, STALE, AHEAD = Version(0), Version(-1), Version(+1)

ACTIONS = [
    "sit", "leave", "change_seat", "bet", "pass", "insurance", "no_insurance",
    "hit", "stand", "double", "split", "surrender",
]  # fmt: skip

junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=5,
)
tricky_numbers = st.sampled_from(
    ["", " ", "0", "00", "-1", "-10", "1.5", "10.0", "1e2", "0x1f", "+5", " 7 ", "7\n", "٣", "²", "½", "10_0",
     "NaN", "inf", "-0", "99999999999", "999999999999", "9999999999999", "99999999999999999999", "1" * 400]
)  # fmt: skip


def number_like(plausible: st.SearchStrategy[int]) -> st.SearchStrategy[object]:
    """What a form field holding a whole number may carry: mostly plausible strings, then anything."""
    return st.one_of(
        plausible.map(str),
        plausible.map(str),
        st.integers(min_value=-(10**15), max_value=10**15).map(str),
        st.integers(),  # a JSON number rather than the page's string
        tricky_numbers,
        junk,
    )


seats = st.integers(min_value=0, max_value=4)
amounts = number_like(st.integers(min_value=0, max_value=1200))
versions = st.one_of(st.just(CURRENT), st.just(CURRENT), st.just(STALE), st.just(AHEAD), number_like(seats))
htmx_headers = st.just({"HX-Request": "true", "HX-Trigger": None, "HX-Target": "controls"})

plausible_message = st.fixed_dictionaries(
    {
        "action": st.sampled_from(ACTIONS),
        "seat": st.integers(min_value=1, max_value=3).map(str),
        "version": st.just(CURRENT),
        "hand": st.integers(min_value=0, max_value=1).map(str),
    },
    optional={
        "amount": st.integers(min_value=1, max_value=150).map(str),
        "buy_in": st.integers(min_value=1, max_value=400).map(str),
        "to_seat": st.integers(min_value=1, max_value=3).map(str),
        "HEADERS": htmx_headers,
    },
)
random_message = st.fixed_dictionaries(
    {"action": st.one_of(st.sampled_from(ACTIONS), st.text(max_size=30), junk)},
    optional={
        "seat": number_like(seats),
        "version": versions,
        "hand": number_like(st.integers(min_value=0, max_value=3)),
        "amount": amounts,
        "buy_in": amounts,
        "to_seat": number_like(seats),
        "HEADERS": st.one_of(htmx_headers, junk),
        "csrfmiddlewaretoken": st.text(max_size=10),
    },
)
# Frames no generator is likely to hit by chance.
NASTY = [
    "",
    "null",
    "{}",
    "[]",
    '"bet"',
    "1e999",
    "{" * 3000,
    "[" * 1500 + "]" * 1500,
    '{"action": "bet", "action": "hit", "seat": "1", "version": "1"}',
    '\ufeff{"action": "bet", "seat": "1", "version": "1", "amount": "10"}',
    '{"action": "bet", "seat": 1, "version": 1, "amount": 10}',
    '{"action": "bet", "seat": true, "version": "1", "amount": "10"}',
    '{"action": "bet", "seat": "1", "version": "1", "amount": NaN}',
    '{"action": "bet", "seat": "1", "version": "1", "amount": Infinity}',
    '{"action": "__class__", "seat": "1", "version": "1"}',
    '{"action": "to_json", "seat": "1", "version": "1"}',
    '{"action": "expire", "seat": "1", "version": "1"}',
    '{"action": "bet\\u0000", "seat": "1", "version": "1"}',
    '{"action": "<script>alert(1)</script>", "seat": "1", "version": "1"}',
    '{"action": "sit", "seat": "1", "buy_in": "<b>100</b>"}',
    "é" * 2100,  # 4,200 bytes in 2,100 characters: the limit counts bytes
    # Half a UTF-16 pair, which JSON can escape: quoted back as it is, daphne could not send the frame.
    '{"action": "\\ud800", "seat": "1", "version": "1"}',
    '{"action": "bet", "seat": "1", "version": "1", "amount": "\\udc00"}',
    '{"action": "sit", "seat": "\\udbff\\udbff", "buy_in": "100"}',
]


@dataclass(frozen=True)
class Click:
    """A button the page shows now, pressed as htmx sends it; `typed` replaces the amount or buy-in field."""

    button: int
    typed: int | None = None


@dataclass(frozen=True)
class Frame:
    """One step: a click, a message (versions filled in as it is sent), text, bytes, a replay, or time running out."""

    click: Click | None = None
    message: dict | None = None
    text: str | None = None
    data: bytes | None = None
    replay: bool = False
    let_time_run_out: bool = False


clicks = st.builds(
    Click,
    button=st.integers(min_value=0, max_value=20),
    typed=st.one_of(
        st.none(), st.none(), st.integers(min_value=1, max_value=300), st.integers(min_value=-5, max_value=10**6)
    ),
).map(lambda click: Frame(click=click))
steps = st.one_of(
    clicks,
    clicks,
    clicks,
    clicks,
    plausible_message.map(lambda m: Frame(message=m)),
    random_message.map(lambda m: Frame(message=m)),
    random_message.map(lambda m: Frame(message=m)),
    junk.map(lambda value: Frame(text=json.dumps(value))),
    st.text(max_size=60).map(lambda text: Frame(text=text)),
    st.binary(min_size=1, max_size=40).map(lambda data: Frame(data=data)),
    st.integers(min_value=4097, max_value=20_000).map(lambda n: Frame(text=json.dumps({"action": "bet", "x": "x" * n}))),
    st.sampled_from(NASTY).map(lambda text: Frame(text=text)),
    st.just(Frame(replay=True)),
    st.just(Frame(let_time_run_out=True)),
)


FORM = re.compile(r"<form ws-send[^>]*>(.*?)</form>", re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)"')
BUTTON = re.compile(r'<button type="submit" name="action" value="(\w+)"')
NUMBER = re.compile(r'<input type="number"[^>]*>')
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


def buttons(frame: str) -> list[dict[str, str]]:
    """Every button of the page's ws-send forms, as the message htmx would send for it."""
    pressed = []
    for body in FORM.findall(frame):
        fields = dict(HIDDEN.findall(body))
        for tag in NUMBER.findall(body):
            attributes = dict(ATTRIBUTE.findall(tag))
            fields[attributes["name"]] = attributes.get("value", "")
        for action in BUTTON.findall(body):
            pressed.append({**fields, "action": action, "HEADERS": {"HX-Request": "true"}})
    return pressed


def fill_versions(value: object, version: int) -> object:
    if isinstance(value, Version):
        return str(version + value.offset)
    if isinstance(value, dict):
        return {key: fill_versions(item, version) for key, item in value.items()}
    if isinstance(value, list):
        return [fill_versions(item, version) for item in value]
    return value


# --- The player's tab, on an event loop of its own ----------------------------------


class LoopThread:
    """An event loop in a thread: one consumer lives across every Hypothesis example."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fuzz-loop", daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 600):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        async def cancel_the_rest() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.run(cancel_the_rest(), timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


@dataclass
class Fuzz:
    table: Table
    player: User
    tab: Tab
    loop: LoopThread
    version: int = 0  # the table's version as the last frame shows it
    frames_sent: int = 0
    applied: int = 0
    last_message: dict | None = None
    notices: dict[str, int] = field(default_factory=dict)

    def play(self, frames: list[Frame]) -> None:
        self.loop.run(self._play(frames))
        check_books(self.table)

    async def _play(self, frames: list[Frame]) -> None:
        for frame in frames:
            if frame.let_time_run_out:
                await self._catch_up(await expire_now(self.table))
            else:
                await self._send(frame)

    async def _catch_up(self, change: services.Change | None) -> None:
        """The test changed the table: wait for the frame that shows it."""
        if change is None:
            return
        while (frame_version(self.tab.last) or 0) < change.version:
            await self.tab.receive(timeout=ANSWER_SECONDS)
        self.version = change.version

    def _message(self, frame: Frame) -> dict | None:
        """The ASGI message for a step, or None when it has nothing to send."""
        if frame.click is not None:
            pressable = buttons(self.tab.last)
            if not pressable:
                return None
            fields = dict(pressable[frame.click.button % len(pressable)])
            if frame.click.typed is not None:
                for name in ("amount", "buy_in"):
                    if name in fields:
                        fields[name] = str(frame.click.typed)
            return {"type": "websocket.receive", "text": json.dumps(fields)}
        if frame.replay:
            return self.last_message
        if frame.message is not None:
            return {"type": "websocket.receive", "text": json.dumps(fill_versions(frame.message, self.version))}
        if frame.text is not None:
            return {"type": "websocket.receive", "text": frame.text}
        return {"type": "websocket.receive", "bytes": frame.data}

    async def _send(self, frame: Frame) -> None:
        message = self._message(frame)
        if message is None:
            return
        self.last_message = message
        await self.tab.communicator.send_input(message)
        self.frames_sent += 1
        try:
            reply = await self.tab.receive(timeout=ANSWER_SECONDS)
        except asyncio.TimeoutError:
            raise AssertionError(f"no answer to {message!r}") from None
        said = notice(reply)
        self.notices[said[:50]] = self.notices.get(said[:50], 0) + 1
        assert not self.tab.communicator.future.done(), f"the consumer stopped after {message!r}"
        assert said != CATCH_ALL, f"an unforeseen exception for {message!r}"
        reply.encode("utf-8")  # what daphne does with it; a lone surrogate would close the connection
        version, next_window = await observe(self.table, reply)
        if not said:
            assert version > self.version, f"neither a notice nor a change for {message!r}"
            self.applied += 1
        else:
            assert version == self.version, f"refused, yet the table changed: {message!r}"
        self.version = version
        await self._catch_up(next_window)


@database_sync_to_async
def expire_now(table: Table) -> services.Change | None:
    """The deadline passes (a window, an insurance question, a decision) and its default applies."""
    from django.utils import timezone

    Table.objects.filter(pk=table.pk, deadline__isnull=False).update(deadline=timezone.now())
    return services.settle_overdue(table.pk)


def open_window_if_between_rounds(table: Table) -> services.Change | None:
    """Between rounds the test opens the next window itself rather than wait out the pause."""
    from django.utils import timezone

    if table.deadline is None or rounds.in_progress(table) is not None:
        return None
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now())
    return services.settle_overdue(table.pk)


SHOE_JSON = re.compile(r'"shoe"|&quot;shoe&quot;|&#34;shoe&#34;', re.I)
DEALER = re.compile(r'<section id="dealer".*?</section>', re.S)


@database_sync_to_async
def observe(table: Table, frame: str) -> tuple[int, services.Change | None]:
    """Check that the frame gives nothing secret away; return the table's version, and the next window if opened."""
    assert not SHOE_JSON.search(frame), "a frame holds the shoe's JSON"
    table = Table.objects.select_related("current_round__shoe").get(pk=table.pk)
    round_row = table.current_round
    if round_row is not None:
        if round_row.shoe.retired_at is None:
            assert round_row.shoe.seed not in frame, "a frame holds the live shoe's seed"
        engine = rounds.load(round_row)
        if len(engine.dealer.cards) > 1 and not engine.hole_revealed:
            dealer = DEALER.search(frame).group(0)
            # Counted, not searched: in a multi-deck shoe the up card may be the hole card's twin.
            shown = dealer.count(f'data-card="{engine.dealer.cards[1]}"')
            assert shown == (engine.dealer.cards[0] == engine.dealer.cards[1]), "a frame shows the hole card"
            assert 'data-card="hidden"' in dealer
    return table.version, open_window_if_between_rounds(table)


def check_books(table: Table) -> None:
    report = audit_ledger()
    assert report.ok, report.problems
    seats = Seat.objects.filter(table=table, player__isnull=False).select_related("account", "table__current_round")
    for seat in seats:
        expected = seat.account.balance
        round_row = seat.table.current_round
        if round_row is not None and round_row.phase != RoundPhase.SETTLED:
            part = rounds.load(round_row).seats.get(seat.number)
            if part is not None:
                assert part.stack == expected, f"seat {seat.number}: the round says {part.stack}, the ledger {expected}"


# --- The tables ---------------------------------------------------------------------


@pytest.fixture
def seeded_shoes(monkeypatch) -> list[bytes]:
    """Real shoes from fixed seeds (so every run deals the same cards); returns the seeds handed out."""
    handed_out: list[bytes] = []

    def source(rules):
        seed = hashlib.sha256(f"fuzz shoe {len(handed_out)}".encode()).digest()
        handed_out.append(seed)
        return CardShoe.from_seed(seed, rules.decks)

    monkeypatch.setattr(shoes, "shoe_source", source)
    return handed_out


TABLES = {
    # One seat, no timers, a fresh shoe every round.
    "solo": dict(profile=RuleProfile.ATLANTIC_CITY),
    # Insurance up to half the bet and doubling for less: amounts the player picks.
    "internet": dict(profile=RuleProfile.INTERNET_6, seat_count=6),
    # One player in several seats, surrender, a single deck reshuffled as it runs out.
    "rocket": dict(profile=RuleProfile.ROCKET_ACADEMY, seat_count=3),
}


@pytest.fixture(params=list(TABLES))
def fuzz(request, alice, seeded_shoes, private_channel_layer, monkeypatch) -> Iterator[Fuzz]:
    # Junk comes faster than the bad-frame limit allows (tables/live/limits.py): this test is about the answers.
    request.getfixturevalue("settings").BAD_FRAMES_PER_SECOND = 10**6
    # With Hints on, the coach's exact figures come later in a frame of their own; here they are
    # worked out at once, so each frame the test sends gets exactly one answer.
    priced: dict[tuple, Future] = {}

    def priced_at_once(key, engine, seat, hand) -> Future:
        if key not in priced:
            future = priced[key] = Future()
            try:
                future.set_result(coach._price(engine, seat, hand))
            except Exception as error:  # shown as the basic-strategy play, labelled, as on the thread
                future.set_exception(error)
        return priced[key]

    monkeypatch.setattr(coach, "_future", priced_at_once)
    fields = dict(TABLES[request.param])
    # Timers far away: a deadline passes only when a step says so.
    table = make_table(
        fields.pop("profile"), **fields, min_bet=2, max_bet=100, betting_seconds=3600,
        insurance_seconds=3600, decision_seconds=3600, pause_seconds=3600,
    )  # fmt: skip
    staff = User.objects.create_user(username="pit-boss", is_staff=True)
    # Enough to keep buying in for thousands of frames.
    ledger.admin_adjust(user=alice, amount=1_000_000, reason="fuzzing", admin=staff)
    loop = LoopThread()
    tab = loop.run(Tab.open(table, alice))
    loop.run(tab.act("sit", 1, buy_in=150))
    fuzz = Fuzz(table=table, player=alice, tab=tab, loop=loop, version=frame_version(tab.last))
    try:
        yield fuzz
        check_books(table)
    finally:
        try:
            loop.run(tab.close(), timeout=30)
        finally:
            loop.close()
    rounds_played = table.rounds.filter(phase=RoundPhase.SETTLED).count()
    notices = sorted(fuzz.notices.items(), key=lambda item: -item[1])
    print(f"{request.param}: {fuzz.frames_sent} frames, {fuzz.applied} applied, {rounds_played} rounds; {notices=}")


# About 1,000 frames per table on SQLite. On PostgreSQL with CONN_MAX_AGE=0 (CI) every
# database call of the consumer opens a connection, about four times slower: a third as many.
EXAMPLES = 90 if connection.vendor == "sqlite" else 30


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    # One table and one consumer for the whole run: state carries over, so shrinking could not replay a failure.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(frames=st.lists(steps, min_size=8, max_size=30))
def test_random_frames_get_an_answer_and_never_break_the_table_or_the_books(fuzz, frames):
    fuzz.play(frames)
