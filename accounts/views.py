from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError
from django.db.models import Case, F, Q, Sum, Value, When, Window
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods, require_POST

from accounts import chart, ledger
from accounts.refill import RefillRefused, do_refill, refill_offer
from accounts.forms import SignupForm
from accounts.models import AccountKind, LedgerAccount, Transfer, TransferKind
from accounts.services import SignupLimitReached, check_may_sign_up, do_sign_up
from accounts.throttle import client_address
from tables.history import coach
from tables.models import RoundSeat


# The transfers between the bankroll and a seat of the player's: chips moved, not won or lost.
SEAT_MOVES = (TransferKind.BUY_IN, TransferKind.CASH_OUT)
LOAN_KINDS = (TransferKind.TOP_UP, TransferKind.TOP_UP_REPAID)
CHART_TITLE = "Your chips over time"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    address = client_address(request) or "unknown"
    if request.method == "POST":
        try:
            # Before the form: a refused address costs no password hashing.
            check_may_sign_up(address)
        except SignupLimitReached as refusal:
            form.add_error(None, str(refusal))
            return render(request, "accounts/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        # Hashing the password takes a fifth of a second: done before the
        # transaction, which on SQLite holds the database's one write lock.
        user = form.save(commit=False)
        try:
            do_sign_up(user, address)
        except IntegrityError:
            # Someone took the name between the form's check and this save.
            form.add_error("username", "A user with that username already exists.")
        except SignupLimitReached as refusal:
            form.add_error(None, str(refusal))
            return render(request, "accounts/signup.html", {"form": form}, status=429)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            # Straight to the tables, with a word on what they have to play with.
            grant = settings.SIGNUP_GRANT_CHIPS
            messages.success(
                request, f"Welcome, {user.username}!" + (f" Here are {grant:,} chips to play with." if grant else "")
            )
            return redirect("lobby")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    bankroll = ledger.bankroll_of(request.user)
    signed = Case(
        When(destination=bankroll, then=F("amount")),
        default=-F("amount"),
    )
    # Issue 14: the statement also lists the top-ups lent to the player's seats
    # and their repayments; they move no bankroll chips (a change of 0).
    loans = Q(kind=TransferKind.TOP_UP, destination__user=request.user) | Q(
        kind=TransferKind.TOP_UP_REPAID, source__user=request.user
    )
    statement_signed = Case(
        When(destination=bankroll, then=F("amount")),
        When(source=bankroll, then=-F("amount")),
        default=Value(0),
    )
    # Balance after each transfer, computed by the database over the whole
    # statement before it is cut into pages.
    statement = (
        Transfer.objects.filter(Q(source=bankroll) | Q(destination=bankroll) | loans)
        .select_related("source", "destination")
        .annotate(
            change=statement_signed,
            balance_after=Window(Sum(statement_signed), order_by=F("id").asc()),
        )
        .order_by("-id")
    )
    page = Paginator(statement, settings.STATEMENT_PAGE_SIZE).get_page(request.GET.get("page"))
    for row in page:
        row.counterparty = row.source if row.destination_id == bankroll.pk else row.destination
        row.loan = row.kind in LOAN_KINDS
    if request.htmx:
        return render(request, "accounts/profile.html#statement", {"bankroll_account": bankroll, "page": page})
    # The chart: one query of the whole statement, summed here into the player's chips (chart.chips_history).
    rows = (
        Transfer.objects.filter(Q(source=bankroll) | Q(destination=bankroll))
        .annotate(change=signed)
        .order_by("id")
        .values_list("created_at", "change", "kind", "source_id", "destination_id")
    )
    moves = [
        chart.Move(
            when=timezone.localtime(when),
            change=change,
            seat=(source if change > 0 else destination) if kind in SEAT_MOVES else None,
        )
        for when, change, kind, source, destination in rows
    ]
    # The seats holding the player's chips now, with their tables: one query.
    stacks = list(
        LedgerAccount.objects.filter(kind=AccountKind.SEAT, user=request.user, balance__gt=0)
        .select_related("seat__table")
        .order_by("id")
    )
    at_tables = sum(account.balance for account in stacks)
    history = chart.chips_history(moves, now=timezone.localtime(), at_tables=at_tables)
    return render(
        request,
        "accounts/profile.html",
        {
            "bankroll_account": bankroll,
            "page": page,
            "stacks": stacks,
            "at_tables": at_tables,
            "refill": refill_offer(request.user, bankroll.balance, at_tables),
            "refill_to": settings.REFILL_TO_CHIPS,
            # Every text in it is escaped by accounts.chart.
            "chart_svg": mark_safe(chart.bankroll_svg(history, title=CHART_TITLE)),
            # "Your play": the coach's review of every decision (tables/history/coach.py), two queries.
            "play": coach.figures_of(RoundSeat.objects.filter(player=request.user)),
            "mistakes": coach.costliest_mistakes(request.user),
        },
    )


@login_required
@require_POST
def refill(request: HttpRequest) -> HttpResponse:
    """`Refill chips` (issue 14): the service decides; the profile says what happened."""
    try:
        made = do_refill(request.user)
    except RefillRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"Refilled: {made.amount:,} chips added to your bankroll.")
    return redirect("profile")
