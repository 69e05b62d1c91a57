"""Settings, all from the environment (django-environ), with defaults that run with nothing set up.

Variables (see README "Production"):
  DEBUG               default True (the embedded development set-up); set False in production
  SECRET_KEY          required when DEBUG is False
  ALLOWED_HOSTS       comma-separated; default localhost,127.0.0.1,[::1],testserver when DEBUG
  DATABASE_URL        default sqlite:///var/db.sqlite3; production postgres://user:pass@host:5432/name
  DATABASE_REPLICA_URL  default unset: a PostgreSQL replica for the public listings and records
                      (config/replica.py); unset, everything reads the primary
  REPLICA_MAX_LAG_SECONDS  default 10: a replica further behind is not read, and a user who
                      wrote reads the primary this long (read-your-writes; config/replica.py)
  DATABASE_STATEMENT_TIMEOUT_MS / DATABASE_LOCK_TIMEOUT_MS  default 0 (none): PostgreSQL's
                      statement_timeout and lock_timeout; deploy/gunicorn.conf.py sets half and a
                      quarter of GUNICORN_TIMEOUT for the web processes (a stuck request answers
                      503 before its worker is killed)
  CONN_MAX_AGE        seconds a database connection is reused (default 600; None = forever)
  CONN_HEALTH_CHECKS  default True: check a reused connection once per request (one SELECT 1)
  CACHE_URL           default locmemcache:// (per process: API throttle counts are per worker);
                      redis://host:6379/1 to share them between workers and hosts
  CELERY_BROKER_URL   default sqla+sqlite:///var/celery.sqlite3; production redis://host:6379/0
  CELERY_RESULT_BACKEND  default unset (results are not kept)
  CELERY_DB_REUSE_MAX default 1000: tasks a worker runs on one database connection (0 = a new one
                      for every task, Celery's own default)
  EMAIL_URL           default filemail:///<repo>/var/mail (shown at /dev/mailbox/); smtp+tls://user:pass@host:587
  DEFAULT_FROM_EMAIL  default "Power Grid <noreply@localhost>"
  SITE_URL            default http://127.0.0.1:8000 (absolute links in emails)
  INBOUND_EMAIL_DOMAIN  default "reply.localhost": turn emails get Reply-To turn+<token>@<domain>
                      (empty: no reply address); the domain's mail must reach receive_mail or
                      the inbound webhook (deploy/OPERATIONS.md, "Moves by email")
  INBOUND_REFUSALS_ANSWERED_PER_HOUR  default 5: refused replies answered an hour per account and
                      game (more are logged, not answered: a mail loop with an auto-responder
                      stops; replies from an address not the account's count too, answered to
                      the account, and the failed messages the safety net answers)
  INBOUND_AUTHSERV_ID  default "" (off): the inbound MTA's DMARC milter's AuthservID; a reply whose
                      Authentication-Results from it say dmarc=fail is refused
                      (sender_not_authenticated; deploy/OPERATIONS.md, "Forged senders")
  INBOUND_MAILGUN_SIGNING_KEY  Mailgun's webhook signing key: enables the inbound webhook at
                      /inbound/mailgun/ (unset: that URL answers 404)
  BOUNCE_EMAIL_DOMAIN default INBOUND_EMAIL_DOMAIN: SMTP emails' Return-Path is
                      bounce+<token>@<domain>, read by receive_mail (empty: none)
  MAIL_WEBHOOK_SECRET, MAILGUN_WEBHOOK_SIGNING_KEY, SENDGRID_WEBHOOK_VERIFICATION_KEY,
  AMAZON_SES_TOPIC_ARNS  the providers' bounce and complaint webhooks (/mail/events/<provider>/;
                      deploy/OPERATIONS.md, "Bounces and complaints"); each answers 404 unset
  MAIL_SOFT_BOUNCE_LIMIT / MAIL_SOFT_BOUNCE_DAYS / MAIL_UNDELIVERABLE_GRACE_HOURS  3 / 7 / 72
  MAIL_BOUNCE_RATE_MAX / MAIL_COMPLAINT_RATE_MAX  0.05 / 0.001: /health/ flags the day's rates
  API_THROTTLE_USER / API_THROTTLE_ANON / API_THROTTLE_TOKEN_CREATE  DRF rates, e.g. "600/min"
  TURN_HOUR_SECONDS / SWEEP_EVERY_SECONDS  TEST SETTINGS ONLY (scripts/season): an hour of turn
                      time lasts that many seconds (default 3600); the deadline, outbox and
                      reminder sweeps run that often (default 30/60/60 s). Never in production.
  DEADLINE_SWEEP_PARALLEL  default 2: sweeps that may share a burst of due games (one per worker)
  DEADLINE_SWEEP_CHUNK     default 200: due games locked and handled per sweep transaction
  BOT_BUDGET_SCALE    default 1.0: factor on the search bot levels' budget per decision
                      (powergrid.levels: games and seconds); the tests use 0.05 (a test setting:
                      a game at the top level then plays in seconds through the worker)
  STREAM_REDIS_URL    default unset: the event stream (/api/v1/stream/) is woken by Redis
                      publish/subscribe, e.g. redis://host:6379/2; unset (the embedded set-up), a
                      stream reads the event log every STREAM_FALLBACK_SECONDS instead
  STREAM_REPLAY_SECONDS  default 86400: how long a stream client may be away and still resume
                      from Last-Event-ID with every event it missed (beyond: a `resync` event)
  QUIET_PERIODIC_TASK_LOGS  default False: a worker logs its periodic tasks' lines at DEBUG
                      (set by manage.py devserver for the worker it starts; config/logfilters.py)
  STATIC_ROOT         default <repo>/staticfiles: where collectstatic writes (scripts/prod_smoke
                      uses a temporary folder)
  BENCH_ENDPOINTS     default False; True mounts /api/bench/insert/ (bench/api_bench.py's floor)
  TRUSTED_PROXIES     default 0: how many proxies of ours stand in front of the server and append
                      the client's address to X-Forwarded-For (production behind the documented
                      nginx: 1). 0 ignores the header (anyone can write it): accounts/addresses.py
  STREAM_MAX_PER_USER / STREAM_MAX_PER_ADDRESS  default 5 / 20: event streams open at once per
                      account and per client address, in each stream process (429 beyond)
"""

