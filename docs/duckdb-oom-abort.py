"""DuckDB 1.5.5 + iceberg: an out-of-memory error while a query over iceberg_scan
is planned aborts the whole process (std::terminate, SIGABRT) instead of failing
the query. See duckdb-oom-abort.md next to this file.

    pip install duckdb==1.5.5 pyiceberg[sql-sqlite]==0.12.0 pyarrow
    python duckdb-oom-abort.py [single | concurrent] [iceberg | parquet]

single      one connection, memory_limit 512KB (or $MEMORY_LIMIT), one query
            (aborts every time)
concurrent  memory_limit 256MB: one connection reads the table in a loop while
            another runs a query that runs out of memory (aborts within seconds)
parquet     the control: the same, reading the table's Parquet data file with
            read_parquet instead of iceberg_scan (a clean OutOfMemoryException)

The extension comes from INSTALL iceberg; set DUCKDB_EXTENSION_DIRECTORY to use
an extension directory of your own.
"""

import os
import sys
import tempfile
import threading
import time

import duckdb
import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog

mode = sys.argv[1] if len(sys.argv) > 1 else "single"
reader = sys.argv[2] if len(sys.argv) > 2 else "iceberg"

# A two-row Iceberg table (one snapshot, one manifest, one Parquet file).
root = tempfile.mkdtemp()
catalog = SqlCatalog("demo", uri=f"sqlite:///{root}/catalog.db", warehouse=f"file://{root}")
catalog.create_namespace("sales")
table = catalog.create_table("sales.orders", schema=pa.schema([("id", pa.int64())]))
table.append(pa.table({"id": pa.array([1, 2], pa.int64())}))
metadata = table.metadata_location.removeprefix("file://")
data_file = next(task.file.file_path for task in table.scan().plan_files()).removeprefix("file://")
scan = f"iceberg_scan('{metadata}')" if reader == "iceberg" else f"read_parquet('{data_file}')"

# Answered with the default memory_limit.
config = {"threads": 2}
if "DUCKDB_EXTENSION_DIRECTORY" in os.environ:
    config["extension_directory"] = os.environ["DUCKDB_EXTENSION_DIRECTORY"]
with duckdb.connect(config=config) as check:
    check.execute("INSTALL iceberg")
    check.execute("LOAD iceberg")
    print(duckdb.__version__, check.execute(f"SELECT count(*) FROM {scan}").fetchall(), flush=True)

if mode == "single":
    con = duckdb.connect(config={**config, "memory_limit": os.environ.get("MEMORY_LIMIT", "512KB")})
    con.execute("LOAD iceberg")
    try:
        print("answered:", con.execute(f"SELECT count(*) FROM {scan}").fetchall())
    except duckdb.OutOfMemoryException as e:
        print("clean error:", str(e).splitlines()[0])
    sys.exit(0)

con = duckdb.connect(config={**config, "memory_limit": "256MB"})
con.execute("LOAD iceberg")
until = time.time() + 20
errors = {}


def loop(sql):
    cur = con.cursor()
    while time.time() < until:
        try:
            cur.execute(sql).fetchall()
        except duckdb.Error as e:
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1


threads = [
    threading.Thread(target=loop, args=(f"SELECT count(*) FROM {scan}",)),
    threading.Thread(target=loop, args=("SELECT length(string_agg(repeat('x', 1000), '')) FROM generate_series(1, 20000000)",)),
]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("survived 20 s; errors:", errors)
