"""The development mailbox's folder is the project's var/mail, wherever the server is started
from (django-environ reads ``filemail:///abs`` as a relative path)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _email_path(cwd: Path, **env: str) -> str:
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); from django.conf import settings; print(settings.EMAIL_FILE_PATH)"
    )
    environ = {k: v for k, v in os.environ.items() if k != "EMAIL_URL"}
    environ.update(env, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=environ, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_default_mailbox_is_the_projects_var_mail_from_any_folder(tmp_path):
    assert _email_path(ROOT) == str(ROOT / "var" / "mail")
    assert _email_path(tmp_path) == str(ROOT / "var" / "mail")


def test_a_relative_filemail_url_is_inside_the_project(tmp_path):
    assert _email_path(tmp_path, EMAIL_URL="filemail://var/mail2") == str(ROOT / "var" / "mail2")
