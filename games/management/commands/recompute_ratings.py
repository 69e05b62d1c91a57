"""``manage.py recompute_ratings``: every rating again from the finished games, in the order
they ended (after a change to the rating rules, or to check the stored ones)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.ratings import ratings_recompute


class Command(BaseCommand):
    help = "Recomputes every player's rating from the finished games."

    def handle(self, *args: Any, **options: Any) -> None:
        n = ratings_recompute()
        self.stdout.write(f"{n} games rated")
