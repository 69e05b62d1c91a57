"""Every long-running process of the deployment is started again when it exits, under systemd
and under compose alike: a Celery worker can exit on its own when its broker connection breaks
in a way kombu does not recover from (a Redis restart, found by scripts/season), and then
nothing served its queue (compose had no restart policy)."""

from __future__ import annotations

from pathlib import Path

import yaml

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
ONE_SHOT = {"migrate"}


def test_every_compose_service_but_the_migration_restarts():
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    policies = {name: s.get("restart") for name, s in services.items() if name not in ONE_SHOT}
    assert policies
    assert set(policies.values()) == {"unless-stopped"}, policies


def test_every_systemd_service_restarts_always():
    units = sorted((DEPLOY / "systemd").glob("*.service"))
    assert units
    for unit in units:
        text = unit.read_text()
        if "Type=oneshot" in text:
            continue
        assert "\nRestart=always\n" in text, unit.name
