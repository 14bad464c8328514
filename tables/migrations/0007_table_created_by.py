"""Table.created_by: the player who opened a table from the lobby, so "Your tables" can list it.

Tables made before the field are filled in once: a private solo table by its
owner; a public Rocket Academy table by the player its name was made from
(`tables.play.lobby.create_rocket_table` named them "<username>'s Rocket
Academy" or "... #<n>", and nothing else made such names but the admin).
"""

import re

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

ROCKET_NAME = re.compile(r"^(?P<username>.+)'s Rocket Academy(?: #\d+)?$")


def fill_in_creators(apps, schema_editor) -> None:
    Table = apps.get_model("tables", "Table")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Table.objects.filter(owner__isnull=False, created_by__isnull=True).update(created_by=models.F("owner"))
    for table in Table.objects.filter(owner__isnull=True, created_by__isnull=True, profile="rocket-academy"):
        match = ROCKET_NAME.match(table.name)
        if match is None:
            continue
        user = User.objects.filter(username=match["username"]).first()
        if user is not None:
            Table.objects.filter(pk=table.pk).update(created_by=user)


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0006_default_bet'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='created_by',
            field=models.ForeignKey(blank=True, help_text="The player who opened it from the lobby (a solo or Rocket Academy table); empty for the house's tables.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='created_tables', to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(fill_in_creators, migrations.RunPython.noop),
    ]
