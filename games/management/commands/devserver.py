"""`make run`: the development server plus a Celery worker with beat, stopped together on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from games.management.commands.seed_demo import DEMO_USERS, demo_password


class Command(BaseCommand):
    help = "Runs runserver and a Celery worker with beat (-B) on the configured broker."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--no-worker", action="store_true", help="Only the web server.")

    def handle(self, *args: Any, **options: Any) -> None:
        addrport = options["addrport"]
        base = f"http://{addrport}"
        procs: list[subprocess.Popen[bytes]] = []
        env = dict(os.environ)
        manage = str(settings.BASE_DIR / "manage.py")
        if not options["no_worker"]:
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable, "-m", "celery", "-A", "config", "worker", "-B",
                        "--loglevel", "INFO", "--concurrency", "1",
                        "--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME,
                    ],
                    env=env,
                    cwd=settings.BASE_DIR,
                )
            )  # fmt: skip
        procs.append(subprocess.Popen([sys.executable, manage, "runserver", addrport], env=env))
        time.sleep(1.5)
        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS(f"Power Grid is running at {base}/"))
        self.stdout.write("  Logins (username / password):")
        for username, _display, _lang in DEMO_USERS:
            self.stdout.write(f"    {username:6} / {demo_password(username)}")
        self.stdout.write(f"  Mailbox (emails sent):  {base}/dev/mailbox/")
        self.stdout.write(f"  API docs:               {base}/api/docs/")
        self.stdout.write(f"  Admin:                  {base}/admin/")
        self.stdout.write("  Celery worker with beat: " + ("off" if options["no_worker"] else "on"))
        self.stdout.write("Press Ctrl-C to stop.")
        # A service manager or `kill` sends SIGTERM: stop the children as Ctrl-C does, or the
        # worker would outlive us and keep the SQLite broker busy.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            while all(p.poll() is None for p in procs):
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGINT)
            deadline = time.time() + 10
            for p in procs:
                try:
                    p.wait(timeout=max(0.1, deadline - time.time()))
                except subprocess.TimeoutExpired:
                    p.kill()
        self.stdout.write("Stopped.")
