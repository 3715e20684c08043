"""The generated client, set up for one server: its URL, the bearer token and when a request is sent again."""

from __future__ import annotations

from urllib3.util.retry import Retry

from trainyard_cli.config import Settings
from trainyard_client import ApiClient, Configuration

ATTEMPTS = 5
"""Tries of one request in all while the connection is refused or dropped (0, 0.5, 1 and 2 s apart)."""
BACKOFF_SECONDS = 0.25


def open_client(settings: Settings, *, resend_posts: bool = False) -> ApiClient:
    """A client of the server. A request whose connection could not be made is always tried again (the server
    never saw it). One whose answer was lost, or that was answered 429/503 (rate limit, database away), is sent
    again only when that is safe: reads, and with `resend_posts` the POSTs of the caller — a submission, which
    carries an Idempotency-Key, so the server answers a resent one with the job the first one made."""
    configuration = Configuration(host=settings.url, access_token=settings.token)
    methods = set(Retry.DEFAULT_ALLOWED_METHODS) | ({"POST"} if resend_posts else set())
    configuration.retries = Retry(
        total=ATTEMPTS - 1,
        connect=ATTEMPTS - 1,
        read=ATTEMPTS - 1,
        status=ATTEMPTS - 1,
        allowed_methods=frozenset(methods),
        status_forcelist=(429, 503),
        backoff_factor=BACKOFF_SECONDS,
        respect_retry_after_header=True,
        # The last answer, a problem detail, reaches the generated client, which raises it as an ApiException.
        raise_on_status=False,
    )
    return ApiClient(configuration)