import os
import sys
from pathlib import Path
from typing import Any

import environ
from csp.constants import NONCE, NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)
_DEV_SECRET = "django-insecure-dev-only-never-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default=_DEV_SECRET if DEBUG else None)
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is False")
ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS",
    default=["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [],
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
SITE_ID = 1

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from our static files, not a CDN
    "csp",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "config.middleware.ServerTimingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Outside the CSRF check and every view: sees each error answered under /api/.
    "config.middleware.ApiErrorsAsJsonMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Django's, with a 308 (method kept) for an /api/ URL without its trailing slash.
    "config.middleware.CommonMiddleware",
    "config.middleware.ServiceUnavailableMiddleware",
    # A number games.numbers refused, let through by a view: a 400, never a 500.
    "config.middleware.BadNumberMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # An operation the schema declares without a body refuses one (games/api/bodiless.py).
    "games.api.bodiless.BodilessMiddleware",
    # After authentication: a user who just wrote reads the primary (config/replica.py).
    "config.replica.ReplicaStickinessMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.LastSeenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.mail_trouble",
            ],
        },
    },
]


def _max_age(value: str) -> int | None:
    return None if str(value).strip().lower() in ("none", "") else int(value)


DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
# Persistent connections: a new PostgreSQL connection per request costs more than the request.
# CONN_MAX_AGE in seconds (0 = close after each request, "None" = forever); CONN_HEALTH_CHECKS=True
# checks a reused connection at the start of each request (one "SELECT 1" round trip), so a
# restarted database costs no failed request.
# Not under runserver, unless asked: it serves each request on a thread of its own, and each
# thread's kept connection stays open after it (a shared PostgreSQL ran out of connections).
_RUNSERVER = len(sys.argv) > 1 and sys.argv[1] == "runserver"
DATABASES["default"].setdefault(
    "CONN_MAX_AGE", _max_age(env.str("CONN_MAX_AGE", default="0" if _RUNSERVER else "600"))
)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=True)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Several processes (runserver, the Celery worker) share the file: wait for locks, and take
    # the write lock at BEGIN so a select_for_update-style transaction cannot deadlock on upgrade.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# A read replica (optional, PostgreSQL streaming replication): only the pages that can stand a
# second of lag read from it (config/replica.py says which and why); the rest of the site, and
# every write, use the primary. In tests the replica is the primary's test database (MIRROR).
if env.str("DATABASE_REPLICA_URL", default=""):
    DATABASES["replica"] = env.db("DATABASE_REPLICA_URL")
    DATABASES["replica"]["CONN_MAX_AGE"] = DATABASES["default"]["CONN_MAX_AGE"]
    DATABASES["replica"]["CONN_HEALTH_CHECKS"] = DATABASES["default"]["CONN_HEALTH_CHECKS"]
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
DATABASE_ROUTERS = ["config.replica.ReplicaRouter"]
# Limits on each PostgreSQL statement (milliseconds; 0 = none): a statement running longer is
# cancelled, a lock waited for longer is given up, and the request answers 503 with Retry-After,
# nothing changed (config/unavailable.py: the error is an OperationalError). Set for the web
# processes by deploy/gunicorn.conf.py below its worker timeout (GUNICORN_TIMEOUT), so a request
# stuck on the database fails with a clean answer before gunicorn kills its worker mid-request
# (nginx then answers 502, or sends a POST again to the other host). Workers and commands have
# none: a migration or a sweep may take long.
DATABASE_STATEMENT_TIMEOUT_MS = env.int("DATABASE_STATEMENT_TIMEOUT_MS", default=0)
DATABASE_LOCK_TIMEOUT_MS = env.int("DATABASE_LOCK_TIMEOUT_MS", default=0)


