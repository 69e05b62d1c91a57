"""``InboundMail.user``: the account a reply's token was issued to, so that the refusals' hourly
cap is counted per account and game, not per seat (a substitute and the seat's former holder
no longer share it). Nullable, no data written: rows from before it simply do not count."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0031_game_made_for"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="inboundmail",
            name="user",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddIndex(
            model_name="inboundmail",
            index=models.Index(fields=["user", "game", "created_at"], name="inbound_user_recent"),
        ),
    ]
