"""``Profile.language_chosen``: whether the player chose their language themselves. Profiles
whose language is not the default were set by someone (sign-up from a Japanese page, the switch,
the settings page), so they keep it as chosen: nothing changes for them at their next log-in."""

from django.db import migrations, models


def mark_set_languages(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    Profile.objects.exclude(language="en").update(language_chosen=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0014_blocks_and_push"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="language_chosen",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_set_languages, migrations.RunPython.noop),
    ]
