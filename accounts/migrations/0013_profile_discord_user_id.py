from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0012_token_info"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="discord_user_id",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
    ]
