"""The shoe verification page: anyone who played a shoe may check it once its seed is revealed."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tables.fairness.verification import verify_shoe as check_shoe
from tables.live.cards import CardView
from tables.models import RoundSeat, Shoe


@login_required
def verify_shoe(request: HttpRequest, shoe_id: int) -> HttpResponse:
    """Staff, or a player who played a round dealt from the shoe; to anyone else it does not exist."""
    shoe = get_object_or_404(Shoe.objects.select_related("table"), pk=shoe_id)
    if not request.user.is_staff and not RoundSeat.objects.filter(round__shoe=shoe, player=request.user).exists():
        raise Http404("No such shoe.")
    result = check_shoe(shoe)
    order = [CardView(card) for card in result.card_order]
    return render(
        request,
        "tables/verify_shoe.html",
        {
            "shoe": shoe,
            "result": result,
            "dealt": order[: result.cards_dealt],
            "undealt": order[result.cards_dealt :],
        },
    )
