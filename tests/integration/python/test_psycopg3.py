"""psycopg 3 (extended protocol, server-side parameters, binary dumps) against a running lakegate demo.

Run by tests/integration/psycopg3.test.ts with LAKEGATE_HOST / LAKEGATE_PORT set. Expected values
are written here (the demo's rows as `lakegate demo` writes them), never taken from lakegate's output;
each assertion also holds against PostgreSQL holding the same rows (scripts/pg-demo.sh).
"""

import datetime
import os
from decimal import Decimal

import psycopg
import pytest
from psycopg.types import TypeInfo

HOST = os.environ.get("LAKEGATE_HOST", "127.0.0.1")
PORT = int(os.environ["LAKEGATE_PORT"])
NUMERIC_OID = 1700


def connect(user="alice", **kw):
    return psycopg.connect(host=HOST, port=PORT, user=user, password=user, dbname="demo", connect_timeout=10, **kw)


@pytest.fixture
def conn():
    with connect(autocommit=True) as c:
        yield c


def test_connect_info(conn):
    assert conn.info.vendor == "PostgreSQL"
    assert conn.info.server_version >= 150000
    assert conn.execute("select current_user").fetchone() == ("alice",)


def test_date_parameter(conn):
    d = datetime.date(2024, 2, 29)
    assert conn.execute("select %s", [d]).fetchone() == (d,)
    assert conn.execute("select %s + 1", [d]).fetchone() == (datetime.date(2024, 3, 1),)


def test_timestamptz_parameter(conn):
    ts = datetime.datetime(2024, 1, 1, 10, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    (got,) = conn.execute("select %s", [ts]).fetchone()
    assert got == ts


def test_any_with_list(conn):
    assert conn.execute("select id from sales.orders where id = any(%s) order by id", [[2, 3]]).fetchall() == [(2,)]
    assert conn.execute("select id from sales.orders where id = any(%s) order by id", [[1, 2]]).fetchall() == [(1,), (2,)]
    assert conn.execute("select id from sales.orders where id <> all(%s) order by id", [[1]]).fetchall() == [(2,)]


def test_list_parameter_comes_back_a_list(conn):
    assert conn.execute("select %s", [[1, 2, 3]]).fetchone() == ([1, 2, 3],)
    assert conn.execute("select %s", [[10**12, -1]]).fetchone() == ([10**12, -1],)
    assert conn.execute("select %s::int4[]", [[4, 5]]).fetchone() == ([4, 5],)


def test_decimal_columns(conn):
    cur = conn.execute("select id, amount from sales.orders order by id")
    assert cur.description[1].type_code == NUMERIC_OID
    assert cur.fetchall() == [(1, Decimal("100.00")), (2, Decimal("250.50"))]
    assert all(type(a) is Decimal for _, a in conn.execute("select id, amount from sales.orders").fetchall())


def test_decimal_parameter_stays_decimal(conn):
    for value in (Decimal("1.50"), Decimal("-12345678901234.5678"), Decimal("0.001")):
        cur = conn.execute("select %s", [value])
        assert cur.description[0].type_code == NUMERIC_OID
        (got,) = cur.fetchone()
        assert type(got) is Decimal and got == value and str(got) == str(value)
    assert conn.execute("select %s + 1", [Decimal("0.25")]).fetchone() == (Decimal("1.25"),)


def test_binary_cursor(conn):
    with conn.cursor(binary=True) as cur:
        cur.execute("select id, amount, region from sales.orders order by id")
        assert cur.fetchall() == [(1, Decimal("100.00"), "EU"), (2, Decimal("250.50"), "US")]


def test_typeinfo_fetch(conn):
    int4 = TypeInfo.fetch(conn, "int4")
    assert (int4.name, int4.oid, int4.array_oid) == ("int4", 23, 1007)
    numeric = TypeInfo.fetch(conn, "numeric")
    assert (numeric.oid, numeric.array_oid) == (1700, 1231)
    text = TypeInfo.fetch(conn, "pg_catalog.text")
    assert (text.oid, text.array_oid) == (25, 1009)
    assert TypeInfo.fetch(conn, "hstore") is None


def test_to_regtype(conn):
    assert conn.execute("select to_regtype('integer') = 23, to_regtype('int8[]') = 1016, to_regtype('nosuchtype')").fetchone() == (
        True,
        True,
        None,
    )


def test_transaction_and_error_recovery():
    with connect() as c:
        with pytest.raises(psycopg.errors.UndefinedTable):
            c.execute("select * from sales.nosuchtable")
        c.rollback()
        assert c.execute("select count(*) from sales.orders").fetchone() == (2,)


def test_denied_table_like_missing():
    # control: alice reads the table; dave may not load it and gets what a missing table gets
    with connect("alice", autocommit=True) as c:
        assert c.execute("select count(*) from sales.orders").fetchone() == (2,)
    with connect("dave", autocommit=True) as c:
        with pytest.raises(psycopg.errors.UndefinedTable) as denied:
            c.execute("select count(*) from sales.orders")
        with pytest.raises(psycopg.errors.UndefinedTable) as missing:
            c.execute("select count(*) from sales.nosuchtable")
    assert str(denied.value).replace("orders", "X") == str(missing.value).replace("nosuchtable", "X")
