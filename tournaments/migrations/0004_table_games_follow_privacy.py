"""Tables made before a table's game followed its tournament's privacy (issue 37): every table's
game was private, so nobody but its own players could open it from the tournament's page. Now a
public tournament's table games are public, and a private tournament's stay private with its
director and every entrant as their watchers (``games.Watcher``). Reversing leaves the games as
they are (the old rule made them all private; making them private again would hide what players
may have linked to) and the watcher rows in place (the games migration drops the table).
Every table's game also takes no substitutes (``options.substitutes`` false): now that a public
tournament's tables are public, a seat left there would be offered to anyone."""

from django.db import migrations

BATCH = 500


def forward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Watcher = apps.get_model("games", "Watcher")
    Table = apps.get_model("tournaments", "Table")
    Entrant = apps.get_model("tournaments", "Entrant")
    tables = Table.objects.filter(game__isnull=False)
    ids = list(tables.values_list("game_id", flat=True))
    public = set(tables.filter(round__tournament__private=False).values_list("game_id", flat=True))
    for start in range(0, len(ids), BATCH):
        games = list(
            Game.objects.filter(pk__in=ids[start : start + BATCH]).only("options", "made_for")
        )
        for game in games:
            game.options = {**(game.options or {}), "substitutes": False}
            game.made_for = "tournaments"  # its page names the tournament (games.web.part_of)
            if game.pk in public:
                game.options["private"] = False
        Game.objects.bulk_update(games, ["options", "made_for"])
    private = Table.objects.filter(game__isnull=False, round__tournament__private=True)
    by_tournament: dict[int, list[int]] = {}
    for game_id, tid in private.values_list("game_id", "round__tournament_id"):
        by_tournament.setdefault(tid, []).append(game_id)
    Tournament = apps.get_model("tournaments", "Tournament")
    for tid, game_ids in by_tournament.items():
        director = Tournament.objects.filter(pk=tid).values_list("director_id", flat=True).get()
        entrants = Entrant.objects.filter(tournament_id=tid).values_list("user_id", flat=True)
        users = sorted({director, *entrants})
        for game_id in game_ids:  # a game's watchers at a time: a big tournament's are many
            rows = [Watcher(game_id=game_id, user_id=u) for u in users]
            Watcher.objects.bulk_create(rows, batch_size=BATCH, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0031_game_made_for"),
        ("tournaments", "0003_table_game_later"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
