"""The hand history: a player's own rounds, one round replayed step by step, and the exports.

Lists and exports read only the signed-in player's rows; a round is replayed
only for the players who played in it, and is a 404 for anyone else, whatever
its id.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from tables.forms import HistoryFilterForm
from tables.history import coach, export, queries, replay
from tables.history.queries import HistoryFilter
from tables.models import Round, RoundSeat
from tables.play import access


def _filter_from(form: HistoryFilterForm) -> HistoryFilter:
    if not form.is_bound:
        return HistoryFilter()
    form.is_valid()
    # A field that does not validate is shown with its error and left out of the filter.
    return HistoryFilter.from_cleaned(form.cleaned_data)


def _wants_fragment(request: HttpRequest) -> bool:
    # A history restore (htmx's cache missed on Back) needs the whole page.
    return bool(request.htmx) and not request.htmx.history_restore_request


@login_required
@require_GET
def history_list(request: HttpRequest) -> HttpResponse:
    """The player's rounds, newest first, filtered and paged, with a summary of all that match."""
    fragment = _wants_fragment(request)
    # The fragment renders no form, so it needs no table choices.
    tables = None if fragment else queries.tables_played(request.user)
    form = HistoryFilterForm(request.GET or None, tables=tables)
    history_filter = _filter_from(form)
    rows = queries.rounds_of(request.user, history_filter)
    summary = queries.summarise(rows)
    page = queries.page_of(rows, request.GET.get("page"), count=summary.rounds)
    context = {
        "form": form,
        "filter": history_filter,
        "summary": summary,
        "page": page,
        "query": history_filter.query(),
    }
    template = "tables/history.html#results" if fragment else "tables/history.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
def history_round(request: HttpRequest, round_id: int) -> HttpResponse:
    """One of the player's rounds replayed: the table after each event, one step at a time."""
    players = list(
        RoundSeat.objects.filter(round_id=round_id)
        .select_related("player")
        .only("seat", "net", "result", "stack_before", "stack_after", "player_id", "player__username", "review")
        .order_by("seat")
    )
    mine = [row for row in players if row.player_id == request.user.pk]
    if not mine:
        raise Http404("This round is not in your history.")
    round_row = Round.objects.select_related("table", "shoe").get(pk=round_id)
    # Who played each seat, those who only passed included (RoundSeat rows are for bets).
    names = {int(seat): name for seat, name in round_row.names.items()} | {row.seat: row.player.username for row in players}
    all_steps = replay.steps(round_row.state, round_row.event_times, names)
    last = len(all_steps) - 1
    number = _step_number(request.GET.get("step"), last)
    step = all_steps[number]
    shoe = round_row.shoe
    lines = coach.review_lines(mine)
    context = {
        "round": round_row,
        "table": round_row.table,
        "may_watch_table": access.may_watch(request.user.pk, round_row.table.owner_id),
        "mine": mine,
        "my_seats": [row.seat for row in mine],
        "step": step,
        "last": last,
        "previous": number - 1 if number > 0 else None,
        "next": number + 1 if number < last else None,
        # What happened so far, never beyond this step (the hole card is turned in a later one).
        "log": [(s.index, s.caption) for s in all_steps[1 : number + 1]],
        # The coach's review of the player's decisions (null until it is done, just after settlement).
        "review_lines": lines,
        "step_reviews": [line for line in lines if line.step == step.index],
        "reviewed": all(row.review is not None for row in mine),
        "commitment": shoe.commitment,
        "seed": shoe.seed if shoe.retired_at is not None else None,
    }
    fragment = _wants_fragment(request)
    context["oob"] = fragment
    template = "tables/history_round.html#replay" if fragment else "tables/history_round.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _step_number(value: str | None, last: int) -> int:
    try:
        number = int(value) if value is not None else 0
    except ValueError:
        number = 0
    return max(0, min(number, last))


def _export_rows(request: HttpRequest):
    """The rows to export, or the 400 naming the filters it cannot read (an export shows no form to mark them on)."""
    form = HistoryFilterForm(request.GET or None, tables=None)
    if form.is_bound and not form.is_valid():
        problems = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items())
        return HttpResponseBadRequest(f"Cannot export with these filters. {problems}", content_type="text/plain")
    return queries.rounds_of(request.user, _filter_from(form))


@login_required
@require_GET
def history_export_csv(request: HttpRequest) -> HttpResponse:
    rows = _export_rows(request)
    if isinstance(rows, HttpResponse):
        return rows
    return export.streaming_response(
        request,
        export.csv_chunks(rows),
        content_type="text/csv; charset=utf-8",
        filename=export.filename("csv"),
    )


@login_required
@require_GET
def history_export_json(request: HttpRequest) -> HttpResponse:
    rows = _export_rows(request)
    if isinstance(rows, HttpResponse):
        return rows
    return export.streaming_response(
        request,
        export.json_chunks(rows),
        content_type="application/json",
        filename=export.filename("json"),
    )
