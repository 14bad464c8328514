from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from accounts import pauses
from accounts.models import User


class LoginForm(AuthenticationForm):
    """Django's log-in form, refusing a player on a break or self-excluded (issue 14) until it ends."""

    def confirm_login_allowed(self, user: User) -> None:
        super().confirm_login_allowed(user)
        if pauses.is_paused(user):
            raise forms.ValidationError(
                f"You are taking a break from the casino until {pauses.until_words(user)}. "
                "You can log in again from then.",
                code="paused",
            )


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional: only used to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class AdjustChipsForm(forms.Form):
    """The admin's grant (positive) or correction (negative) of a bankroll."""

    amount = forms.IntegerField(
        help_text="Chips to add to the bankroll; a negative number takes chips back.",
        min_value=-10_000_000,
        max_value=10_000_000,
    )
    reason = forms.CharField(max_length=200, help_text="Recorded on the transfer and shown to the player.")

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("Enter a number of chips other than 0.")
        return amount


class PauseForm(forms.Form):
    """Take a break or exclude yourself: how long, confirmed with the password."""

    length = forms.ChoiceField(
        label="How long",
        choices=[(key, choice.label) for key, choice in pauses.LENGTHS.items()],
        widget=forms.RadioSelect,
    )
    password = forms.CharField(
        label="Your password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )


class LimitsForm(forms.Form):
    """The player's own limits (accounts.limits); an empty field is no limit."""

    loss_day = forms.IntegerField(
        label="Loss limit per day", required=False, min_value=1, max_value=100_000_000,
        help_text="Chips you may lose at the tables in any 24 hours.",
    )
    loss_week = forms.IntegerField(
        label="Loss limit per week", required=False, min_value=1, max_value=100_000_000,
        help_text="In any 7 days.",
    )
    loss_month = forms.IntegerField(
        label="Loss limit per month", required=False, min_value=1, max_value=100_000_000,
        help_text="In any 30 days.",
    )
    session_minutes = forms.IntegerField(
        label="Session time limit (minutes)", required=False, min_value=1, max_value=24 * 60,
        help_text="From a session's first bet; you finish the round, then cannot bet until you have "
        "been away from the tables for 30 minutes.",
    )
    reality_check_minutes = forms.TypedChoiceField(
        label="Reality check", required=False, coerce=int, empty_value=None,
        choices=[("", "Off"), (15, "Every 15 minutes"), (30, "Every 30 minutes"), (60, "Every 60 minutes")],
        help_text="Time played this session and your result, with Keep playing and Stop playing.",
    )
