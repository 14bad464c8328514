import datetime as dt

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

from tables.models import BIGGEST_ID, RuleProfile, SeatResult

# The history's dates: days a round can have been played on, and whose next day is a date too.
FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2999, 12, 31)


class HistoryDateField(forms.DateField):
    """A day between FIRST_DAY and LAST_DAY (9999-12-31 plus the day the filter adds was a 500)."""

    def __init__(self, **kwargs) -> None:
        message = f"Enter a date between {FIRST_DAY.isoformat()} and {LAST_DAY.isoformat()}."
        validators = [MinValueValidator(FIRST_DAY, message), MaxValueValidator(LAST_DAY, message)]
        super().__init__(validators=validators, widget=forms.DateInput(attrs={"type": "date"}), **kwargs)


class RocketTableForm(forms.Form):
    """RULES.md rocket-academy: 1 to 7 seats, chosen when the table is created."""

    seats = forms.IntegerField(
        min_value=1, max_value=7, initial=3, label="Seats", help_text="From 1 to 7.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class LobbyFilterForm(forms.Form):
    """The lobby's filters: rule profile, stakes (by the table minimum), a free seat. Each may be left empty.

    `stakes`: (slug, label) pairs, in the order the lobby offers them.
    """

    profile = forms.ChoiceField(label="Rules", required=False)
    stakes = forms.ChoiceField(label="Stakes", required=False)
    free_seat = forms.BooleanField(label="With a free seat", required=False)

    def __init__(self, data=None, *, stakes: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(data, **kwargs)
        self.fields["profile"].choices = [("", "All rules"), *RuleProfile.choices]
        self.fields["stakes"].choices = [("", "All stakes"), *stakes]


class HistoryFilterForm(forms.Form):
    """The hand history's filters; every field may be left empty. `tables`: (id, name) the player played at."""

    table = forms.TypedChoiceField(label="Table", required=False, coerce=int, empty_value=None)
    profile = forms.ChoiceField(label="Rules", required=False)
    outcome = forms.ChoiceField(label="Result", required=False)
    date_from = HistoryDateField(label="From", required=False)
    date_to = HistoryDateField(label="To", required=False)

    def __init__(self, data=None, *, tables: list[tuple[int, str]] | None = None, **kwargs) -> None:
        super().__init__(data, **kwargs)
        self.fields["profile"].choices = [("", "All rules"), *RuleProfile.choices]
        self.fields["outcome"].choices = [("", "All results"), *SeatResult.choices]
        if tables is None:
            # Nothing renders the form (an htmx fragment, an export): any table id
            # is accepted, and filtering the player's own rows by it cannot show another's.
            self.fields["table"] = forms.IntegerField(required=False, min_value=1, max_value=BIGGEST_ID)
        else:
            self.fields["table"].choices = [("", "All tables"), *tables]

    def clean(self) -> dict:
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", "The end date is before the start date.")
        return cleaned
