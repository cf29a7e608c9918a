"""One small write script through psycopg2 or psycopg 3, for tests/integration/writeClients.test.ts.

  client_writes.py --driver psycopg2|psycopg3 --protocol simple|extended|binary --host H --port P --table analytics.t

Connects as bob to database demo and writes into --table: CREATE TABLE, executemany, UPDATE and DELETE
with parameters, a transaction that commits, a transaction context manager left by an exception
(rolled back), a bad value (its SQLSTATE) and statements that change no row. --protocol says how the
statements reach the server: psycopg2 always interpolates on the client and sends simple queries;
psycopg 3 sends server-side parameters (extended: text, binary: binary dumps with %b) or, with
`simple`, interpolates on the client (ClientCursor).

Prints one JSON object: {"steps": [[name, outcome], ...]}, each outcome what the driver reports
(statusmessage and rowcount, or the error's SQLSTATE). The test runs it against lakegate and a real
PostgreSQL 15 and compares the two, then reads the table back with pyiceberg.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import uuid
from decimal import Decimal
from typing import Any, Callable

COLUMNS = "id integer, name text, amount numeric(10,2), day date, ok boolean, seen timestamptz, labels text[], raw bytea, ref uuid"
ROWS = [
    (1, "one", Decimal("1.50"), dt.date(2024, 1, 1), True, dt.datetime(2024, 1, 1, 12, 0, tzinfo=dt.timezone.utc), ["a", "b"], b"\x01\x02", uuid.UUID(int=1)),
    (2, "two", None, None, False, None, [], b"", None),
    (3, "three", Decimal("-3.25"), dt.date(2024, 2, 29), None, dt.datetime(2024, 2, 29, 23, 59, 59, 500000, tzinfo=dt.timezone(dt.timedelta(hours=-5))), None, None, uuid.UUID(int=3)),
]


class Script:
    def __init__(self, driver: str, protocol: str, table: str):
        self.driver = driver
        self.protocol = protocol
        self.table = table
        self.steps: list[list[Any]] = []
        if driver == "psycopg2":
            import psycopg2
            import psycopg2.extras

            psycopg2.extras.register_uuid()
            self.conn = psycopg2.connect(host=a.host, port=a.port, user="bob", password="bob", dbname="demo", connect_timeout=10)
            self.error_type = psycopg2.Error
        else:
            import psycopg

            cursor_factory = psycopg.ClientCursor if protocol == "simple" else psycopg.Cursor
            self.conn = psycopg.connect(host=a.host, port=a.port, user="bob", password="bob", dbname="demo", connect_timeout=10, cursor_factory=cursor_factory)
            self.error_type = psycopg.Error
        self.p = "%b" if protocol == "binary" else "%s"

    def sql(self, text: str) -> str:
        return text.replace("{t}", self.table).replace("%s", self.p)

    def record(self, name: str, cur: Any) -> None:
        self.steps.append([name, {"status": cur.statusmessage, "rowcount": cur.rowcount}])

    def failing(self, name: str, fn: Callable[[], None]) -> None:
        try:
            fn()
            self.steps.append([name, "no error"])
        except self.error_type as e:
            code = getattr(e, "pgcode", None) or getattr(getattr(e, "diag", None), "sqlstate", None)
            self.steps.append([name, {"error": code}])
            self.conn.rollback()

    def transaction(self):
        """The driver's transaction context manager: commits when the block ends, rolls back when it raises."""
        return self.conn if self.driver == "psycopg2" else self.conn.transaction()

    def run(self) -> None:
        c = self.conn
        cur = c.cursor()
        cur.execute(self.sql(f"CREATE TABLE {{t}} ({COLUMNS})"))
        self.record("create", cur)
        c.commit()

        cur.executemany(self.sql("INSERT INTO {t} (id, name, amount, day, ok, seen, labels, raw, ref) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"), ROWS)
        self.record("executemany", cur)
        c.commit()

        cur.execute(self.sql("UPDATE {t} SET name = upper(name), amount = amount * %s WHERE id <= %s"), (Decimal("2"), 2))
        self.record("update", cur)
        cur.execute(self.sql("UPDATE {t} SET amount = 0 WHERE id = %s"), (99,))
        self.record("update_nothing", cur)
        c.commit()

        with self.transaction():
            with c.cursor() as inner:
                inner.execute(self.sql("INSERT INTO {t} (id, name) VALUES (%s, %s)"), (4, "committed"))
                self.record("transaction_insert", inner)

        class Abandon(Exception):
            pass

        try:
            with self.transaction():
                with c.cursor() as inner:
                    inner.execute(self.sql("INSERT INTO {t} (id, name) VALUES (%s, %s)"), (5, "rolled back"))
                    self.record("abandoned_insert", inner)
                    raise Abandon()
        except Abandon:
            self.steps.append(["abandoned", "rolled back by the context manager"])

        self.failing("bad_integer", lambda: cur.execute(self.sql("INSERT INTO {t} (id, name) VALUES (%s, %s)"), ("six", "bad")))
        self.failing("bad_date", lambda: cur.execute(self.sql("INSERT INTO {t} (id, day) VALUES (7, '2024-02-30')")))
        self.failing("missing_table", lambda: cur.execute(self.sql("INSERT INTO analytics.no_such_table (id) VALUES (%s)"), (8,)))

        cur.execute(self.sql("DELETE FROM {t} WHERE id = %s"), (1,))
        self.record("delete", cur)
        cur.execute(self.sql("DELETE FROM {t} WHERE id = %s"), (1,))
        self.record("delete_nothing", cur)
        c.commit()
        c.close()


p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--driver", choices=["psycopg2", "psycopg3"], required=True)
p.add_argument("--protocol", choices=["simple", "extended", "binary"], required=True)
p.add_argument("--host", required=True)
p.add_argument("--port", type=int, required=True)
p.add_argument("--table", required=True)
a = p.parse_args()
if a.driver == "psycopg2" and a.protocol != "simple":
    raise SystemExit("psycopg2 interpolates parameters on the client: --protocol simple")
script = Script(a.driver, a.protocol, a.table)
script.run()
sys.stdout.write(json.dumps({"steps": script.steps}) + "\n")
