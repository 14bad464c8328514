from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from tables.engine import ACTIONS, PROFILES
from tables.engine.exact import edge_figures
from tables.forms import LobbyFilterForm, RocketTableForm
from tables.history.recent import summarise
from tables.live import lobby, viewer
from tables.live.chart import UP_CARDS, strategy_chart
from tables.live.controls import CHIPS  # the chip tray, as the table draws it
from tables.models import RoundPhase, RoundSeat, RuleProfile, Table
from tables.play import lobby as play_lobby
from tables.play.access import NoSuchTable, access_table
from tables.play.rounds import MAX_MISSED_WINDOWS
from tables.play.errors import TableError
from tables.play.messages import perform


def _table_or_404(request: HttpRequest, table_id: int) -> Table:
    try:
        return access_table(request.user, table_id)
    except NoSuchTable:
        raise Http404("No such table.") from None


def _lobby(request: HttpRequest, rocket_form: RocketTableForm | None = None, status: int = 200) -> HttpResponse:
    """The lobby, or for htmx (a filter change, a poll) its live part: the open tables and "Your tables".

    A poll says which version of that part it shows (`seen`); when nothing
    changed since, the answer is 204 and htmx leaves the page alone, so the
    list never jumps under a reader's or a keyboard's place.
    """
    form = LobbyFilterForm(request.GET or None, stakes=[(slug, label) for slug, label, *_ in lobby.STAKES])
    lobby_filter = lobby.LobbyFilter.from_cleaned(form.cleaned_data if form.is_valid() else {})
    # A page number that is not one (or past the last page) is clamped: never an error.
    page = lobby.open_tables(request.user, lobby_filter, lobby.page_number(request.GET.get("page")))
    context = {
        "signed_in": request.user.is_authenticated,
        "signup_chips": settings.SIGNUP_GRANT_CHIPS,
        "form": form,
        "filter": lobby_filter,
        "query": lobby_filter.query(),
        "tables": page.tables,
        "page": page,
        "my_tables": lobby.own_tables(request.user),
    }
    # The live part's two lists, rendered once: their text is the version a poll compares.
    open_cards = render_to_string("tables/lobby.html#open_cards", context)
    my_cards = render_to_string("tables/lobby.html#my_cards", context)
    seen = hashlib.sha256((open_cards + my_cards).encode()).hexdigest()[:16]
    context |= {
        "open_cards": mark_safe(open_cards),  # templates, escaped as they rendered
        "my_cards": mark_safe(my_cards),
        # The poll keeps the reader's page.
        "poll": f"{lobby_filter.query(page.number)}&seen={seen}".lstrip("&"),
    }
    fragment = bool(request.htmx) and not request.htmx.history_restore_request and rocket_form is None
    if fragment and request.GET.get("seen") == seen:
        response = HttpResponse(status=204)
    elif fragment:
        response = render(request, "tables/lobby.html#live", context | {"oob": True})
    else:
        context["rocket_form"] = rocket_form or RocketTableForm()
        context["common_rules"] = lobby.common_rule_lines(list(PROFILES.values()))
        response = render(request, "tables/lobby.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def table_list(request: HttpRequest) -> HttpResponse:
    return _lobby(request)


def how_to_play(request: HttpRequest) -> HttpResponse:
    """The help page: each profile's rules in plain words, the buttons and keys, the timers, chips, fair shoes."""
    defaults = {name: Table._meta.get_field(name).default for name in (
        "betting_seconds", "insurance_seconds", "decision_seconds", "pause_seconds",
    )}
    profiles = [
        {
            "slug": slug,
            "name": name,
            "rules": PROFILES[slug],
            "tags": lobby.rule_tags(PROFILES[slug]),
            "lines": PROFILES[slug].rule_lines(),
            "edge": edge_figures.basic_strategy_edge_pct(PROFILES[slug]),
        }
        for slug, name in RuleProfile.choices
    ]
    # A shoe the reader may verify now: the last retired one dealt to them.
    shoe_id = (
        RoundSeat.objects.filter(player_id=request.user.pk, round__shoe__retired_at__isnull=False)
        .order_by("-id")
        .values_list("round__shoe_id", flat=True)
        .first()
        if request.user.is_authenticated
        else None
    )
    return render(
        request,
        "tables/help.html",
        {
            "profiles": profiles,
            "actions": ACTIONS,
            "timers": defaults,
            "missed_windows": MAX_MISSED_WINDOWS,
            "chips": {
                "signup": settings.SIGNUP_GRANT_CHIPS,
                "buy_in": settings.DEFAULT_BUY_IN_CHIPS,
                "top_up": settings.TOP_UP_CHIPS,
            },
            "chip_tray": CHIPS,
            "shoe_id": shoe_id,
        },
    )


def strategy(request: HttpRequest, profile: str) -> HttpResponse:
    """A profile's basic-strategy chart, from the engine's, with its exact house edge."""
    rules = PROFILES.get(profile)
    if rules is None:
        raise Http404("No such rule profile.")
    return render(
        request,
        "tables/strategy.html",
        {
            "profile": profile,
            "profile_name": RuleProfile(profile).label,
            "rules": rules,
            "chart": strategy_chart(rules),
            "up_cards": UP_CARDS,
            "edge": edge_figures.basic_strategy_edge_pct(rules),
            "profiles": RuleProfile.choices,
        },
    )


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    view = viewer.build(table.pk, request.user)
    return render(request, "tables/table.html", {"view": view})


@login_required
@require_POST
def play_solo(request: HttpRequest) -> HttpResponse:
    table = play_lobby.solo_table_for(request.user)
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
def create_rocket_table(request: HttpRequest) -> HttpResponse:
    form = RocketTableForm(request.POST)
    if not form.is_valid():
        # The whole lobby again, its tables included, with the form's error; the field takes the focus.
        form.fields["seats"].widget.attrs["autofocus"] = True
        return _lobby(request, rocket_form=form, status=400)
    try:
        table = play_lobby.create_rocket_table(request.user, seats=form.cleaned_data["seats"])
    except TableError as refusal:
        # At the player's limit of tables (TABLES_PER_PLAYER): nothing was made; say why above the form.
        form.add_error(None, refusal.message)
        return _lobby(request, rocket_form=form, status=409)
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
        done = perform(table.pk, request.user, request.POST)
    except TableError as error:
        messages.error(request, error.message)
    else:
        if isinstance(done, str):
            messages.info(request, done)
    return redirect("table", table_id=table.pk)
