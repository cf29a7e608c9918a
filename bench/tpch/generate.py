"""TPC-H data for the data-gate benchmark, from DuckDB's own tpch extension.

usage: python generate.py OUT_DIR SF

Writes OUT_DIR/tpch.duckdb (schema tpch, the 8 tables of dbgen(sf=SF)),
OUT_DIR/csv/<table>.csv (for PostgreSQL's COPY) and OUT_DIR/queries.json (the
22 queries from tpch_queries()). Needs the PyPI packages duckdb==1.5.5 and
duckdb-extension-tpch==1.5.5; the extension is loaded from the wheel's file,
nothing is downloaded at run time.
"""
import json
import os
import sys
import time

import duckdb
import duckdb_extension_tpch

out, sf = sys.argv[1], float(sys.argv[2])
ext = os.path.join(os.path.dirname(duckdb_extension_tpch.__file__), "extensions", "v" + duckdb.__version__, "tpch.duckdb_extension")
if not os.path.exists(ext):
    sys.exit(f"generate.py: {ext} missing (duckdb {duckdb.__version__} and duckdb-extension-tpch must be the same version)")
os.makedirs(os.path.join(out, "csv"), exist_ok=True)
db = os.path.join(out, "gen_tmp.duckdb")
if os.path.exists(db):
    os.remove(db)
con = duckdb.connect(db)
con.execute(f"LOAD '{ext}'")
t = time.time()
con.execute("CREATE SCHEMA tpch")
con.execute(f"CALL dbgen(sf={sf}, schema='tpch')")
tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'tpch' ORDER BY 1").fetchall()]
for table in tables:
    con.execute(f"COPY (SELECT * FROM gen_tmp.tpch.{table}) TO '{os.path.join(out, 'csv', table + '.csv')}' (FORMAT csv, HEADER false)")
queries = [{"nr": n, "sql": q} for n, q in con.execute("SELECT query_nr, query FROM tpch_queries() ORDER BY 1").fetchall()]
with open(os.path.join(out, "queries.json"), "w") as f:
    json.dump({"sf": sf, "duckdb": duckdb.__version__, "queries": queries}, f, indent=1)
con.execute("CHECKPOINT")
con.close()
os.replace(db, os.path.join(out, "tpch.duckdb"))
print(f"generate.py: sf={sf} in {time.time() - t:.1f} s, tables {', '.join(tables)}")