def statement_limits(statement_ms: int, lock_ms: int) -> str:
    """libpq's ``options`` for the limits (empty when there are none)."""
    parts = [f"-c statement_timeout={statement_ms}" if statement_ms > 0 else ""]
    parts.append(f"-c lock_timeout={lock_ms}" if lock_ms > 0 else "")
    return " ".join(p for p in parts if p)


_limits = statement_limits(DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_LOCK_TIMEOUT_MS)
if _limits:
    for _db in DATABASES.values():
        if _db["ENGINE"].endswith("postgresql"):
            _options = _db.setdefault("OPTIONS", {})
            _options["options"] = f"{_options.get('options', '')} {_limits}".strip()
# The most the public lists may lag the primary: beyond, they read the primary; and a user who
# wrote reads the primary for this long (read-your-writes, config/replica.py).
REPLICA_MAX_LAG_SECONDS = env.float("REPLICA_MAX_LAG_SECONDS", default=10.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
# Redis restarted or unreachable: an empty cache for that while, not 500s (config/cache.py).
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "config.cache.ResilientRedisCache"

# The client's address (accounts/addresses.py), for every count per client (API throttles,
# failed logins, open event streams): X-Forwarded-For is believed only as far as our own
# proxies wrote it. 0 (the embedded set-up: clients connect directly) ignores the header.
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXIES

# Passwords are hashed with Argon2id (argon2-cffi; accounts/hashers.py says why and with what):
# a log-in cost 0.3-0.45 s of CPU with Django's PBKDF2 default. A password hashed before is still
# accepted and re-hashed at its owner's next log-in (Django does that for a hash made by any
# hasher listed after the first, or by the first with other parameters).
PASSWORD_HASHERS = [
    # (Also checks a hash made with Django's Argon2 parameters: the parameters are in the hash.)
    "accounts.hashers.Argon2idHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
# Account emails in the recipient's profile language, with the game emails' subject prefix.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"

# allauth: log in by username or email. With DEBUG, verification mails are sent but not required
# to play; in production (DEBUG off) an address must be confirmed, which is what lets sign-up
# answer alike for a registered and a new address (allauth's enumeration prevention: the holder
# of a registered address gets an email, the page says "confirmation sent" either way).
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.str(
    "ACCOUNT_EMAIL_VERIFICATION", default="optional" if DEBUG else "mandatory"
)
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_GET = False
# Adding or changing an email address, creating or revoking an API token, adding a webhook,
# making a calendar address and the bot account upgrade ask for the password again unless it was
# given on the re-authentication page in the last few minutes (allauth, accounts.reauth; a session
# from an email link never was); the password change form asks for the old one.
ACCOUNT_REAUTHENTICATION_REQUIRED = True
# Tell the user by email when their email address or password changes (the old address too).
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SITE_URL.startswith("https") else "http"
# Failed logins lock a name out for 5 minutes after 5 failures, counted per (name, client
# address): a stranger's guesses never lock the owner out (accounts.adapter). Counted per
# account too: past LOGIN_GUESS_ALERT_AFTER failures from anywhere in LOGIN_GUESS_WINDOW_SECONDS,
# the owner gets one email for the window.
LOGIN_GUESS_ALERT_AFTER = env.int("LOGIN_GUESS_ALERT_AFTER", default=10)
LOGIN_GUESS_WINDOW_SECONDS = env.int("LOGIN_GUESS_WINDOW_SECONDS", default=3600)
# Invitations by username (each one an email to the guest): at most this many sent by a player,
# and received by a player, per hour (games.services.lobby.game_invite).
INVITATIONS_SENT_PER_HOUR = env.int("INVITATIONS_SENT_PER_HOUR", default=20)
INVITATIONS_RECEIVED_PER_HOUR = env.int("INVITATIONS_RECEIVED_PER_HOUR", default=5)
# Practice games one player may start in an hour (games.services.practice.practice_limit):
# beyond, 429 throttled.
PRACTICE_GAMES_PER_HOUR = env.int("PRACTICE_GAMES_PER_HOUR", default=30)

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# collectstatic writes here (STATIC_ROOT; default staticfiles/ in the project).
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATIC_ROOT.mkdir(exist_ok=True)  # collectstatic fills it; whitenoise warns when it is missing
STATICFILES_DIRS = [p for p in [BASE_DIR / "static"] if p.exists()]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Email: files in var/mail/ by default (one .log file per message batch; /dev/mailbox/ shows them).
EMAIL_DIR = VAR_DIR / "mail"
EMAIL_DIR.mkdir(exist_ok=True)
vars().update(env.email_url("EMAIL_URL", default=f"filemail://{EMAIL_DIR}"))
_EMAIL_URL = os.environ.get("EMAIL_URL", "")
if not _EMAIL_URL or _EMAIL_URL.startswith("filemail:"):
    # django-environ reads filemail:///abs/path as the relative "abs/path" (and drops the first
    # part of filemail://var/mail): the folder is named here. filemail:///abs/path is that
    # absolute folder, filemail://var/mail is var/mail in the project, none is var/mail.
    _rest = _EMAIL_URL.removeprefix("filemail:").removeprefix("//")
    EMAIL_FILE_PATH = str(EMAIL_DIR if not _rest else BASE_DIR / _rest)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Power Grid <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
INBOUND_EMAIL_DOMAIN = env.str("INBOUND_EMAIL_DOMAIN", default="reply.localhost")
INBOUND_MAILGUN_SIGNING_KEY = env.str("INBOUND_MAILGUN_SIGNING_KEY", default="")
# The inbound mail service (manage.py lmtp_server, games/inbox/lmtp.py): where it listens, the
# largest message it takes (552 above), and how old a stored message's lost task must be before
# the sweep handles it.
LMTP_HOST = env.str("LMTP_HOST", default="127.0.0.1")
LMTP_PORT = env.int("LMTP_PORT", default=8024)
LMTP_HOSTNAME = env.str("LMTP_HOSTNAME", default="localhost")
INBOUND_MAX_BYTES = env.int("INBOUND_MAX_BYTES", default=10 * 1024 * 1024)
INBOUND_SWEEP_AFTER_SECONDS = env.float("INBOUND_SWEEP_AFTER_SECONDS", default=60.0)
# Refused replies answered per seat an hour (games.inbox.receive._refuse): past it a refused
# reply is logged, not answered, so a mail loop with an auto-responder that does not say it is
# one stops on our side.
INBOUND_REFUSALS_ANSWERED_PER_HOUR = env.int("INBOUND_REFUSALS_ANSWERED_PER_HOUR", default=5)
# The authserv-id of the Authentication-Results our inbound MTA's DMARC milter adds
# (games.inbox.authres): its dmarc=fail refuses a reply. Empty: not read (no milter).
INBOUND_AUTHSERV_ID = env.str("INBOUND_AUTHSERV_ID", default="")
ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": INBOUND_MAILGUN_SIGNING_KEY or "unset"}

# Emails that do not arrive (games/mailevents, accounts/deliverability; deploy/OPERATIONS.md,
# "Bounces and complaints"). A hard bounce, a refusal or a complaint marks the address
# undeliverable at once, soft bounces once MAIL_SOFT_BOUNCE_LIMIT of them came within
# MAIL_SOFT_BOUNCE_DAYS; a seat whose player's address is undeliverable, and who has not been on
# the site since, gets MAIL_UNDELIVERABLE_GRACE_HOURS more before each deadline's default move.
MAIL_SOFT_BOUNCE_LIMIT = env.int("MAIL_SOFT_BOUNCE_LIMIT", default=3)
MAIL_SOFT_BOUNCE_DAYS = env.int("MAIL_SOFT_BOUNCE_DAYS", default=7)
MAIL_UNDELIVERABLE_GRACE_HOURS = env.int("MAIL_UNDELIVERABLE_GRACE_HOURS", default=72)
# /health/ and the admin flag the last day's rates above these (Amazon SES reviews a sender at 5 %
# bounces, mailbox providers act on 0.1 % spam complaints); below MAIL_RATES_MIN_SENT emails a
# day the rates are shown but not flagged (one bounce among ten emails says little).
MAIL_BOUNCE_RATE_MAX = env.float("MAIL_BOUNCE_RATE_MAX", default=0.05)
MAIL_COMPLAINT_RATE_MAX = env.float("MAIL_COMPLAINT_RATE_MAX", default=0.001)
MAIL_RATES_MIN_SENT = env.int("MAIL_RATES_MIN_SENT", default=20)
# SMTP sending: each email's envelope sender (Return-Path) is bounce+<signed token>@ this domain,
# whose mail reaches receive_mail like replies do (empty: no bounce address; a provider's
# webhook reports bounces instead).
BOUNCE_EMAIL_DOMAIN = env.str("BOUNCE_EMAIL_DOMAIN", default=INBOUND_EMAIL_DOMAIN)
# The providers' tracking webhooks (/mail/events/<provider>/), each on only when its secret is
# set: MAIL_WEBHOOK_SECRET ("user:password", in the webhook's URL) for Postmark, Brevo and
# Amazon SES (whose SNS messages are also checked against Amazon's signature); Mailgun's
# signing key; SendGrid's signed event webhook public key.
MAIL_WEBHOOK_SECRET = env.str("MAIL_WEBHOOK_SECRET", default="")
MAILGUN_WEBHOOK_SIGNING_KEY = env.str(
    "MAILGUN_WEBHOOK_SIGNING_KEY", default=INBOUND_MAILGUN_SIGNING_KEY
)
SENDGRID_WEBHOOK_VERIFICATION_KEY = env.str("SENDGRID_WEBHOOK_VERIFICATION_KEY", default="")
# Amazon SES: the SNS topics whose messages are taken (empty: any topic signed by Amazon).
AMAZON_SES_TOPIC_ARNS = env.list("AMAZON_SES_TOPIC_ARNS", default=[])

# Celery: embedded SQLite broker by default, Redis in production. Beat runs inside the worker (-B).
CELERY_BROKER_URL = env.str(
    "CELERY_BROKER_URL", default=f"sqla+sqlite:///{VAR_DIR / 'celery.sqlite3'}"
)
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=None) or None
# A Redis broker's transport that lets a worker ride through a broker restart (config/broker.py).
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_TASK_IGNORE_RESULT = CELERY_RESULT_BACKEND is None
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Keep a worker's database connection between tasks: opening one costs PostgreSQL and the worker
# more CPU (8-16 ms) than sending an email. config/celery.py drops a broken or old one before each
# task, as Django does before each request.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000) or None
# Periodic work (games/tasks.py): each job is safe to run twice at once (claims, SKIP LOCKED).
# SWEEP_EVERY_SECONDS (a test setting only: scripts/season, where a turn lasts seconds) runs the
# deadline, outbox and reminder sweeps that often instead.
_SWEEP_EVERY = env.float("SWEEP_EVERY_SECONDS", default=0.0)
CELERY_BEAT_SCHEDULE: dict = {
    "deadlines-sweep": {"task": "games.tasks.deadlines_sweep", "schedule": _SWEEP_EVERY or 30.0},
    "outbox-sweep": {"task": "games.tasks.outbox_sweep", "schedule": _SWEEP_EVERY or 60.0},
    "reminders-queue": {"task": "games.tasks.reminders_queue", "schedule": _SWEEP_EVERY or 60.0},
    "digests-queue": {"task": "games.tasks.digests_queue", "schedule": 900.0},
    "webhooks-sweep": {"task": "games.tasks.webhooks_sweep", "schedule": 30.0},
    "push-sweep": {"task": "games.tasks.push_sweep", "schedule": _SWEEP_EVERY or 60.0},
    "open-games-sweep": {"task": "games.tasks.open_games_sweep", "schedule": 3600.0},
    "inbound-sweep": {"task": "games.tasks.inbound_sweep", "schedule": _SWEEP_EVERY or 30.0},
    # Practice games are deleted 30 days after they were made (games/services/practice.py).
    "practice-purge": {"task": "games.tasks.practice_purge", "schedule": 3600.0},
    # Tournaments whose sign-up deadline passed start; finished tables the hook missed count.
    "tournaments-sweep": {"task": "tournaments.tasks.tournaments_sweep", "schedule": 60.0},
}
# Webhooks (games/webhooks/): post timeout, first retry delay (doubling, at most an hour), the
# failures in a row that turn a webhook off, the claim lease; WEBHOOK_ALLOW_PRIVATE lets them
# call http:// and private addresses (development and tests only: never in production).
# In-game chat: messages a player may post per minute, minutes a message stays editable.
CHAT_RATE = env.int("CHAT_RATE", default=10)
CHAT_EDIT_MINUTES = env.int("CHAT_EDIT_MINUTES", default=10)
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=5.0)
WEBHOOK_RETRY_SECONDS = env.int("WEBHOOK_RETRY_SECONDS", default=30)
WEBHOOK_DISABLE_AFTER = env.int("WEBHOOK_DISABLE_AFTER", default=8)
WEBHOOK_LEASE_SECONDS = env.int("WEBHOOK_LEASE_SECONDS", default=120)
WEBHOOK_ALLOW_PRIVATE = env.bool("WEBHOOK_ALLOW_PRIVATE", default=False)
# The ports a webhook's address may name (comma-separated; 443 and 80 by default): another port of
# a public address is another service (mail, a database, an admin console). Not checked with
# WEBHOOK_ALLOW_PRIVATE (a development receiver listens on any port).
WEBHOOK_PORTS = [int(p) for p in env.list("WEBHOOK_PORTS", default=["443", "80"])]
# Notifications (games/notifications/): a `sending` claim older than the lease is taken over;
# a failed send is retried after NOTIFY_RETRY_AFTER_SECONDS, the wait doubling with each attempt up
# to NOTIFY_RETRY_MAX_SECONDS (8 attempts span ~2 hours of an SMTP outage); links in emails
# expire after NOTIFY_LINK_MAX_AGE_DAYS; digests go out after NOTIFY_DIGEST_HOUR local time.
# The deadline sweep: a sweep that finds a full chunk of due games starts a helper on another
# worker, up to DEADLINE_SWEEP_PARALLEL sweeps at once (games/deadlines/sweep.py).
DEADLINE_SWEEP_PARALLEL = env.int("DEADLINE_SWEEP_PARALLEL", default=2)
# Games per sweep transaction: 200 by default (games/deadlines/sweep.py sweep_chunk).
DEADLINE_SWEEP_CHUNK = env.int("DEADLINE_SWEEP_CHUNK", default=200)
# How many seconds an hour of turn time lasts: 3600. A TEST SETTING ONLY (scripts/season plays a
# season in minutes with turns of seconds); production never sets it.
TURN_HOUR_SECONDS = env.float("TURN_HOUR_SECONDS", default=3600.0)
# The search bot levels' budget per decision, as a factor (games/deadlines/sweep.py).
BOT_BUDGET_SCALE = env.float("BOT_BUDGET_SCALE", default=1.0)
# How long a page view or an unread turn email holds the next turn email (games/notifications/
# pace.py): 5 minutes. The live tests, prod_smoke and the season, whose simulated players answer
# in seconds without reading anything, set 0 (no hold), a test setting.
TURN_EMAIL_HOLD_SECONDS = env.int("TURN_EMAIL_HOLD_SECONDS", default=300)
NOTIFY_SENDING_LEASE_SECONDS = env.int("NOTIFY_SENDING_LEASE_SECONDS", default=300)
NOTIFY_RETRY_AFTER_SECONDS = env.int("NOTIFY_RETRY_AFTER_SECONDS", default=60)
NOTIFY_RETRY_MAX_SECONDS = env.int("NOTIFY_RETRY_MAX_SECONDS", default=3600)
NOTIFY_LINK_MAX_AGE_DAYS = env.int("NOTIFY_LINK_MAX_AGE_DAYS", default=14)
# ...but a link logs its recipient in (once, after a click on a button) only this soon after.
NOTIFY_LINK_LOGIN_MAX_AGE_HOURS = env.int("NOTIFY_LINK_LOGIN_MAX_AGE_HOURS", default=48)
# The notification settings link (and List-Unsubscribe) of an email works this long, and until
# the recipient's password changes (games/notifications/links.py).
NOTIFY_SETTINGS_LINK_MAX_AGE_DAYS = env.int("NOTIFY_SETTINGS_LINK_MAX_AGE_DAYS", default=60)
NOTIFY_DIGEST_HOUR = env.int("NOTIFY_DIGEST_HOUR", default=8)
# /health/ fails when the oldest email waiting to be sent, or the deadline sweep's last run, is
# older than this (games/health.py).
HEALTH_OUTBOX_MAX_AGE_SECONDS = env.int("HEALTH_OUTBOX_MAX_AGE_SECONDS", default=600)
HEALTH_SWEEP_MAX_AGE_SECONDS = env.int("HEALTH_SWEEP_MAX_AGE_SECONDS", default=300)
# ...and when the read replica (if any) is further behind the primary than this.
HEALTH_REPLICA_MAX_LAG_SECONDS = env.int("HEALTH_REPLICA_MAX_LAG_SECONDS", default=30)
# Sending in batches (games/notifications/sending.py): rows claimed per batch, how often the sent
# ones are marked, and whether the SMTP writes run on a thread of their own beside the claiming.
NOTIFY_BATCH_SIZE = env.int("NOTIFY_BATCH_SIZE", default=100)
NOTIFY_MARK_EVERY = env.int("NOTIFY_MARK_EVERY", default=20)
NOTIFY_SEND_THREAD = env.bool("NOTIFY_SEND_THREAD", default=True)
# The delivery journal (games/restore/journal.py): each email the SMTP server accepted, a line in
# <DELIVERY_JOURNAL_DIR>/delivered-<host>.jsonl, OUTSIDE the database, so that after a restore
# `manage.py after_restore` knows what players were told. Empty: no journal. Synced to disk
# after each line unless DELIVERY_JOURNAL_SYNC is off.
DELIVERY_JOURNAL_DIR = env.str("DELIVERY_JOURNAL_DIR", default="")
DELIVERY_JOURNAL_SYNC = env.bool("DELIVERY_JOURNAL_SYNC", default=True)
# Seconds an SMTP connection waits (None: a third of the sending lease, at most 30).
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=0) or None
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Web Push (games/push/, accounts/push.py): the VAPID key pair is made ONCE (manage.py vapid_keys)
# and kept: WEBPUSH_VAPID_PRIVATE_KEY (base64url, as the command prints it), else the PEM file
# WEBPUSH_VAPID_KEY_FILE (var/vapid_private.pem, `manage.py vapid_keys --write`). A new key
# orphans every device's subscription, so no deploy step makes one. No key: Web Push is off.
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_KEY_FILE = env.str(
    "WEBPUSH_VAPID_KEY_FILE", default=str(VAR_DIR / "vapid_private.pem")
)
# The contact push services may write to about our messages (RFC 8292's "sub").
WEBPUSH_VAPID_SUBJECT = env.str("WEBPUSH_VAPID_SUBJECT", default="")
# Hosts (and their subdomains) a subscription's endpoint may name: the browsers' push services.
WEBPUSH_SERVICE_HOSTS = env.list(
    "WEBPUSH_SERVICE_HOSTS",
    default=[
        "fcm.googleapis.com",
        "android.googleapis.com",
        "updates.push.services.mozilla.com",
        "push.services.mozilla.com",
        "push.apple.com",
        "notify.windows.com",
    ],
)
# Tests and development only: any http(s) endpoint (a local push service). Never in production.
WEBPUSH_ALLOW_ANY_ENDPOINT = env.bool("WEBPUSH_ALLOW_ANY_ENDPOINT", default=False)
WEBPUSH_TIMEOUT_SECONDS = env.float("WEBPUSH_TIMEOUT_SECONDS", default=10.0)
# How long a push service keeps a notice for a device that is offline (a turn lasts a day).
WEBPUSH_TTL_SECONDS = env.int("WEBPUSH_TTL_SECONDS", default=86400)
# Open games that never fill (games/services/open_sweep.py): the creator is warned after
# OPEN_GAME_WARN_DAYS, the game closed after OPEN_GAME_CLOSE_DAYS (counted from its creation;
# at least a day after the warning, whatever the settings say).
OPEN_GAME_WARN_DAYS = env.int("OPEN_GAME_WARN_DAYS", default=14)
OPEN_GAME_CLOSE_DAYS = env.int("OPEN_GAME_CLOSE_DAYS", default=21)
# The event stream (games/stream/): Redis publish/subscribe wakes the streams when a game moves.
STREAM_REDIS_URL = env.str("STREAM_REDIS_URL", default="")
# Without Redis (the embedded set-up): how often a stream re-reads its games.
STREAM_FALLBACK_SECONDS = env.float("STREAM_FALLBACK_SECONDS", default=2.0)
# A comment line is sent this often so proxies keep the connection and a gone client is noticed.
STREAM_KEEPALIVE_SECONDS = env.float("STREAM_KEEPALIVE_SECONDS", default=20.0)
# How long the stream's event log keeps an event: a client away longer than this resumes with a
# ``resync`` event (read the state again) instead of the events it missed.
STREAM_REPLAY_SECONDS = env.float("STREAM_REPLAY_SECONDS", default=86400.0)
# Streams open at once in one process, per account and per client address (a watcher without an
# account counts against its address only): beyond, 429 throttled (games/stream/views.py).
STREAM_MAX_PER_USER = env.int("STREAM_MAX_PER_USER", default=5)
STREAM_MAX_PER_ADDRESS = env.int("STREAM_MAX_PER_ADDRESS", default=20)

