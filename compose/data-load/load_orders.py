"""The demo's table sales.orders in the compose catalog (runs once, after polaris-setup).

The same two rows as lakegate's demo (server/demo.ts), written through Polaris's REST
catalog as root (Ranger's polaris policies allow root everything in the catalog) and to
SeaweedFS with the stack's storage keys: the store has no STS, so Polaris vends none.
Idempotent: an existing table is left as it is.
"""
import os
import sys
from decimal import Decimal

import pyarrow as pa
from pyiceberg.catalog import load_catalog
from pyiceberg.exceptions import NamespaceAlreadyExistsError, NoSuchTableError
from pyiceberg.schema import Schema
from pyiceberg.types import DecimalType, IntegerType, NestedField, StringType

SCHEMA = Schema(
    NestedField(1, "id", IntegerType(), required=False),
    NestedField(2, "ssn", StringType(), required=False),
    NestedField(3, "amount", DecimalType(10, 2), required=False),
    NestedField(4, "region", StringType(), required=False),
)
ROWS = pa.table(
    {
        "id": pa.array([1, 2], pa.int32()),
        "ssn": pa.array(["111-11-1111", "222-22-2222"], pa.string()),
        "amount": pa.array([Decimal("100.00"), Decimal("250.50")], pa.decimal128(10, 2)),
        "region": pa.array(["EU", "US"], pa.string()),
    }
)


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        sys.exit(f"data-load: {name} is not set")
    return value


def main() -> None:
    catalog = load_catalog(
        "lakehouse",
        type="rest",
        uri=env("POLARIS_URI"),
        warehouse=env("POLARIS_CATALOG"),
        credential=f"root:{env('POLARIS_ROOT_SECRET')}",
        scope="PRINCIPAL_ROLE:ALL",
        **{
            "s3.endpoint": env("S3_ENDPOINT"),
            "s3.region": env("S3_REGION"),
            "s3.access-key-id": env("S3_ACCESS_KEY"),
            "s3.secret-access-key": env("S3_SECRET_KEY"),
            "s3.path-style-access": "true",
        },
    )
    try:
        catalog.create_namespace("sales")
    except NamespaceAlreadyExistsError:
        pass
    try:
        catalog.load_table("sales.orders")
        print("data-load: sales.orders exists; left as it is")
        return
    except NoSuchTableError:
        pass
    table = catalog.create_table("sales.orders", schema=SCHEMA)
    table.append(ROWS)
    print(f"data-load: sales.orders created with {len(table.scan().to_arrow())} rows")


if __name__ == "__main__":
    main()
