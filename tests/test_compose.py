"""deploy/compose.yaml works as shipped: every service that reads the environment reaches the
database and Redis by the names of compose's own services (env.example names a real
deployment's hosts), and no port of a process that trusts X-Forwarded-For (TRUSTED_PROXIES > 0)
is published where anyone but the host's nginx could reach it. No Docker here: the files are read
the way compose reads them (`environment:` over `env_file:`)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import yaml

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
URL_KEYS = ("DATABASE_URL", "DATABASE_REPLICA_URL", "CELERY_BROKER_URL", "CACHE_URL")
URL_KEYS += ("STREAM_REDIS_URL", "CELERY_RESULT_BACKEND")


def _env_file(path: Path) -> dict[str, str]:
    env = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            env[key] = value
    return env


def _services() -> dict[str, dict]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]


def _effective_env(service: dict) -> dict[str, str]:
    env: dict[str, str] = {}
    files = service.get("env_file") or []
    for name in [files] if isinstance(files, str) else files:
        env.update(_env_file(DEPLOY / name))
    overrides = service.get("environment") or {}
    if isinstance(overrides, list):
        overrides = dict(item.split("=", 1) for item in overrides)
    env.update({k: str(v) for k, v in overrides.items()})
    return env


def _app_services() -> dict[str, dict[str, str]]:
    return {name: _effective_env(s) for name, s in _services().items() if s.get("env_file")}


def test_every_url_names_a_compose_service():
    services = _services()
    apps = _app_services()
    assert {"web", "stream", "worker", "beat", "migrate"} <= set(apps)
    for name, env in apps.items():
        assert env.get("DATABASE_URL", "").startswith("postgres"), name
        for key in URL_KEYS:
            if key not in env:
                continue
            host = urlsplit(env[key]).hostname
            assert host in services, f"{name}: {key}={env[key]} names {host}, not a service"


def test_the_database_credentials_match_the_db_service():
    db = _services()["db"]["environment"]
    for name, env in _app_services().items():
        url = urlsplit(env["DATABASE_URL"])
        assert url.username == db["POSTGRES_USER"], name
        assert url.password == db["POSTGRES_PASSWORD"], name
        assert url.path.lstrip("/") == db["POSTGRES_DB"], name


def test_a_proxy_trusting_port_is_published_on_the_loopback_only():
    """TRUSTED_PROXIES=1 trusts the last X-Forwarded-For entry: only nginx may connect."""
    for name, service in _services().items():
        env = _effective_env(service) if service.get("env_file") else {}
        if int(env.get("TRUSTED_PROXIES", "0")) == 0:
            continue
        for port in service.get("ports", []):
            assert re.match(r"127\.0\.0\.1:\d+:\d+$", str(port)), f"{name} publishes {port}"


def test_the_container_image_listens_on_its_own_interfaces():
    """gunicorn.conf.py binds 127.0.0.1 by default (a host's nginx is local); inside a container
    that would be unreachable, so the image sets 0.0.0.0."""
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^ENV GUNICORN_BIND=0\.0\.0\.0:8000$", dockerfile, re.M)
    web = _services()["web"]
    assert "command" not in web  # the image's CMD: gunicorn with deploy/gunicorn.conf.py
    assert "127.0.0.1:8000:8000" in web["ports"]
