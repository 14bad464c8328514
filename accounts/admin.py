"""The admin: users with their bankroll, and the ledger, read-only.

Chips are never edited here. The only way an admin changes a bankroll is the
"Grant or correct chips" action, which writes a transfer with a reason.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.humanize.templatetags.humanize import intcomma
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html

from accounts import ledger
from accounts.forms import AdjustChipsForm
from accounts.models import (
    AccountKind,
    LedgerAccount,
    LimitChange,
    Pause,
    Transfer,
    User,
)
from accounts.services import do_create_account


class NoWrites:
    """History is read, never written by hand: no add, change or delete (admins and inlines alike)."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ReadOnlyAdmin(NoWrites, admin.ModelAdmin):
    """The ledger is history: nobody adds, edits or deletes it by hand."""


@admin.action(description="Grant or correct chips", permissions=["view"])
def adjust_chips(modeladmin: UserAdmin, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
    if not request.user.is_superuser:
        modeladmin.message_user(request, "Only superusers may grant or correct chips.", messages.ERROR)
        return None
    form = AdjustChipsForm(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        done = 0
        for user in queryset:
            try:
                ledger.admin_adjust(
                    user=user, amount=form.cleaned_data["amount"], reason=form.cleaned_data["reason"], admin=request.user
                )
                done += 1
            except ledger.LedgerError as error:
                modeladmin.message_user(request, f"{user.username}: {error}", messages.ERROR)
        if done:
            modeladmin.message_user(
                request, f"Wrote {done} transfer(s) of {form.cleaned_data['amount']} chips.", messages.SUCCESS
            )
        return None
    return render(
        request,
        "admin/accounts/adjust_chips.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": "Grant or correct chips",
            "form": form,
            "users": queryset,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            "opts": modeladmin.model._meta,
        },
    )


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "email", "bankroll", "is_staff", "is_active", "paused_until", "date_joined")
    actions = [adjust_chips]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        bankroll = LedgerAccount.objects.filter(kind=AccountKind.BANKROLL, user=OuterRef("pk")).values("balance")
        return super().get_queryset(request).annotate(bankroll_balance=Subquery(bankroll[:1]))

    @admin.display(description="Bankroll", ordering="bankroll_balance")
    def bankroll(self, user: User) -> str | None:
        # Numbers read alike everywhere: 1,000, as in the top bar and the profile.
        return None if user.bankroll_balance is None else intcomma(user.bankroll_balance)

    def save_model(self, request: HttpRequest, obj: User, form, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
        else:
            do_create_account(obj)  # a new player gets a bankroll and the sign-up grant, as at sign-up


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ("id", "label", "kind", "user", "balance", "created_at")
    list_filter = ("kind",)
    search_fields = ("label", "user__username")
    readonly_fields = ("kind", "user", "label", "balance", "created_at", "transfers")

    @admin.display(description="Transfers")
    def transfers(self, account: LedgerAccount) -> str:
        url = reverse("admin:accounts_transfer_changelist")
        return format_html('<a href="{}?account={}">All transfers of this account</a>', url, account.pk)


class AccountFilter(admin.SimpleListFilter):
    """?account=<id>: transfers into or out of one account."""

    title = "account"
    parameter_name = "account"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(str(a.pk), a.label) for a in LedgerAccount.objects.exclude(kind=AccountKind.SEAT)[:50]]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Transfer]) -> QuerySet[Transfer]:
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(Q(source_id=value) | Q(destination_id=value))
        return queryset


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = (
        "id", "created_at", "kind", "amount", "source", "destination", "reason", "round_link", "created_by",
    )
    list_filter = ("kind", AccountFilter, "created_at")
    search_fields = ("source__label", "destination__label", "reason", "source__user__username", "destination__user__username")
    list_select_related = ("source", "destination", "created_by", "round__table")
    date_hierarchy = "created_at"
    readonly_fields = ("source", "destination", "amount", "kind", "reason", "round_link", "created_at", "created_by")

    # ?round__id__exact=<id>: a round's admin page links to its transfers (casino/admin_lookups.py).
    filter_links = ("round",)

    @admin.display(description="Round", ordering="round")
    def round_link(self, transfer: Transfer) -> str:
        if transfer.round_id is None:
            return "—"
        url = reverse("admin:tables_round_change", args=[transfer.round_id])
        return format_html('<a href="{}">{}</a>', url, transfer.round)


@admin.register(Pause)
class PauseAdmin(ReadOnlyAdmin):
    """Breaks and self-exclusions (issue 14): shown, never ended early."""

    list_display = ("user", "kind", "starts_at", "ends_at", "created_by")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "kind", "starts_at", "ends_at", "created_by")


@admin.register(LimitChange)
class LimitChangeAdmin(ReadOnlyAdmin):
    """Every change of a player's own limits, with when and by whom."""

    list_display = ("user", "limit", "old_value", "new_value", "status", "created_at", "applies_at", "created_by")
    list_filter = ("limit", "status")
    search_fields = ("user__username",)
