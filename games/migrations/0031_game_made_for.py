"""``Game.made_for``: the app that made a game (a tournament's table), so that its page asks
that app's provider what the game is part of, and a lobby game's page asks nobody."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0030_watcher"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="made_for",
            field=models.CharField(blank=True, db_default="", default="", max_length=16),
        ),
    ]