# REST framework
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # orjson: same JSON as DRF's renderer and parser, faster (games/api/renderers.py).
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.ORJSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_PARSER_CLASSES": ["games.api.renderers.ORJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "games.api.throttles.AnonThrottle",
        "games.api.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="60/min"),
        "user": env.str("API_THROTTLE_USER", default="600/min"),
        "token_create": env.str("API_THROTTLE_TOKEN_CREATE", default="10/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # The throttles read the client's address from accounts.addresses (TRUSTED_PROXIES); this
    # keeps DRF's own reading the same, should anything else use it.
    "NUM_PROXIES": TRUSTED_PROXIES,
}
REST_KNOX = {
    "TOKEN_TTL": None,  # personal API tokens live until revoked on the tokens page
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
    "TOKEN_LIMIT_PER_USER": 20,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Power Grid turn server API",
    "DESCRIPTION": (
        "Play Power Grid asynchronously. Authenticate with `Authorization: Bearer <token>` "
        "(`Token <token>` works too; create one with `POST /api/v1/auth/token/` or on the "
        "account's API tokens page) or a browser session. Every answer is exactly the component "
        "named here: objects are closed, required keys always present. Every error has the body "
        '`{"error": {"code": ..., "message": ..., "details": {...}}}`.'
    ),
    "VERSION": "1.0.0",
    # ``<id:...>`` (games.numbers.IdConverter): an id in a path is 1 to 2^63 - 1 (a longer one
    # matches no URL: 404).
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1, "format": "int64"}
    },
    # OpenAPI 3.1: its schemas are JSON Schema 2020-12, so a null is written as a type
    # (`"type": ["integer", "null"]`, `{"oneOf": [{"$ref": ...}, {"type": "null"}]}`) and any
    # JSON Schema validator checks a response exactly (3.0's `nullable` beside a `$ref` was
    # ignored by strict validators).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs pages work offline and under a strict Content-Security-Policy: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    "COMPONENT_SPLIT_REQUEST": True,
    # Two fields named plant_deck hold different choices (a game's option, and the state's,
    # present only for a New Power Plants deck): each choice set named once. Not "PlantDeckEnum":
    # openapi-generator's TypeScript names the inline enum of Plant.deck so, and the two clashed.
    "ENUM_NAME_OVERRIDES": {
        "PlantDeckChoice": ["base", "new", "mixed"],
        "NewPlantDeckEnum": ["new", "mixed"],
        # The bot levels (powergrid.levels.LEVEL_NAMES), wherever one is chosen or shown.
        "BotLevelEnum": ["beginner", "heuristic", "advanced", "expert"],
        # A game's status: the game's and the profile's games' (one name for both).
        "GameStatusEnum": ["open", "running", "finished"],
    },
    # The event stream is a plain async Django view: its entry is written by a hook.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.stream.schema.stream_path",
        "games.api.openapi.common_responses",
        "games.api.openapi.read_only_keys_in_requests",
        "games.api.openapi.closed_request_bodies",
        # Last: the schema as the JSON served (a datetime of an example in ISO 8601 with Z).
        "games.api.openapi.as_served_json",
    ],
}

