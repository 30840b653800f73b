"""store.copy: a whole store copied across backends, every key kept, idempotent, never merging two stores."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_store_schema import NOW, add_page

from farm.postgres import PostgresServer
from store import StoreError, open_store
from store.copy import copy_store, table_order
from store.schema import TABLES


def test_tables_are_copied_after_the_tables_they_reference() -> None:
    order = table_order()
    assert sorted(order) == sorted(TABLES) and order[0] == "sites"
    for name in order:
        for _col, other, _other_col in TABLES[name][2]:
            assert order.index(other) < order.index(name), (name, other)


def test_a_copy_keeps_every_row_and_key_and_a_second_copy_adds_nothing(
    tmp_path: Path, pg_server: PostgresServer
) -> None:
    source = open_store(tmp_path / "blogs.db")
    ids = [add_page(source, f"http://h/{i}", f"<p>page {i}</p>".encode(), at=NOW + i) for i in range(3)]
    url = pg_server.new_database()
    with open_store(url) as target:
        first = copy_store(source, target)
        # every row is new in the target but its schema version, which opening it recorded
        assert first.written == {**first.read, "schema_migrations": 0} and first.read["snapshots"] == 3
        again = copy_store(source, target)
        assert sum(again.written.values()) == 0 and again.read == first.read
        assert [r[0] for r in target.db.execute("SELECT id FROM snapshots ORDER BY id").fetchall()] == ids
        # the identity sequence moved past the copied ids: the next page gets a new id
        new = add_page(target, "http://h/new", b"<p>new</p>", at=NOW + 99)  # type: ignore[arg-type]
        assert new == max(ids) + 1
    back = open_store(tmp_path / "back.db")
    with open_store(url, read_only=True) as pg:
        copy_store(pg, back)
    count = "SELECT COUNT(*) FROM [{}]"
    for table in TABLES:  # PostgreSQL back to SQLite: the page added there too, nothing else changed
        extra = 1 if table in ("snapshots", "articles") else 0
        assert (
            back.db.execute(count.format(table)).fetchone()[0]
            == source.db.execute(count.format(table)).fetchone()[0] + extra
        ), table
    sha = "SELECT body_sha256 FROM snapshots WHERE id <= 3 ORDER BY id"
    assert back.db.execute(sha).fetchall() == source.db.execute(sha).fetchall()


def test_a_copy_never_merges_two_stores(tmp_path: Path) -> None:
    one, other = open_store(tmp_path / "one.db"), open_store(tmp_path / "other.db")
    add_page(one, "http://h/a", b"<p>a</p>", at=NOW)
    add_page(other, "http://h/b", b"<p>b</p>", at=NOW)  # the same snapshot id 1, another page
    target = open_store(tmp_path / "target.db")
    copy_store(one, target)
    with pytest.raises(StoreError, match="holds pages of another store"):
        copy_store(other, target)
    assert target.db.execute("SELECT article FROM snapshots").fetchall() == [("http://h/a",)]
