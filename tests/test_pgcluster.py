"""The test cluster's rules (tests/pgcluster.py): skip without PostgreSQL, unless required."""

from __future__ import annotations

import pytest

from tests import pgcluster


def test_missing_postgresql_skips_or_fails_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OMAHA_REQUIRE_POSTGRES", raising=False)
    pgcluster.skip_or_fail(None)  # present: nothing happens
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        pgcluster.skip_or_fail("PostgreSQL's binaries are not installed")
    monkeypatch.setenv("OMAHA_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception, match="OMAHA_REQUIRE_POSTGRES=1 but"):
        pgcluster.skip_or_fail("PostgreSQL's binaries are not installed")


def test_the_binaries_are_found_and_root_runs_them_as_postgres(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = pgcluster.bindir()
    if found is None:
        assert pgcluster.why_unavailable() is not None
        return
    assert (found / "initdb").is_file() and (found / "pg_ctl").is_file()
    monkeypatch.setattr(pgcluster.os, "geteuid", lambda: 0)
    assert pgcluster._as_owner(["initdb"]) == ["runuser", "-u", "postgres", "--", "initdb"]
    monkeypatch.setattr(pgcluster.os, "geteuid", lambda: 1000)
    assert pgcluster._as_owner(["initdb"]) == ["initdb"]
