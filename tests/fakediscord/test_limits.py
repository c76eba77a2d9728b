"""The fake Discord refuses an attachment description over 1024 characters (issue 31),
with the same refusal as the in-process offline Discord."""

from __future__ import annotations

from tests.fakediscord.limits import error_tree, message_problems


def test_a_description_over_1024_characters_is_refused() -> None:
    ok = {"content": "x", "attachments": [{"id": 0, "filename": "a.png",
                                            "description": "d" * 1024}]}
    assert message_problems(ok) == []
    long = {"attachments": [{"id": 0, "filename": "a.png", "description": "d"},
                            {"id": 1, "filename": "b.png", "description": "d" * 1025}]}
    problems = message_problems(long)
    assert problems == [("attachments.1.description", "BASE_TYPE_MAX_LENGTH",
                         "Must be 1024 or fewer in length.")]
    assert error_tree(problems) == {"attachments": {"1": {"description": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 1024 or fewer in length."}]}}}}
