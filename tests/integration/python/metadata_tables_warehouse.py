"""Writes the embedded-mode warehouse of metadataTables.test.ts with pyiceberg 0.12's SqlCatalog
and prints what pyiceberg itself reads of the table's metadata (its `inspect` tables and the
current snapshot's manifest list), as the expected rows of lakegate's metadata tables.

    metadata_tables_warehouse.py DIR            -> DIR/catalog.db, DIR/warehouse/...

Catalog name `lake`. Tables:
  sales.orders  (id 1, region 2, customer 3, amount 4), partitioned by identity(region);
                two appends (EU+US, then EU), the first snapshot tagged `v1`.
  sales.hidden  one append; the test's catalog policies let nobody load it.
Prints JSON (64-bit ids and counts as strings, bounds decoded with pyiceberg's conversions).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.conversions import from_bytes
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import LongType, NestedField, StringType


def s(v):
    return None if v is None else str(v)


def decoded(table, m):
    if m is None:
        return None
    schema = table.schema()
    return {str(k): str(from_bytes(schema.find_field(k).field_type, v)) for k, v in m}


def counts(m):
    return None if m is None else {str(k): str(v) for k, v in m}


def describe(table) -> dict:
    ins = table.inspect
    snap = table.current_snapshot()
    return {
        "metadata_location": table.metadata_location,
        "fields": {f.name: f.field_id for f in table.schema().fields},
        "current": str(snap.snapshot_id),
        "snapshots": [
            {
                "snapshot_id": s(r["snapshot_id"]),
                "parent_id": s(r["parent_id"]),
                "operation": r["operation"],
                "manifest_list": r["manifest_list"],
                "summary": dict(r["summary"]),
                "committed_at_ms": next(x.timestamp_ms for x in table.snapshots() if x.snapshot_id == r["snapshot_id"]),
            }
            for r in ins.snapshots().to_pylist()
        ],
        "history": [
            {"snapshot_id": s(r["snapshot_id"]), "parent_id": s(r["parent_id"]), "is_current_ancestor": r["is_current_ancestor"]}
            for r in ins.history().to_pylist()
        ],
        "refs": [{**r, "snapshot_id": s(r["snapshot_id"])} for r in ins.refs().to_pylist()],
        "files": [
            {
                "content": r["content"],
                "file_path": r["file_path"],
                "file_format": r["file_format"],
                "spec_id": r["spec_id"],
                "partition": r["partition"],
                "record_count": s(r["record_count"]),
                "file_size_in_bytes": s(r["file_size_in_bytes"]),
                "column_sizes": counts(r["column_sizes"]),
                "value_counts": counts(r["value_counts"]),
                "null_value_counts": counts(r["null_value_counts"]),
                "lower_bounds": decoded(table, r["lower_bounds"]),
                "upper_bounds": decoded(table, r["upper_bounds"]),
            }
            for r in ins.files().to_pylist()
        ],
        "manifests": [
            {
                "path": m.manifest_path,
                "length": s(m.manifest_length),
                "partition_spec_id": m.partition_spec_id,
                "added_snapshot_id": s(m.added_snapshot_id),
                "added_data_files_count": m.added_files_count,
                "added_rows_count": s(m.added_rows_count),
                "existing_data_files_count": m.existing_files_count,
                "existing_rows_count": s(m.existing_rows_count),
                "deleted_data_files_count": m.deleted_files_count,
                "deleted_rows_count": s(m.deleted_rows_count),
            }
            for m in snap.manifests(table.io)
        ],
        "partitions": [
            {"partition": r["partition"], "record_count": s(r["record_count"]), "file_count": s(r["file_count"]), "total_size": s(r["total_data_file_size_in_bytes"])}
            for r in ins.partitions().to_pylist()
        ],
        "scans": {
            str(x.snapshot_id): sorted((str(r["id"]) for r in table.scan(snapshot_id=x.snapshot_id).to_arrow().to_pylist()), key=int)
            for x in table.snapshots()
        },
    }


def main(root: Path) -> None:
    (root / "warehouse").mkdir(parents=True, exist_ok=True)
    cat = SqlCatalog("lake", uri=f"sqlite:///{root / 'catalog.db'}", warehouse=f"file://{root / 'warehouse'}")
    cat.create_namespace("sales")
    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "region", StringType(), required=False),
        NestedField(3, "customer", StringType(), required=False),
        NestedField(4, "amount", LongType(), required=False),
    )
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(), name="region"))
    orders = cat.create_table("sales.orders", schema=schema, partition_spec=spec)
    orders.append(pa.Table.from_pylist([
        {"id": 1, "region": "EU", "customer": "Ann Lee", "amount": 120},
        {"id": 2, "region": "US", "customer": "Bo Chan", "amount": 80},
    ], schema=schema.as_arrow()))
    orders = cat.load_table("sales.orders")
    orders.append(pa.Table.from_pylist([{"id": 3, "region": "EU", "customer": "Cy Ng", "amount": 300}], schema=schema.as_arrow()))
    orders = cat.load_table("sales.orders")
    orders.manage_snapshots().create_tag(orders.snapshots()[0].snapshot_id, "v1").commit()

    hidden_schema = Schema(NestedField(1, "id", LongType(), required=True))
    hidden = cat.create_table("sales.hidden", schema=hidden_schema)
    hidden.append(pa.Table.from_pylist([{"id": 1}], schema=hidden_schema.as_arrow()))

    print(json.dumps({"sales.orders": describe(cat.load_table("sales.orders"))}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
