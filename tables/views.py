from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tables import lobby, presenter, services
from tables.actions import dispatch
from tables.forms import RocketTableForm
from tables.models import RoundPhase, RoundSeat, Table


def table_list(request: HttpRequest) -> HttpResponse:
    tables = (
        Table.objects.filter(owner__isnull=True)
        .select_related("current_round")
        .annotate(taken=Count("seats", filter=Q(seats__player__isnull=False)))
        .order_by("id")
    )
    mine = Table.objects.filter(owner=request.user) if request.user.is_authenticated else Table.objects.none()
    return render(
        request,
        "tables/lobby.html",
        {
            "tables": [lobby.describe(table) for table in tables],
            "my_tables": mine,
            "rocket_form": RocketTableForm(),
        },
    )


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if table.owner_id is not None and table.owner_id != request.user.pk:
        raise Http404("No such table.")
    view = presenter.build(table.pk, request.user)
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
    table = get_object_or_404(Table, pk=table_id)
    if table.owner_id is not None and table.owner_id != request.user.pk:
        raise Http404("No such table.")
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
        {"table": table, "rounds": [lobby.summarise(r) for r in recent], "played": played},
    )


@require_POST
def table_action(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's buttons without JavaScript: the same action as over the websocket, then back."""
    table = get_object_or_404(Table, pk=table_id)
    if table.owner_id is not None and table.owner_id != request.user.pk:
        raise Http404("No such table.")
    try:
        dispatch(table.pk, request.user, request.POST)
    except services.TableError as error:
        messages.error(request, error.message)
    return redirect("table", table_id=table.pk)
