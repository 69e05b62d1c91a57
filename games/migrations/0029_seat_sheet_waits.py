"""``Seat.sheet_waits``: whether a seat's round sheet waits is the seat's own fact (it was read
off the deadline, which a seat playing the round move by move holds for its turn too).

Games under way keep what the old reading said: a seat of a running sheets game that holds a
deadline and is not the bot's waits for its sheet."""

from django.db import migrations, models


def from_deadlines(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    Seat.objects.filter(
        game__status="running",
        game__options__sheets=True,
        deadline__isnull=False,
        bot_controlled=False,
    ).update(sheet_waits=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_notification_restored_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="sheet_waits",
            field=models.BooleanField(default=False, db_default=False),
        ),
        migrations.RunPython(from_deadlines, migrations.RunPython.noop),
    ]
