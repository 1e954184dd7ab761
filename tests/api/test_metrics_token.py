"""The `/metrics` policy: open by default (the proxy and the ingress keep it inside), and with
ATOUT_METRICS_TOKEN set, only for the scraper that sends that token."""

from __future__ import annotations

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from infra.settings import load_settings
from services.http.app import create_app
from infra.ratelimit import RateLimit

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture
async def guarded(api_settings):
    settings = msgspec.structs.replace(api_settings, metrics_token="scrape-me")
    async with AsyncTestClient(app=create_app(settings, rate_limit=RateLimit(requests=0))) as client:
        yield client


async def test_with_a_token_set_only_that_bearer_scrapes(guarded) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic scrape-me"}):
        answer = await guarded.get("/metrics", headers=headers)
        assert answer.status_code == 401, headers
        assert answer.json()["code"] == "unauthorized" and answer.headers["www-authenticate"] == "Bearer"
    answer = await guarded.get("/metrics", headers={"Authorization": "Bearer scrape-me"})
    assert answer.status_code == 200 and "atout_actions_total" in answer.text


async def test_without_a_token_metrics_are_open(client) -> None:
    assert (await client.get("/metrics")).status_code == 200


def test_the_setting_is_read() -> None:
    assert load_settings({}).metrics_token is None
    assert load_settings({"ATOUT_METRICS_TOKEN": " s3cret "}).metrics_token == "s3cret"
