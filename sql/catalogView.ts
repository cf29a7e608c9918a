/**
 * What the planner needs to know about the user's tables. catalog/ implements
 * it (catalog/catalog.ts `Catalog` extends it); it lives here because sql/
 * may not import catalog/.
 */
export interface CatalogColumn {
  name: string;
  /** DuckDB type as DuckDB prints it, e.g. DECIMAL(10,2): sql/pgTypes.ts maps it */
  duckType: string;
  nullable: boolean;
}

export interface CatalogTable {
  schema: string;
  name: string;
  columns: CatalogColumn[];
}

export interface RelationCatalog {
  /** schemas this user may see, in the PostgreSQL database the session is connected to */
  listSchemas(): string[];
  /** undefined when missing or not visible to this user: the two are indistinguishable */
  getTable(schema: string, name: string): CatalogTable | undefined;
}
