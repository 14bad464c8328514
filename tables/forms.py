from django import forms


class RocketTableForm(forms.Form):
    """RULES.md rocket-academy: 1 to 7 seats, chosen when the table is created."""

    seats = forms.IntegerField(min_value=1, max_value=7, initial=3, label="Seats")
