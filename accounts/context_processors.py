from django.http import HttpRequest

from accounts import balances


def bankroll(request: HttpRequest) -> dict[str, int | None]:
    """The signed-in player's chips, shown on every page: the bankroll (id="bankroll") and
    the chips at the tables they sit at (id="at-tables"), read together."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"bankroll": None, "at_tables": None}
    chips, at_tables = balances.chips_of(user.pk)
    return {"bankroll": chips, "at_tables": at_tables}
