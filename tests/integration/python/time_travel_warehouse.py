"""Writes the embedded-mode warehouse of timeTravelGate.test.ts with pyiceberg 0.12's SqlCatalog
and prints what pyiceberg itself reads back.

    time_travel_warehouse.py DIR            -> DIR/catalog.db, DIR/warehouse/...

Catalog name `lake`. Tables:
  sales.people  v1 (id 1, ssn 2, area 3, nick 4, email 5), two rows; then ssn renamed to
                tax_id, area to region, email to contact, nick dropped, tier (6) added; one
                more row. The policies name today's columns (tax_id, region, contact, tier).
  sales.files   (id, filename): a real column that happens to share a name with the
                scan's virtual column.
Prints JSON: per table its metadata location, snapshots (ids as strings, timestamps in ms)
and pyiceberg's scan of every snapshot (values as strings, rows by id).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType


def rows(table) -> dict:
    out = {}
    for snap in table.snapshots():
        data = table.scan(snapshot_id=snap.snapshot_id).to_arrow().to_pylist()
        out[str(snap.snapshot_id)] = sorted(
            ({k: (None if v is None else str(v)) for k, v in r.items()} for r in data), key=lambda r: int(r["id"])
        )
    return out


def describe(table) -> dict:
    return {
        "metadata_location": table.metadata_location,
        "current": str(table.current_snapshot().snapshot_id),
        "snapshots": [{"id": str(s.snapshot_id), "timestamp_ms": s.timestamp_ms} for s in table.snapshots()],
        "scans": rows(table),
    }


def main(root: Path) -> None:
    (root / "warehouse").mkdir(parents=True, exist_ok=True)
    cat = SqlCatalog("lake", uri=f"sqlite:///{root / 'catalog.db'}", warehouse=f"file://{root / 'warehouse'}")
    cat.create_namespace("sales")

    v1 = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "ssn", StringType(), required=False),
        NestedField(3, "area", StringType(), required=False),
        NestedField(4, "nick", StringType(), required=False),
        NestedField(5, "email", StringType(), required=False),
    )
    people = cat.create_table("sales.people", schema=v1)
    people.append(pa.Table.from_pylist([
        {"id": 1, "ssn": "111-11-1111", "area": "EU", "nick": "ann", "email": "ann@example.com"},
        {"id": 2, "ssn": "333-33-3333", "area": "US", "nick": "bo", "email": "bo@example.com"},
    ], schema=v1.as_arrow()))
    with people.update_schema() as u:
        u.rename_column("ssn", "tax_id")
        u.rename_column("area", "region")
        u.rename_column("email", "contact")
        u.delete_column("nick")
        u.add_column("tier", StringType())
    people = cat.load_table("sales.people")
    people.append(pa.Table.from_pylist(
        [{"id": 3, "tax_id": "555-55-5555", "region": "EU", "contact": "cy@example.com", "tier": "gold"}],
        schema=people.schema().as_arrow()))

    files_schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "filename", StringType(), required=False))
    files = cat.create_table("sales.files", schema=files_schema)
    files.append(pa.Table.from_pylist([{"id": 1, "filename": "report.pdf"}, {"id": 2, "filename": "notes.txt"}], schema=files_schema.as_arrow()))

    print(json.dumps({name: describe(cat.load_table(name)) for name in ["sales.people", "sales.files"]}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
