"""Name the django.contrib.sites record (allauth's emails say "Hello from <site name>!" and put it
in their subjects): "Power Grid" at the host of SITE_URL, instead of Django's "example.com"."""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import migrations


def name_site(apps, schema_editor):
    Site = apps.get_model("sites", "Site")
    host = urlsplit(getattr(settings, "SITE_URL", "") or "").netloc or "127.0.0.1:8000"
    site_id = getattr(settings, "SITE_ID", 1)
    site, _ = Site.objects.get_or_create(pk=site_id, defaults={"domain": host, "name": ""})
    if site.domain in ("example.com", "") or site.name in ("example.com", ""):
        site.domain = host if site.domain in ("example.com", "") else site.domain
        site.name = "Power Grid"
        site.save(update_fields=["domain", "name"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_profile_vacation"),
        ("sites", "0002_alter_domain_unique"),
    ]

    operations = [migrations.RunPython(name_site, migrations.RunPython.noop)]
