"""Plans on the server: kept secret per seat, run by the move service (``runner.follow``).

The rules of a plan (what move it makes in which state) are the engine's
(``powergrid.plans``); this package stores plans (``games.models.Plan``), turns the API's and the
forms' JSON into them (``codec``), writes and reads them (``services``, ``selectors``) and runs
them after each move (``runner``).
"""
