"""deploy/nginx.conf, the shipped proxy configuration, is valid nginx (`nginx -t`), sets the
documented headers in every location, retries a request already sent to a web host only for
moves (a move applies once however often it is sent; a chat message, an invitation or a token
would not), never buffers the event stream, and is what scripts/season runs (rendered for one
host: render_nginx_conf)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HEADERS = ("Host $host", "X-Forwarded-Proto $scheme", "X-Forwarded-For $proxy_add_x_forwarded_for")


def _locations(text: str) -> dict[str, str]:
    found = re.finditer(r"^ *location ([^{\n]+)\{([^}]*)\}", text, re.M)
    return {m.group(1).strip(): m.group(2) for m in found}


def _season():
    sys.path.insert(0, str(ROOT / "scripts"))
    name = "season_for_test"
    loader = importlib.machinery.SourceFileLoader(name, str(ROOT / "scripts" / "season"))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look themselves up there
    loader.exec_module(module)
    return module


def _nginx_t(conf: Path) -> subprocess.CompletedProcess[str]:
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed")
    return subprocess.run(
        [NGINX, "-t", "-c", str(conf), "-p", str(conf.parent)],
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_every_location_sets_the_documented_headers():
    locations = _locations(CONF.read_text())
    assert {"/", "/api/v1/stream/"} <= set(locations)
    for name, body in locations.items():
        for header in HEADERS:
            assert f"proxy_set_header {header};" in body, (name, header)


def test_only_moves_are_passed_on_after_they_were_sent():
    locations = _locations(CONF.read_text())
    retried = {name for name, body in locations.items() if "non_idempotent" in body}
    assert retried == {"~ ^/api/v1/games/[0-9]+/moves/$", "~ ^/games/[0-9]+/move/$"}
    assert "proxy_next_upstream error timeout;" in locations["/"]


def test_the_stream_is_not_buffered_and_outlives_its_keepalives():
    stream = _locations(CONF.read_text())["/api/v1/stream/"]
    assert "proxy_buffering off;" in stream
    assert "proxy_read_timeout 1h;" in stream
    assert "proxy_http_version 1.1;" in stream


def test_the_shipped_file_is_valid_nginx(tmp_path):
    """Inside an http block as conf.d includes it; the certificate is a throw-away one."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=test", "-keyout", str(key), "-out", str(cert)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    if made.returncode != 0:
        pytest.skip(f"openssl: {made.stderr[-300:]}")
    site = CONF.read_text()
    site = re.sub(r"ssl_certificate (\S+);", f"ssl_certificate {cert};", site)
    site = re.sub(r"ssl_certificate_key (\S+);", f"ssl_certificate_key {key};", site)
    site = site.replace("listen 80;", "listen 127.0.0.1:18080;")
    site = site.replace("listen 443 ssl;", "listen 127.0.0.1:18443 ssl;")
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n    access_log off;\n    client_body_temp_path {tmp_path}/body;\n"
        f"    proxy_temp_path {tmp_path}/proxy;\n{site}\n}}\n"
    )
    out = _nginx_t(conf)
    assert out.returncode == 0, out.stderr


def test_the_season_runs_the_shipped_file(tmp_path):
    season = _season()
    text = season.render_nginx_conf(tmp_path, 18600, [18601, 18602], 18603, tmp_path / "a.log")
    assert "server 127.0.0.1:18601" in text
    assert "server 127.0.0.1:18602" in text
    assert "listen 127.0.0.1:18600;" in text
    assert "ssl_certificate" not in text
    assert "return 301" not in text
    shipped, rendered = _locations(CONF.read_text()), _locations(text)
    assert set(rendered) == set(shipped)
    for name, body in shipped.items():  # the same rules, the scheme told by the TLS terminator
        assert rendered[name] == body.replace(
            "X-Forwarded-Proto $scheme", "X-Forwarded-Proto https"
        )
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    out = _nginx_t(conf)
    assert out.returncode == 0, out.stderr
