"""psycopg2's copy_expert: COPY … FROM STDIN in text format from a file object, then one that
fails mid-stream. Prints one JSON line: each step's rowcount or SQLSTATE.
args: --host --port --table (user bob, database demo)"""
import argparse
import io
import json

import psycopg2

parser = argparse.ArgumentParser()
parser.add_argument("--host")
parser.add_argument("--port")
parser.add_argument("--table")
a = parser.parse_args()

conn = psycopg2.connect(host=a.host, port=a.port, user="bob", password="bob", dbname="demo", sslmode="disable")
conn.autocommit = True
steps = []


def step(sql, data):
    with conn.cursor() as cur:
        try:
            cur.copy_expert(sql, io.StringIO(data))
            steps.append(["COPY", cur.rowcount])
        except psycopg2.Error as e:
            steps.append(["ERROR", e.pgcode])


step(f"COPY {a.table} FROM STDIN", "200\tpsycopg2 \\t tab\n201\t\\N\n")
step(f"COPY {a.table} (id, name) FROM STDIN WITH (FORMAT csv)", '202,"a,b"\n203\n')
# the same session goes on after the failed COPY
step(f"COPY {a.table} FROM STDIN WITH (FORMAT csv, HEADER true)", "id,name\n204,\n")
print(json.dumps({"steps": steps}))
