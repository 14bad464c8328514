from django.http import HttpRequest

from accounts import ledger


def bankroll(request: HttpRequest) -> dict[str, int | None]:
    """The signed-in player's bankroll, shown on every page (id="bankroll")."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"bankroll": None}
    return {"bankroll": ledger.bankroll_balance(user.pk)}
