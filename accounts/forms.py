from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


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
