"""Writes a small embedded-mode warehouse with pyiceberg 0.12's SqlCatalog (SQLite), the
layout lakegate's embedded catalog reads, and prints what pyiceberg itself reads back.

    sql_warehouse.py DIR            -> DIR/catalog.db, DIR/warehouse/...

Catalog name `lake`. Tables:
  sales.orders    partitioned by identity(region); two appends (two snapshots)
  sales.evolved   (id, name) with sqe.column-tags {"name": ["PII"]}; then `name` renamed to
                  `label`, `discount` added, one more append
  hr.salaries     (id, salary)
Prints JSON: per table its metadata location, snapshots (ids as strings: they exceed
2^53, timestamps in ms) and pyiceberg's scan of every snapshot (values as strings).
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import DecimalType, DoubleType, LongType, NestedField, StringType


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
    cat.create_namespace("hr")

    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "region", StringType(), required=False),
        NestedField(3, "amount", DecimalType(10, 2), required=False),
    )
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(), name="region"))
    orders = cat.create_table("sales.orders", schema=schema, partition_spec=spec)
    arrow = schema.as_arrow()
    orders.append(pa.Table.from_pylist(
        [{"id": 1, "region": "EU", "amount": Decimal("10.50")}, {"id": 2, "region": "US", "amount": Decimal("20.00")}], schema=arrow))
    orders.append(pa.Table.from_pylist(
        [{"id": 3, "region": "EU", "amount": Decimal("30.25")}, {"id": 4, "region": "APAC", "amount": None}], schema=arrow))

    ev_schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "name", StringType(), required=False))
    evolved = cat.create_table("sales.evolved", schema=ev_schema, properties={"sqe.column-tags": json.dumps({"name": ["PII"]})})
    evolved.append(pa.Table.from_pylist([{"id": 1, "name": "ann"}, {"id": 2, "name": "bo"}], schema=ev_schema.as_arrow()))
    with evolved.update_schema() as u:
        u.rename_column("name", "label")
        u.add_column("discount", DoubleType())
    evolved = cat.load_table("sales.evolved")
    evolved.append(pa.Table.from_pylist([{"id": 3, "label": "cy", "discount": 0.5}], schema=evolved.schema().as_arrow()))

    sal_schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "salary", LongType(), required=False))
    salaries = cat.create_table("hr.salaries", schema=sal_schema)
    salaries.append(pa.Table.from_pylist([{"id": 1, "salary": 100000}], schema=sal_schema.as_arrow()))

    print(json.dumps({name: describe(cat.load_table(name)) for name in ["sales.orders", "sales.evolved", "hr.salaries"]}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
