from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Case, F, Q, Sum, Value, When, Window
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts import ledger
from accounts.forms import SignupForm
from accounts.models import Transfer


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # The user, their bankroll and the sign-up grant exist together or not at all.
        with transaction.atomic():
            user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("profile")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    bankroll = ledger.bankroll_of(request.user)
    signed = Case(
        When(destination=bankroll, then=F("amount")),
        default=-F("amount"),
    )
    # Balance after each transfer, computed by the database over the whole
    # statement before it is cut into pages.
    statement = (
        Transfer.objects.filter(Q(source=bankroll) | Q(destination=bankroll))
        .select_related("source", "destination")
        .annotate(
            change=signed,
            balance_after=Window(Sum(signed), order_by=F("id").asc()),
        )
        .order_by("-id")
    )
    page = Paginator(statement, settings.STATEMENT_PAGE_SIZE).get_page(request.GET.get("page"))
    for row in page:
        row.counterparty = row.source if row.destination_id == bankroll.pk else row.destination
    template = "accounts/profile.html#statement" if request.htmx else "accounts/profile.html"
    return render(request, template, {"bankroll_account": bankroll, "page": page})
