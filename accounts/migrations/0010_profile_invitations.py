# Who may invite the player to a game: anyone (as before), players they have played with, nobody.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_display_name_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="invitations",
            field=models.CharField(
                choices=[
                    ("anyone", "From anyone"),
                    ("played_with", "Only from players I have played a game with"),
                    ("nobody", "From nobody"),
                ],
                default="anyone",
                help_text="Who may invite you to a game by your username (each invitation is an email).",
                max_length=12,
                verbose_name="game invitations",
            ),
        ),
    ]
