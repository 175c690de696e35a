"""A query written once is rendered for each backend (``bot.storage.sql``); the storage tests run every rendered
query on both databases, these pin the rendering itself."""

from __future__ import annotations

from bot.storage.dialect import POSTGRESQL, SQLITE
from bot.storage.sql import any_of, bind

SHOWN = (
    "UPDATE sessions SET deadlines = CASE WHEN :deadlines::jsonb IS NOT NULL AND version = :version "
    "THEN :deadlines::jsonb ELSE deadlines END, drawn = :drawn::bigint WHERE id = :id"
)


def test_named_parameters_are_numbered_for_postgresql_once_each_in_order_of_first_use() -> None:
    text, params = bind(POSTGRESQL, SHOWN, (), {"id": 5, "drawn": 3, "version": 2, "deadlines": "[]", "unused": 1})
    assert text == (
        "UPDATE sessions SET deadlines = CASE WHEN $1::jsonb IS NOT NULL AND version = $2 "
        "THEN $1::jsonb ELSE deadlines END, drawn = $3::bigint WHERE id = $4"
    )
    assert params == ["[]", 2, 3, 5]


def test_sqlite_keeps_the_names_and_drops_postgresqls_casts() -> None:
    named = {"id": 5, "drawn": 3, "version": 2, "deadlines": "[]"}
    text, params = bind(SQLITE, SHOWN, (), named)
    assert text == (
        "UPDATE sessions SET deadlines = CASE WHEN :deadlines IS NOT NULL AND version = :version "
        "THEN :deadlines ELSE deadlines END, drawn = :drawn WHERE id = :id"
    )
    assert params == named


def test_question_marks_are_numbered_in_order_for_postgresql_and_kept_for_sqlite() -> None:
    sql = "SELECT 1 FROM saved_rolls WHERE scope = ? AND owner_id = ? AND name_key = ?"
    assert bind(POSTGRESQL, sql, ("member", 7, "x"), {}) == (
        "SELECT 1 FROM saved_rolls WHERE scope = $1 AND owner_id = $2 AND name_key = $3",
        ["member", 7, "x"],
    )
    assert bind(SQLITE, sql, ("member", 7, "x"), {}) == (sql, ("member", 7, "x"))


def test_a_named_statement_keeps_postgresqls_question_mark_operator() -> None:
    sql = "SELECT guild_id FROM guild_settings g WHERE g.data ? 'keep_logs_days' AND g.guild_id > :after"
    assert bind(POSTGRESQL, sql, (), {"after": 1})[0].endswith("g.data ? 'keep_logs_days' AND g.guild_id > $1")


def test_one_of_several_values_is_a_list_in_sqlite_and_an_array_in_postgresql() -> None:
    assert any_of(SQLITE, "id", "ids", [4, 9], "bigint") == ("id IN (:ids_0, :ids_1)", {"ids_0": 4, "ids_1": 9})
    assert any_of(POSTGRESQL, "id", "ids", [4, 9], "bigint") == ("id = ANY(:ids::bigint[])", {"ids": [4, 9]})
