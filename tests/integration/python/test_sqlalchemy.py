"""SQLAlchemy 2 (with psycopg 3 and with psycopg2) and pandas against a running lakegate demo.

Run by tests/integration/sqlalchemy.test.ts with LAKEGATE_HOST / LAKEGATE_PORT set. Expected values
are the demo's rows and column types as `lakegate demo` writes them, never lakegate's output; every
assertion also holds against PostgreSQL holding the same table (scripts/pg-demo.sh), except that
PostgreSQL refuses dave with 42501 where lakegate hides the table.
"""

import os
from decimal import Decimal

import pandas as pd
import pytest
import sqlalchemy as sa

HOST = os.environ.get("LAKEGATE_HOST", "127.0.0.1")
PORT = int(os.environ["LAKEGATE_PORT"])
DRIVERS = ["psycopg", "psycopg2"]
# as stored: carol's policies mask nothing (alice reads ssn masked)
ROWS = [(1, "111-11-1111", Decimal("100.00"), "EU"), (2, "222-22-2222", Decimal("250.50"), "US")]


def engine(driver, user="alice"):
    return sa.create_engine(f"postgresql+{driver}://{user}:{user}@{HOST}:{PORT}/demo", poolclass=sa.pool.NullPool)


@pytest.mark.parametrize("driver", DRIVERS)
def test_connect(driver):
    with engine(driver).connect() as c:
        assert c.execute(sa.text("select 1")).scalar() == 1
        assert c.execute(sa.text("select current_user")).scalar() == "alice"


@pytest.mark.parametrize("driver", DRIVERS)
def test_inspect_names(driver):
    insp = sa.inspect(engine(driver))
    assert "sales" in insp.get_schema_names()
    assert insp.get_table_names(schema="sales") == ["orders"]
    assert insp.has_table("orders", schema="sales")
    assert not insp.has_table("nosuchtable", schema="sales")


@pytest.mark.parametrize("driver", DRIVERS)
def test_inspect_hides_what_the_user_may_not_load(driver):
    # control: alice lists the table; dave may not load it, so it is not listed either
    assert sa.inspect(engine(driver, "alice")).get_table_names(schema="sales") == ["orders"]
    assert sa.inspect(engine(driver, "dave")).get_table_names(schema="sales") == []


@pytest.mark.parametrize("driver", DRIVERS)
def test_inspect_get_columns(driver):
    cols = sa.inspect(engine(driver)).get_columns("orders", schema="sales")
    assert [c["name"] for c in cols] == ["id", "ssn", "amount", "region"]
    assert [type(c["type"]) for c in cols] == [sa.INTEGER, sa.TEXT, sa.NUMERIC, sa.TEXT]
    amount = cols[2]["type"]
    assert (amount.precision, amount.scale) == (10, 2)


@pytest.mark.parametrize("driver", DRIVERS)
def test_autoload_table(driver):
    e = engine(driver, "carol")
    orders = sa.Table("orders", sa.MetaData(), schema="sales", autoload_with=e)
    assert [c.name for c in orders.columns] == ["id", "ssn", "amount", "region"]
    with e.connect() as c:
        assert [tuple(r) for r in c.execute(sa.select(orders).order_by(orders.c.id))] == ROWS
        assert c.execute(sa.select(sa.func.count()).select_from(orders).where(orders.c.region == "US")).scalar() == 1


@pytest.mark.parametrize("driver", DRIVERS)
def test_pandas_read_sql_table(driver):
    df = pd.read_sql_table("orders", engine(driver, "carol"), schema="sales", coerce_float=False)
    assert list(df.columns) == ["id", "ssn", "amount", "region"]
    assert [tuple(r) for r in df.sort_values("id").itertuples(index=False)] == ROWS


@pytest.mark.parametrize("driver", DRIVERS)
def test_pandas_read_sql_query(driver):
    df = pd.read_sql_query(
        sa.text("select id, amount from sales.orders where id >= :lo order by id"), engine(driver), params={"lo": 1}, coerce_float=False
    )
    assert [tuple(r) for r in df.itertuples(index=False)] == [(1, Decimal("100.00")), (2, Decimal("250.50"))]
