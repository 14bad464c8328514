from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from tables.models import Round, Seat, Shoe, Table


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
    list_display = ("name", "profile", "seat_count", "min_bet", "max_bet", "owner", "version", "deadline")
    list_filter = ("profile",)
    search_fields = ("name", "owner__username")
    readonly_fields = ("version", "current_round", "deadline", "created_at")
    inlines = [SeatInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            # A table's game cannot change under seated players.
            fields += ["profile"]
        return fields


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Shoe)
class ShoeAdmin(ReadOnly):
    list_display = ("id", "table", "decks", "commitment", "created_at", "retired_at")
    list_filter = ("table",)
    exclude = ("seed",)  # secret until the shoe is retired


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ("id", "table", "number", "profile", "phase", "started_at", "settled_at")
    list_filter = ("profile", "phase", "table")
    search_fields = ("table__name",)
    exclude = ("state",)
    readonly_fields = ("table", "number", "profile", "shoe", "phase", "started_at", "settled_at")
