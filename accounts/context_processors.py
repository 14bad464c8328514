from django.http import HttpRequest

from accounts.models import AccountKind, LedgerAccount


def bankroll(request: HttpRequest) -> dict[str, int | None]:
    """The signed-in player's bankroll, shown on every page (id="bankroll")."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"bankroll": None}
    balance = (
        LedgerAccount.objects.filter(kind=AccountKind.BANKROLL, user=user).values_list("balance", flat=True).first()
    )
    return {"bankroll": balance}
