"""Property-based fuzzing of the REST API from its own OpenAPI document.

Schemathesis generates valid and invalid inputs for every operation; every
answer must be a documented status, never a 500, and conform to its schema.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)


@pytest.fixture
def api_schema(server):  # type: ignore[no-untyped-def]
    return schemathesis.openapi.from_url(server.url + "/api/v1/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_responses_match_the_document(case) -> None:  # type: ignore[no-untyped-def]
    case.call_and_validate(
        checks=[not_a_server_error, status_code_conformance, response_schema_conformance, negative_data_rejection]
    )
