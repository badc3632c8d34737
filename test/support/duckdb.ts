/** DuckDB (dev only) as the independent reader of the Parquet files linkd writes. */
import { DuckDBInstance } from '@duckdb/node-api'

/** The rows of one query on a fresh in-memory DuckDB (BIGINTs as bigint, timestamps as Date). */
export async function duckRows(query: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    return (await connection.runAndReadAll(query)).getRowObjectsJS()
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/** A path as a DuckDB string literal. */
export const duckPath = (path: string): string => `'${path.replace(/'/g, "''")}'`
