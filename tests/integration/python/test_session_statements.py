"""Server-side cursors, COPY TO STDOUT and transaction characteristics through psycopg2 and psycopg 3.

Run by tests/integration/psycopgSession.test.ts with LAKEGATE_HOST / LAKEGATE_PORT set,
against a lakegate demo. Expected values are written here (the demo rows, masks computed
from them), never taken from lakegate's output. carol (MASK_NONE) is the control for
every masked case: the same statement shows her the stored value.
"""

import os
from decimal import Decimal

import psycopg
import psycopg2
import psycopg2.errors
import pytest

HOST = os.environ.get("LAKEGATE_HOST", "127.0.0.1")
PORT = int(os.environ["LAKEGATE_PORT"])

ORDERS = [(1, "111-11-1111", Decimal("100.00"), "EU"), (2, "222-22-2222", Decimal("250.50"), "US")]
# MASK_SHOW_LAST_4 as Ranger defines it: every character but the last four becomes 'x'.
SHOW_LAST_4 = {1: "xxx-xx-1111", 2: "xxx-xx-2222"}
SERIES = "SELECT i, i * 2 AS twice, 'row ' || i AS label FROM generate_series(1, 2500) AS g(i) ORDER BY i"
EXPECTED_SERIES = [(i, i * 2, f"row {i}") for i in range(1, 2501)]


def conn2(user):
    return psycopg2.connect(host=HOST, port=PORT, user=user, password=user, dbname="demo", connect_timeout=10)


def conn3(user, **kw):
    return psycopg.connect(host=HOST, port=PORT, user=user, password=user, dbname="demo", connect_timeout=10, **kw)


# ---- psycopg2 ---------------------------------------------------------------


def test_psycopg2_named_cursor_itersize():
    with conn2("carol") as c:
        cur = c.cursor(name="series")
        cur.itersize = 300
        cur.execute(SERIES)
        assert list(cur) == EXPECTED_SERIES
        cur.close()


def test_psycopg2_named_cursor_fetchmany_and_masks():
    for user, ssn in (("carol", {1: ORDERS[0][1], 2: ORDERS[1][1]}), ("alice", SHOW_LAST_4)):
        with conn2(user) as c:
            cur = c.cursor(name="orders")
            cur.execute("SELECT id, ssn FROM sales.orders ORDER BY id")
            assert cur.fetchmany(1) == [(1, ssn[1])]
            assert cur.fetchall() == [(2, ssn[2])]
            cur.close()


def test_psycopg2_named_cursor_withhold_in_autocommit():
    c = conn2("carol")
    try:
        c.autocommit = True
        cur = c.cursor(name="held", withhold=True)
        cur.itersize = 100
        cur.execute("SELECT i FROM generate_series(1, 250) AS g(i) ORDER BY i")
        assert [r[0] for r in cur] == list(range(1, 251))
        cur.close()
    finally:
        c.close()


def test_psycopg2_declare_outside_block_is_25P01():
    c = conn2("carol")
    try:
        c.autocommit = True
        with pytest.raises(psycopg2.errors.NoActiveSqlTransaction) as e:
            c.cursor().execute("DECLARE c CURSOR FOR SELECT 1")
        assert "DECLARE CURSOR can only be used in transaction blocks" in str(e.value)
    finally:
        c.close()


def copy_text(c, sql):
    import io

    buf = io.StringIO()
    c.cursor().copy_expert(sql, buf)
    return buf.getvalue()


def test_psycopg2_copy_expert_csv_masked():
    sql = "COPY (SELECT id, ssn, amount, region FROM sales.orders ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)"
    for user, ssn in (("carol", {1: ORDERS[0][1], 2: ORDERS[1][1]}), ("alice", SHOW_LAST_4)):
        with conn2(user) as c:
            expected = "id,ssn,amount,region\n" + "".join(f"{i},{ssn[i]},{a},{r}\n" for i, _, a, r in ORDERS)
            assert copy_text(c, sql) == expected


def test_psycopg2_copy_table_text_row_filter():
    # erin's row filter keeps the EU row only, and her ssn is masked as alice's.
    with conn2("erin") as c:
        assert copy_text(c, "COPY sales.orders (id, ssn, region) TO STDOUT") == f"1\t{SHOW_LAST_4[1]}\tEU\n"
    with conn2("carol") as c:
        assert copy_text(c, "COPY sales.orders (id, ssn, region) TO STDOUT") == "".join(f"{i}\t{s}\t{r}\n" for i, s, _, r in ORDERS)


