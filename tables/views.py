from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tables.forms import RocketTableForm
from tables.history.recent import summarise
from tables.live import viewer
from tables.live.lobby import lobby_entry
from tables.models import RoundPhase, RoundSeat, Table
from tables.play import lobby
from tables.play.access import (
    NoSuchTable,
    access_table,
    private_tables_of,
    public_tables,
)
from tables.play.errors import TableError
from tables.play.messages import perform


def _table_or_404(request: HttpRequest, table_id: int) -> Table:
    try:
        return access_table(request.user, table_id)
    except NoSuchTable:
        raise Http404("No such table.") from None


def table_list(request: HttpRequest) -> HttpResponse:
    tables = (
        public_tables()
        .select_related("current_round")
        .annotate(taken=Count("seats", filter=Q(seats__player__isnull=False)))
        .order_by("id")
    )
    mine = private_tables_of(request.user)
    return render(
        request,
        "tables/lobby.html",
        {
            "tables": [lobby_entry(table) for table in tables],
            "my_tables": mine,
            "rocket_form": RocketTableForm(),
        },
    )


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    view = viewer.build(table.pk, request.user)
    return render(request, "tables/table.html", {"view": view})


@login_required
@require_POST
def play_solo(request: HttpRequest) -> HttpResponse:
    table = lobby.solo_table_for(request.user)
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
def create_rocket_table(request: HttpRequest) -> HttpResponse:
    form = RocketTableForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "tables/lobby.html",
            {"tables": [], "my_tables": [], "rocket_form": form},
            status=400,
        )
    table = lobby.create_rocket_table(request.user, seats=form.cleaned_data["seats"])
    return redirect("table", table_id=table.pk)


def table_rounds(request: HttpRequest, table_id: int) -> HttpResponse:
    """Game recall: the last 10 settled rounds of a table."""
    table = _table_or_404(request, table_id)
    recent = list(table.rounds.filter(phase=RoundPhase.SETTLED).order_by("-id")[:10])
    # The rounds the viewer played in link to their replay (/history/<id>/); the others are theirs alone.
    played = (
        set(
            RoundSeat.objects.filter(round__in=[r.pk for r in recent], player_id=request.user.pk)
            .values_list("round_id", flat=True)
        )
        if request.user.is_authenticated and recent
        else set()
    )
    return render(
        request,
        "tables/rounds.html",
        {"table": table, "rounds": [summarise(r) for r in recent], "played": played},
    )


@require_POST
def table_action(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's buttons without JavaScript: the same action as over the websocket, then back."""
    table = _table_or_404(request, table_id)
    try:
        perform(table.pk, request.user, request.POST)
    except TableError as error:
        messages.error(request, error.message)
    return redirect("table", table_id=table.pk)
