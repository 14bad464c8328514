"""The limits page (issue 14): the player's own limits, how much of each is used, pending raises."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from accounts import limits, pauses
from accounts.forms import LimitsForm, PauseForm
from accounts.models import LimitChange, LimitChangeStatus, LimitName


def _describe(change: LimitChange) -> str:
    unit = "chips" if change.limit in limits.WINDOWS else "minutes"
    new = f"{change.new_value:,} {unit}" if change.new_value is not None else "no limit"
    return f"{LimitName(change.limit).label}: {new}"


@login_required
@require_http_methods(["GET", "POST"])
def limits_page(request: HttpRequest) -> HttpResponse:
    current = limits.limits_of(request.user)
    initial = {name: getattr(current, name) for name in LimitName.values}
    form = LimitsForm(initial=initial)
    if request.method == "POST":
        action = request.POST.get("action", "set")
        try:
            if action in ("confirm", "cancel"):
                change_id = int(request.POST.get("change") or 0)
                if action == "confirm":
                    change = limits.do_confirm_change(request.user, change_id)
                    messages.success(request, f"Confirmed. {_describe(change)}, from now on.")
                else:
                    change = limits.do_cancel_change(request.user, change_id)
                    messages.success(request, f"Withdrawn: {_describe(change)}.")
                return redirect("limits")
            form = LimitsForm(request.POST, initial=initial)
            if form.is_valid():
                changed = [name for name in form.changed_data if name in LimitName.values]
                made = limits.do_set_limits(
                    request.user, {name: form.cleaned_data[name] for name in changed}, by=request.user
                )
                for change in made:
                    if change.status == LimitChangeStatus.APPLIED:
                        messages.success(request, f"{_describe(change)}, in effect now.")
                    else:
                        messages.info(
                            request,
                            f"{_describe(change)}: a looser limit waits 24 hours. Confirm it here from "
                            f"{limits.fmt(change.applies_at)}.",
                        )
                if not made:
                    messages.info(request, "Nothing changed.")
                return redirect("limits")
        except ValueError:
            messages.error(request, "That change is no longer pending.")
            return redirect("limits")
        except limits.LimitRefused as refusal:
            messages.error(request, refusal.message)
            return redirect("limits")
    return render(
        request,
        "accounts/limits.html",
        {
            "form": form,
            "usage": limits.usage(request.user),
            "pending": [(change, _describe(change)) for change in limits.pending_changes(request.user)],
            "now": timezone.now(),
            "pause_form": PauseForm(),
            "history": LimitChange.objects.filter(user=request.user).select_related("created_by")[:10],
        },
    )


@login_required
@require_http_methods(["POST"])
def take_break(request: HttpRequest) -> HttpResponse:
    """A break or self-exclusion, confirmed with the password: the player is logged out at once."""
    form = PauseForm(request.POST)
    if form.is_valid():
        try:
            pause = pauses.do_take_pause(
                request.user, form.cleaned_data["length"], form.cleaned_data["password"], by=request.user
            )
        except pauses.PauseRefused as refusal:
            messages.error(request, str(refusal))
        else:
            logout(request)
            messages.info(
                request,
                f"{pause.get_kind_display()} until {timezone.localtime(pause.ends_at):%Y-%m-%d %H:%M}. "
                "You are logged out, your seats are leaving their tables, and you cannot log in until then.",
            )
            return redirect("home")
    else:
        messages.error(request, "Choose how long, and confirm with your password.")
    return redirect("limits")
