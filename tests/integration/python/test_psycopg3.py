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


# The demo rows as `lakegate demo` writes them (id, amount, region), for the list-parameter cases.
ORDERS = [(1, Decimal("100.00"), "EU"), (2, Decimal("250.50"), "US")]
DATES = [datetime.date(2024, 1, 2), datetime.date(2024, 5, 5)]
DATES_SQL = "select d from (values (date '2024-01-02'), (date '2024-05-05')) as t(d)"


def ids(pred):
    return [(i,) for i, a, r in ORDERS if pred(i, a, r)]


@pytest.mark.parametrize("binary", [False, True])
def test_any_with_list_of_strings(conn, binary):
    # psycopg 3 sends a list of str as one parameter of unspecified type: PostgreSQL reads it as an
    # array of the left operand's type (text here, integer or numeric below)
    cur = conn.cursor(binary=binary)
    q = "select id from sales.orders where region = any(%s) order by id"
    assert cur.execute(q, [["US", "XX"]]).fetchall() == ids(lambda i, a, r: r in ("US", "XX"))
    assert cur.execute(q, [["EU", "US"]]).fetchall() == ids(lambda i, a, r: True)
    assert cur.execute(q, [[]]).fetchall() == []
    assert cur.execute(q, [["US", None]]).fetchall() == ids(lambda i, a, r: r == "US")
    q = "select id from sales.orders where region <> all(%s) order by id"
    assert cur.execute(q, [["US"]]).fetchall() == ids(lambda i, a, r: r != "US")
    assert cur.execute(q, [[]]).fetchall() == ids(lambda i, a, r: True)
    # x <> ALL with a NULL element is never true
    assert cur.execute(q, [["US", None]]).fetchall() == []
    assert cur.execute("select id from sales.orders where id = any(%s) order by id", [["2", "7"]]).fetchall() == [(2,)]
    assert cur.execute("select id from sales.orders where amount = any(%s) order by id", [["250.5", "7"]]).fetchall() == ids(
        lambda i, a, r: a == Decimal("250.5")
    )
    # two list parameters, the second against an integer column
    two = "select id from sales.orders where region = any(%s) and id = any(%s) order by id"
    assert cur.execute(two, [["US", "EU"], ["2"]]).fetchall() == [(2,)]
    assert cur.execute("select 'a' = any(%s), 'z' = any(%s)", [["a", "b"], ["a"]]).fetchone() == (True, False)
    with pytest.raises(psycopg.errors.InvalidTextRepresentation):
        cur.execute("select id from sales.orders where id = any(%s)", [["x"]])


@pytest.mark.parametrize("binary", [False, True])
def test_any_with_list_of_dates(conn, binary):
    cur = conn.cursor(binary=binary)
    assert cur.execute(f"{DATES_SQL} where d = any(%s)", [[DATES[0], datetime.date(2020, 1, 1)]]).fetchall() == [(DATES[0],)]
    assert cur.execute(f"{DATES_SQL} where d <> all(%s) order by d", [[DATES[0]]]).fetchall() == [(DATES[1],)]
    # dates as strings: an array of date for PostgreSQL
    assert cur.execute(f"{DATES_SQL} where d = any(%s)", [["2024-05-05"]]).fetchall() == [(DATES[1],)]


@pytest.mark.parametrize("binary", [False, True])
def test_any_with_list_of_decimals(conn, binary):
    cur = conn.cursor(binary=binary)
    q = "select id from sales.orders where amount = any(%s) order by id"
    assert cur.execute(q, [[Decimal("250.50"), Decimal("1")]]).fetchall() == ids(lambda i, a, r: a in (Decimal("250.50"), Decimal("1")))
    # scales differ from the column's: compared by value
    assert cur.execute(q, [[Decimal("100.0"), Decimal("250.500")]]).fetchall() == ids(lambda i, a, r: True)
    assert cur.execute("select id from sales.orders where amount <> all(%s) order by id", [[Decimal("100.00")]]).fetchall() == ids(
        lambda i, a, r: a != Decimal("100.00")
    )
    assert cur.execute("select id from sales.orders where amount > all(%s) order by id", [[Decimal("99.999"), Decimal("100")]]).fetchall() == ids(
        lambda i, a, r: a > Decimal("100")
    )


@pytest.mark.parametrize("binary", [False, True])
def test_typed_lists_come_back_lists(conn, binary):
    cur = conn.cursor(binary=binary)
    for value in (
        DATES,
        [True, False, None],
        [1.5, -2.25],
        [datetime.datetime(2024, 1, 2, 3, 4, 5)],
        [datetime.datetime(2024, 1, 1, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))],
    ):
        (got,) = cur.execute("select %s", [value]).fetchone()
        assert got == value
    strings = ["a", "b,c", 'q"t', "back\\slash", "", "NULL", None]
    assert cur.execute("select %s::text[]", [strings]).fetchone() == (strings,)
    # a list of Decimal is numeric[] (OID 1231) and comes back as Decimals of the same values
    decimals = [Decimal("1.50"), Decimal("-2"), Decimal("12345678901234.5678")]
    cur.execute("select %s", [decimals])
    assert cur.description[0].type_code == 1231
    (got,) = cur.fetchone()
    assert all(type(d) is Decimal for d in got) and got == decimals


@pytest.mark.parametrize("binary", [False, True])
def test_scrollable_server_cursor(binary):
    # DECLARE … SCROLL CURSOR, then MOVE backward / absolute (psycopg 3's scroll()) and FETCH
    rows = [(i, a, r) for i, a, r in ORDERS]
    with connect("carol") as c:
        with c.cursor("sc", scrollable=True, binary=binary) as cur:
            cur.execute("select id, amount, region from sales.orders order by id")
            assert cur.fetchone() == rows[0]
            assert cur.fetchone() == rows[1]
            assert cur.fetchone() is None
            cur.scroll(-2)
            assert cur.fetchone() == rows[1]
            cur.scroll(0, mode="absolute")
            assert cur.fetchall() == rows
            cur.scroll(1, mode="absolute")
            assert cur.fetchmany(5) == rows[1:]
    with connect("carol") as c:
        with c.cursor("ns", scrollable=False) as cur:
            cur.execute("select id from sales.orders order by id")
            assert cur.fetchone() == (1,)
            with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState):
                cur.scroll(-1)


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
