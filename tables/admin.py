"""The admin for tables, shoes and rounds.

Tables are tuned here. Shoes and rounds are history: read-only. A round's page
shows its events (a settled round's cards are all public by then), each seat's
result and the ledger transfers its play wrote. The shoe's live state and an
unretired shoe's seed never appear: they would tell the cards still to come.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from accounts.admin import NoWrites, ReadOnlyAdmin
from accounts.models import Transfer, User
from tables.live.cards import CardView
from tables.models import Round, RoundPhase, RoundSeat, Seat, Shoe, Table
from tables.play import services


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("number", "player", "account", "net", "missed_windows", "leaving", "sat_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "profile", "seat_count", "min_bet", "max_bet", "owner", "created_by", "version", "deadline")
    list_filter = ("profile",)
    search_fields = ("name", "owner__username", "created_by__username")
    list_select_related = ("owner", "created_by")
    readonly_fields = ("version", "current_round", "deadline", "created_by", "created_at")
    inlines = [SeatInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            # A table's game cannot change under seated players.
            fields += ["profile"]
        return fields

    def save_model(self, request: HttpRequest, obj: Table, form, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        # A live table: only the edited fields, under its lock (tables.play.services).
        changed = {name: getattr(obj, name) for name in form.changed_data}
        obj.version = services.do_edit_table(obj.pk, changed).version


class ReadOnlyInline(NoWrites, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Shoe)
class ShoeAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "decks", "commitment", "created_at", "retired_at", "verification")
    list_filter = ("table",)
    list_select_related = ("table",)
    # The stored seed is never a field here: `revealed_seed` shows it once the shoe is retired.
    fields = ("table", "decks", "commitment", "revealed_seed", "created_at", "retired_at", "rounds", "verification")
    readonly_fields = fields

    @admin.display(description="Seed")
    def revealed_seed(self, shoe: Shoe) -> str:
        if shoe.retired_at is None:
            return "Secret while the shoe is in use."
        return shoe.seed

    @admin.display(description="Rounds")
    def rounds(self, shoe: Shoe) -> str:
        url = reverse("admin:tables_round_changelist")
        return format_html('<a href="{}?shoe__id__exact={}">Rounds dealt from this shoe</a>', url, shoe.pk)

    @admin.display(description="Verification")
    def verification(self, shoe: Shoe) -> str:
        if shoe.retired_at is None:
            return "Once retired"
        return format_html('<a href="{}">Verify</a>', reverse("verify_shoe", args=[shoe.pk]))


class RoundSeatInline(ReadOnlyInline):
    model = RoundSeat
    fields = (
        "seat", "player", "bet", "staked", "insurance", "stack_before", "stack_after", "net", "result", "hands_played",
    )
    readonly_fields = fields
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[RoundSeat]:
        return super().get_queryset(request).select_related("player")

    @admin.display(description="Hands")
    def hands_played(self, row: RoundSeat) -> str:
        return "; ".join(
            f"{' '.join(hand.get('cards', []))} ({hand.get('total')}) → {hand.get('outcome')}" for hand in row.hands
        )


class TransferInline(ReadOnlyInline):
    model = Transfer
    fk_name = "round"
    fields = ("created_at", "kind", "amount", "source", "destination", "reason")
    readonly_fields = fields
    ordering = ("id",)
    verbose_name_plural = "Ledger transfers"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Transfer]:
        return super().get_queryset(request).select_related("source", "destination")


class PlayerFilter(admin.SimpleListFilter):
    """?player=<user id>: the rounds a player played a hand in."""

    title = "player"
    parameter_name = "player"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        players = User.objects.filter(Exists(RoundSeat.objects.filter(player=OuterRef("pk")))).order_by("username")
        return [(str(user.pk), user.username) for user in players[:50]]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Round]) -> QuerySet[Round]:
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(Exists(RoundSeat.objects.filter(round=OuterRef("pk"), player_id=value)))
        return queryset


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "number", "profile", "phase", "started_at", "settled_at")
    list_filter = ("table", "profile", ("settled_at", admin.DateFieldListFilter), PlayerFilter, "phase")
    list_select_related = ("table",)
    search_fields = ("players__player__username", "table__name")
    # ?shoe__id__exact=<id>: a shoe's page links to its rounds (casino/admin_lookups.py).
    filter_links = ("shoe",)
    search_help_text = "Search by player name or table name."
    fields = (
        "table", "number", "profile", "shoe", "phase", "started_at", "settled_at",
        "shoe_verification", "transfers", "event_table",
    )
    readonly_fields = fields
    inlines = [RoundSeatInline, TransferInline]

    @admin.display(description="Ledger")
    def transfers(self, round_row: Round) -> str:
        url = reverse("admin:accounts_transfer_changelist")
        return format_html('<a href="{}?round__id__exact={}">This round’s transfers</a>', url, round_row.pk)

    @admin.display(description="Shoe check")
    def shoe_verification(self, round_row: Round) -> str:
        if round_row.shoe.retired_at is None:
            return "The shoe is still in use; it can be verified once retired."
        return format_html('<a href="{}">Verify the shoe</a>', reverse("verify_shoe", args=[round_row.shoe_id]))

    @admin.display(description="Events")
    def event_table(self, round_row: Round) -> str:
        events = (round_row.state or {}).get("events", [])
        if not events:
            return "No events yet."
        times = list(round_row.event_times or [])
        # An unsettled round's hole card is still secret; a settled one's cards are all public.
        hide_hole = round_row.phase != RoundPhase.SETTLED and not any(
            event["kind"] == "hole_card_revealed" for event in events
        )
        rows = [_event_row(event, times, hide_hole) for event in events]
        head = "".join(
            f'<th scope="col">{name}</th>'
            for name in ("Seq", "Time", "Actor", "Kind", "Seat", "Hand", "Card", "Chips", "Outcome")
        )
        body = format_html_join("", "<tr>" + "<td>{}</td>" * 9 + "</tr>", rows)
        return format_html(
            '<table class="round-events"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>', mark_safe(head), body
        )


def _event_row(event: dict, times: list, hide_hole: bool) -> tuple:
    """Seq, time, actor, kind, seat, hand (from 1), card, chips, outcome: one row of the events table."""
    seq = event.get("seq")
    card = event.get("card") or ""
    if card and hide_hole and event.get("face_up") is False:
        card = "face down"
    elif card:
        view = CardView(card)
        card = f"{view.rank}{view.suit}" + ("" if event.get("face_up", True) else " (hole)")
    seat = event.get("seat")
    if seat is None:
        seat = "dealer" if event.get("kind") in ("deal_card", "hole_card_revealed") else ""
    hand = event.get("hand")
    chips = event.get("chips") or 0
    return (
        seq,
        _time(times[seq]) if isinstance(seq, int) and seq < len(times) else "",
        event.get("actor", ""),
        event.get("kind", ""),
        seat,
        hand + 1 if isinstance(hand, int) else "",
        card,
        f"{chips:+}" if chips else "",
        event.get("outcome") or "",
    )


def _time(text: str) -> str:
    moment = parse_datetime(text) if isinstance(text, str) else None
    if moment is None:
        return str(text)
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")
