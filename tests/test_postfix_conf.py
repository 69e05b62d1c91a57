"""deploy/postfix/, the shipped Postfix configuration for the inbound mail service: `postfix check`
and `postconf` accept it with no warning (an unknown or misspelt parameter is warned about), the
transport table sends the reply and bounce domains to the LMTP service on the port the systemd
unit and the settings use, and recipients are verified with the service (no mail for nobody)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
POSTFIX_DIR = ROOT / "deploy" / "postfix"


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


@pytest.fixture
def confdir(tmp_path):
    if shutil.which("postconf") is None and not Path("/usr/sbin/postconf").exists():
        pytest.skip("postfix is not installed")
    for name in ("main.cf", "transport", "virtual"):
        shutil.copy(POSTFIX_DIR / name, tmp_path / name)
    shutil.copy("/etc/postfix/master.cf", tmp_path / "master.cf")
    for table in ("transport", "virtual"):
        made = _run("postmap", str(tmp_path / table))
        assert made.returncode == 0, made.stderr
    return tmp_path


def test_postfix_accepts_the_shipped_configuration(confdir):
    checked = _run("postfix", "-c", str(confdir), "check")
    assert checked.returncode == 0, checked.stderr
    assert "warning" not in checked.stderr
    shown = _run("postconf", "-c", str(confdir), "-n")
    assert shown.returncode == 0
    assert "warning" not in shown.stderr, shown.stderr  # e.g. "unused parameter"


def test_the_reply_and_bounce_domains_go_to_the_lmtp_service(confdir, settings):
    main = _run("postconf", "-c", str(confdir), "-h", "transport_maps", "relay_domains")
    maps, domains = main.stdout.splitlines()
    assert maps.startswith("hash:")
    unit = (ROOT / "deploy" / "systemd" / "powergrid-lmtp.service").read_text()
    assert f"--port {settings.LMTP_PORT}" in unit
    for domain in ("reply.example.org", "bounce.example.org"):
        assert domain in domains
        found = _run("postmap", "-q", domain, f"hash:{confdir / 'transport'}")
        assert found.stdout.strip() == f"lmtp:inet:127.0.0.1:{settings.LMTP_PORT}"


def test_recipients_are_verified_with_the_service(confdir):
    shown = _run("postconf", "-c", str(confdir), "-h", "smtpd_recipient_restrictions")
    assert "reject_unverified_recipient" in shown.stdout
    size = _run("postconf", "-c", str(confdir), "-h", "message_size_limit").stdout.strip()
    assert 9 * 1024 * 1024 < int(size) < 10 * 1024 * 1024  # below INBOUND_MAX_BYTES' default


def test_postmaster_and_abuse_of_both_domains_reach_the_operators(confdir):
    """RFC 5321 4.5.1: a mail domain accepts postmaster@. The service refuses every address but
    a signed one (550), so the role addresses are aliased away from it, to the operators."""
    maps = _run("postconf", "-c", str(confdir), "-h", "virtual_alias_maps").stdout.strip()
    assert maps.startswith("hash:")
    for domain in ("reply.example.org", "bounce.example.org"):
        for role in ("postmaster", "abuse"):
            found = _run("postmap", "-q", f"{role}@{domain}", f"hash:{confdir / 'virtual'}")
            assert found.stdout.strip() == "ops@example.org", (role, domain)


def _conf(name: str) -> dict[str, str]:
    """A milter's configuration file (``Name value`` lines, ``#`` comments)."""
    pairs = {}
    for line in (POSTFIX_DIR / name).read_text().splitlines():
        words = line.split("#", 1)[0].split(None, 1)
        if len(words) == 2:
            pairs[words[0]] = words[1].strip()
    return pairs


def test_the_dmarc_milters_are_wired_and_reject_nothing(confdir):
    """OpenDKIM (verify) then OpenDMARC on the inbound path, on the sockets their files name,
    one authserv-id for both (the server's INBOUND_AUTHSERV_ID reads it; OpenDMARC trusts
    OpenDKIM's result), forged fields with it stripped, no rejection by the milters (the server
    refuses and tells the player), and no mail let through unchecked when a milter is down."""
    dkim, dmarc = _conf("opendkim.conf"), _conf("opendmarc.conf")
    milters = _run("postconf", "-c", str(confdir), "-h", "smtpd_milters").stdout
    assert [m.strip() for m in milters.split(",")] == [
        "inet:{1}:{0}".format(*c["Socket"].removeprefix("inet:").split("@")) for c in (dkim, dmarc)
    ]
    action = _run("postconf", "-c", str(confdir), "-h", "milter_default_action").stdout.strip()
    assert action == "tempfail"
    assert dkim["Mode"] == "v"
    serv = dkim["AuthservID"]
    assert serv == dmarc["AuthservID"] == dmarc["TrustedAuthservIDs"] == dkim["RemoveARFrom"]
    assert dkim["RemoveARAll"] == "yes"
    assert dmarc["RejectFailures"] == "false"
    assert f"INBOUND_AUTHSERV_ID={serv}" in (ROOT / "deploy" / "OPERATIONS.md").read_text()