def test_psycopg2_copy_from_refused():
    import io

    with conn2("carol") as c:
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):
            c.cursor().copy_expert("COPY sales.orders FROM STDIN", io.StringIO("3\tx\t1\tEU\n"))


def test_psycopg2_serializable_session():
    with conn2("carol") as c:
        c.set_session(isolation_level="SERIALIZABLE")
        cur = c.cursor()
        cur.execute("SHOW transaction_isolation")
        assert cur.fetchone() == ("serializable",)
        cur.execute("SELECT current_setting('transaction_isolation'), current_setting('transaction_read_only')")
        assert cur.fetchone() == ("serializable", "off")


# ---- psycopg 3 --------------------------------------------------------------


def test_psycopg3_server_cursor_with_parameters():
    with conn3("carol") as c:
        with c.cursor(name="series3") as cur:
            cur.itersize = 400
            cur.execute("SELECT i, i * 2 AS twice, 'row ' || i AS label FROM generate_series(1, 2500) AS g(i) WHERE i > %s ORDER BY i", (500,))
            assert cur.fetchmany(3) == EXPECTED_SERIES[500:503]
            assert list(cur) == EXPECTED_SERIES[503:]


def test_psycopg3_binary_server_cursor_masked():
    for user, ssn in (("carol", {1: ORDERS[0][1], 2: ORDERS[1][1]}), ("alice", SHOW_LAST_4)):
        with conn3(user) as c:
            with c.cursor(name="orders3", binary=True) as cur:
                cur.execute("SELECT id, ssn, amount FROM sales.orders ORDER BY id")
                assert cur.fetchall() == [(i, ssn[i], a) for i, _, a, _ in ORDERS]


def test_psycopg3_withhold_cursor_autocommit():
    with conn3("carol", autocommit=True) as c:
        with c.cursor(name="held3", withhold=True) as cur:
            cur.execute("SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i")
            assert [r[0] for r in cur.fetchmany(4)] == [1, 2, 3, 4]
            assert [r[0] for r in cur.fetchall()] == list(range(5, 11))


def test_psycopg3_copy_binary_and_text():
    with conn3("carol") as c:
        cur = c.cursor()
        with cur.copy("COPY (SELECT id, amount, region FROM sales.orders ORDER BY id) TO STDOUT (FORMAT BINARY)") as cp:
            cp.set_types(["int4", "numeric", "text"])
            assert list(cp.rows()) == [(i, a, r) for i, _, a, r in ORDERS]
        with cur.copy("COPY (SELECT id, region FROM sales.orders ORDER BY id) TO STDOUT") as cp:
            assert list(cp.rows()) == [(str(i), r) for i, _, _, r in ORDERS]


def test_psycopg3_copy_binary_masked():
    for user, ssn in (("carol", {1: ORDERS[0][1], 2: ORDERS[1][1]}), ("alice", SHOW_LAST_4)):
        with conn3(user) as c:
            with c.cursor().copy("COPY sales.orders (id, ssn) TO STDOUT (FORMAT binary)") as cp:
                cp.set_types(["int4", "text"])
                assert sorted(cp.rows()) == [(1, ssn[1]), (2, ssn[2])]


def test_psycopg3_isolation_level():
    with conn3("carol") as c:
        c.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        assert c.execute("SHOW transaction_isolation").fetchone() == ("repeatable read",)
        c.commit()
        c.isolation_level = None
        assert c.execute("SHOW transaction_isolation").fetchone() == ("read committed",)


def test_psycopg3_session_functions_with_parameters():
    with conn3("carol", autocommit=True) as c:
        assert c.execute("SELECT set_config(%s, %s, false)", ["application_name", "from psycopg 3"]).fetchone() == ("from psycopg 3",)
        assert c.execute("SHOW application_name").fetchone() == ("from psycopg 3",)
        # void reads as an empty string in psycopg 3, as from PostgreSQL 15 (checked by hand)
        assert c.execute("SELECT pg_sleep(%s)", [0.05]).fetchone() == ("",)
        pid = c.execute("SELECT pg_backend_pid()").fetchone()[0]
        with conn3("carol", autocommit=True) as other:
            assert other.execute("SELECT pg_cancel_backend(%s)", [2147483000]).fetchone() == (False,)
            # pg_cancel_backend of an idle session of one's own: true, and nothing to cancel
            assert other.execute("SELECT pg_cancel_backend(%s)", [pid]).fetchone() == (True,)
        assert c.execute("SELECT 1").fetchone() == (1,)