BENCH_ENDPOINTS = env.bool("BENCH_ENDPOINTS", default=False)

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "filters": {"periodic_at_debug": {"()": "config.logfilters.PeriodicAtDebug"}},
    "loggers": {
        "django.request": {"level": "ERROR"},
        "django.db.backends": {"level": "INFO"},
    },
}
if env.bool("QUIET_PERIODIC_TASK_LOGS", default=False):
    # `make run`'s terminal (manage.py devserver sets this for the worker it starts): the worker's
    # lines about periodic tasks count as DEBUG (config/logfilters.py), so they do not scroll the
    # banner away every 30 seconds. Only there: keyed on DEBUG, it also hid every deadline sweep
    # from the live tests' workers (which run with DEBUG) and from anyone reading a worker's log,
    # helper sweeps started by a burst included.
    for _name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
        LOGGING["loggers"][_name] = {"filters": ["periodic_at_debug"]}

# Browsers may use none of these on our pages (config.middleware.PermissionsPolicyMiddleware).
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
SECURE_REFERRER_POLICY = "same-origin"
# Content-Security-Policy (django-csp), in every configuration so the browser tests run under it:
# scripts and styles only from our own static files, no inline code, no other origin. A template
# that must inline something uses {{ request.csp_nonce }}: the nonce is then added to the header
# of that response only. The API docs pages relax it per view (config/csp.py). Browsers post
# violations to /csp-report/, which logs them (logger "csp").
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "report-uri": ["/csp-report/"],
    },
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    # A site served over HTTPS (SITE_URL https://...) redirects plain HTTP and tells browsers to
    # use HTTPS only (HSTS, a year); the load balancer's health checks may stay on HTTP.
    _HTTPS = SITE_URL.startswith("https://")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=_HTTPS)
    SECURE_REDIRECT_EXEMPT = [r"^health/"]
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if _HTTPS else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_HTTPS)
    # The header only allows a submission to the browsers' preload list; nothing submits it.
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=_HTTPS)
