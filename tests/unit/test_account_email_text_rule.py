"""An address holding NUL or another forbidden control character is not an address: `normalise_email` refuses
it with the text rule, so every door that signs up or looks up an address (website, CLI, commands) does."""

from __future__ import annotations

import pytest

from aggregates import account
from events.errors import InvalidInput
from events.text import RULE


@pytest.mark.parametrize("raw", ["nul\x00x@example.org", "a\x1b@example.org", "ada@exa\x07mple.org", "\ud800@x.org"])
def test_control_characters_in_an_address_break_the_text_rule(raw: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        account.normalise_email(raw)
    [problem] = refused.value.problems
    assert (problem.field, problem.rule) == ("email", RULE)
