"""psycopg2 (libpq, simple query protocol, explicit BEGIN/COMMIT) against a running lakegate demo.

Run by tests/integration/psycopg2.test.ts with LAKEGATE_HOST / LAKEGATE_PORT set.
Expected values are written here, never taken from lakegate's output.
"""

import datetime
import os
import threading
import time
import uuid
from decimal import Decimal

import psycopg2
import psycopg2.errors
import psycopg2.extensions
import psycopg2.extras
import pytest

HOST = os.environ.get("LAKEGATE_HOST", "127.0.0.1")
PORT = int(os.environ["LAKEGATE_PORT"])
LONG_QUERY = (
    "SELECT count(*) FROM generate_series(1, 100000) a(a) CROSS JOIN generate_series(1, 100000) b(b) "
    "WHERE (a.a + b.b) % 7 = 3"
)

psycopg2.extras.register_uuid()


def connect(user="alice", password=None, dbname="demo", **kw):
    return psycopg2.connect(
        host=HOST,
        port=PORT,
        user=user,
        password=user if password is None else password,
        dbname=dbname,
        connect_timeout=10,
        sslmode="prefer",
        **kw,
    )


@pytest.fixture
def conn():
    c = connect()
    yield c
    c.close()


def test_login_and_parameter_status(conn):
    assert conn.server_version >= 150000
    assert conn.get_parameter_status("client_encoding") == "UTF8"
    assert conn.get_parameter_status("standard_conforming_strings") == "on"
    assert conn.get_parameter_status("DateStyle").startswith("ISO")
    with conn.cursor() as cur:
        cur.execute("select current_database(), current_user")
        assert cur.fetchone() == ("demo", "alice")


def test_wrong_password():
    with pytest.raises(psycopg2.OperationalError) as ei:
        connect(password="not-alice")
    assert 'password authentication failed for user "alice"' in str(ei.value)


def test_unknown_database():
    with pytest.raises(psycopg2.OperationalError) as ei:
        connect(dbname="nosuchdb")
    assert 'database "nosuchdb" does not exist' in str(ei.value)


def test_fetch_orders_decoded():
    # carol (sqe_admin) reads ssn as stored; the demo masks it for alice
    carol = connect(user="carol")
    try:
        with carol.cursor() as cur:
            cur.execute("SELECT id, ssn, amount, region FROM sales.orders WHERE id IN (1, 2) ORDER BY id")
            rows = cur.fetchall()
            assert [d.name for d in cur.description] == ["id", "ssn", "amount", "region"]
            assert [d.type_code for d in cur.description][0] == 23
            assert cur.description[2].type_code == 1700
    finally:
        carol.close()
    assert rows == [
        (1, "111-11-1111", Decimal("100.00"), "EU"),
        (2, "222-22-2222", Decimal("250.50"), "US"),
    ]
    assert type(rows[0][0]) is int
    assert isinstance(rows[0][2], Decimal) and rows[1][2].as_tuple().exponent == -2
    assert type(rows[0][1]) is str


# The demo rows as `lakegate demo` writes them (id, amount, region), for the list and tuple cases.
ORDERS = [(1, Decimal("100.00"), "EU"), (2, Decimal("250.50"), "US")]


def test_lists_and_tuples_interpolated(conn):
    # psycopg2 interpolates a list as ARRAY[...] and a tuple as (...): ANY / ALL / IN / NOT IN
    def ids(pred):
        return [(i,) for i, a, r in ORDERS if pred(i, a, r)]

    with conn.cursor() as cur:
        cases = [
            ("region <> all(%s)", (["US"],), lambda i, a, r: r != "US"),
            ("region = any(%s)", (["US", "XX"],), lambda i, a, r: r == "US"),
            ("id <> all(%s)", ([1],), lambda i, a, r: i != 1),
            ("amount = any(%s)", ([Decimal("100.00")],), lambda i, a, r: a == Decimal("100.00")),
            ("region in %s", (("US", "EU"),), lambda i, a, r: True),
            ("region not in %s", (("US",),), lambda i, a, r: r != "US"),
            ("amount in %s", ((Decimal("250.50"), Decimal("1")),), lambda i, a, r: a == Decimal("250.50")),
            ("id in %s and region in %s", ((1, 2), ("EU",)), lambda i, a, r: r == "EU"),
        ]
        for where, params, pred in cases:
            cur.execute(f"select id from sales.orders where {where} order by id", params)
            assert cur.fetchall() == ids(pred), where
        dates = [datetime.date(2024, 1, 2), datetime.date(2024, 5, 5)]
        cur.execute("select d from (values (date '2024-01-02'), (date '2024-05-05')) t(d) where d in %s", ((dates[1],),))
        assert cur.fetchall() == [(dates[1],)]
        cur.execute("select %s, %s", (dates, ["a", None]))
        assert cur.fetchone() == (dates, ["a", None])


def test_search_path_option_unqualified_table():
    c = connect(options="-c search_path=sales")
    try:
        with c.cursor() as cur:
            cur.execute("SELECT id, region FROM orders WHERE id IN (1, 2) ORDER BY id")
            assert cur.fetchall() == [(1, "EU"), (2, "US")]
            cur.execute("SHOW search_path")
            assert cur.fetchone()[0] == "sales"
    finally:
        c.close()


def test_set_search_path_then_unqualified(conn):
    with conn.cursor() as cur:
        cur.execute("SET search_path = sales")
        cur.execute("SELECT amount FROM orders WHERE id = %s", (2,))
        assert cur.fetchone() == (Decimal("250.50"),)


TZ = datetime.timezone(datetime.timedelta(hours=2))

# psycopg2 writes -N::int2, which PostgreSQL reads as -(N::int2): the minimum values overflow there.
ROUND_TRIP = [
    ("int2", -32767, "int2"),
    ("int4", 2147483647, "int4"),
    ("int8", -9223372036854775807, "int8"),
    ("float8", 3.141592653589793, "float8"),
    ("float8 tiny", 5e-324, "float8"),
    ("numeric", Decimal("-12345.678"), "numeric"),
    ("bool", True, "bool"),
    ("text", "h\u00e9llo \u2713", "text"),
    ("text quotes backslash", "O'Reilly \\ back; --", "text"),
    ("varchar", "abc", "varchar"),
    ("date", datetime.date(2024, 2, 29), "date"),
    ("timestamp", datetime.datetime(2024, 2, 29, 13, 45, 1, 123456), "timestamp"),
    ("uuid", uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), "uuid"),
    ("null", None, "int4"),
]


@pytest.mark.parametrize("label,value,cast", ROUND_TRIP, ids=[r[0] for r in ROUND_TRIP])
def test_types_round_trip(conn, label, value, cast):
    with conn.cursor() as cur:
        cur.execute("SELECT %s::" + cast, (value,))
        (got,) = cur.fetchone()
    assert got == value
    assert type(got) is type(value)


def test_bytea_round_trip(conn):
    data = bytes([0, 1, 2, 0xFE, 0xFF]) + b"'\\"
    with conn.cursor() as cur:
        cur.execute("SELECT %s::bytea", (psycopg2.Binary(data),))
        (got,) = cur.fetchone()
    assert bytes(got) == data


def test_timestamptz_round_trip(conn):
    value = datetime.datetime(2024, 2, 29, 13, 45, 1, 500000, tzinfo=TZ)
    with conn.cursor() as cur:
        cur.execute("SET TimeZone = 'UTC'")
        cur.execute("SELECT %s::timestamptz, %s::timestamptz::text", (value, value))
        got, text = cur.fetchone()
    assert got == value
    assert got.utcoffset() == datetime.timedelta(0)
    assert text == "2024-02-29 11:45:01.5+00"


def test_many_types_one_row(conn):
    values = [v for (_, v, _) in ROUND_TRIP]
    sql = "SELECT " + ", ".join("%s::" + c for (_, _, c) in ROUND_TRIP)
    with conn.cursor() as cur:
        cur.execute(sql, values)
        assert list(cur.fetchone()) == values


def test_error_rollback_recover(conn):
    with conn.cursor() as cur:
        with pytest.raises(psycopg2.errors.UndefinedTable) as ei:
            cur.execute("SELECT * FROM no_such_table_py")
        assert ei.value.pgcode == "42P01"
        assert conn.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_INERROR
        with pytest.raises(psycopg2.errors.InFailedSqlTransaction) as ei2:
            cur.execute("SELECT 1")
        assert ei2.value.pgcode == "25P02"
    conn.rollback()
    assert conn.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_IDLE
    with conn.cursor() as cur:
        cur.execute("SELECT region FROM sales.orders WHERE id = %s", (1,))
        assert cur.fetchone() == ("EU",)


def test_explicit_transaction_statuses(conn):
    assert conn.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_IDLE
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
        assert conn.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_INTRANS
    conn.commit()
    assert conn.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_IDLE


def test_autocommit(conn):
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute("SELECT 2")
        assert cur.fetchone() == (2,)
    assert conn.info.transaction_status == psycopg2.extensions.TRANSACTION_STATUS_IDLE


def test_syntax_error_position(conn):
    sql = "SELECT * FROM WHERE 1"
    with conn.cursor() as cur:
        with pytest.raises(psycopg2.errors.SyntaxError) as ei:
            cur.execute(sql)
    assert ei.value.pgcode == "42601"
    assert ei.value.diag.statement_position == str(sql.index("WHERE") + 1)
    conn.rollback()


def test_refused_statement(conn):
    with conn.cursor() as cur:
        with pytest.raises(psycopg2.Error) as ei:
            cur.execute("CREATE TABLE sales.py_x(a int)")
    # alice may not create in sales: PostgreSQL's answer, permission denied for schema sales
    assert ei.value.pgcode == "42501"
    conn.rollback()
    with conn.cursor() as cur:
        cur.execute("SELECT count(*) FROM sales.orders WHERE id <= 2")
        assert cur.fetchone() == (2,)


def test_several_statements_last_result(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT 1; SELECT 'two', 3")
        assert cur.fetchall() == [("two", 3)]


def test_dbt_query_comment(conn):
    with conn.cursor() as cur:
        cur.execute('/* {"app": "dbt", "dbt_version": "1.8.0", "node_id": "model.x"} */\nselect 1 as id')
        assert cur.fetchone() == (1,)
        assert cur.description[0].name == "id"


def test_cancel(conn):
    conn.autocommit = True

    def cancel_soon():
        time.sleep(0.7)
        conn.cancel()

    th = threading.Thread(target=cancel_soon)
    th.start()
    started = time.monotonic()
    with conn.cursor() as cur:
        with pytest.raises(psycopg2.errors.QueryCanceled) as ei:
            cur.execute(LONG_QUERY)
    th.join(10)
    assert ei.value.pgcode == "57014"
    assert time.monotonic() - started < 15
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
        assert cur.fetchone() == (1,)
