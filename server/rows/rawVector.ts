/**
 * Direct access to a DuckDB vector's memory through @duckdb/node-bindings
 * (the C API: duckdb_vector_get_data / duckdb_vector_get_validity), so the
 * encoder reads typed-array views instead of one native call per value.
 * Result chunks from the C API are flat vectors, so item i is at i * width.
 */
import duckdb from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import { endianness } from 'node:os';

export type RawVector = duckdb.Vector;

// Every view below reinterprets DuckDB's in-memory little-endian layout.
if (endianness() !== 'LE') throw new Error('lakegate: the row encoder assumes a little-endian host');

export const columnVector = (chunk: DuckDBDataChunk, column: number): RawVector =>
  duckdb.data_chunk_get_vector(chunk.chunk, column);

/** The vector's data as bytes (a view over DuckDB's memory, valid while the chunk lives). */
export function vectorBytes(vec: RawVector, byteCount: number): Uint8Array<ArrayBuffer> {
  if (byteCount === 0) return new Uint8Array(0);
  // The bindings hand out a view over an ordinary (external) ArrayBuffer.
  return duckdb.vector_get_data(vec, byteCount) as Uint8Array<ArrayBuffer>;
}

/** The validity mask (bit i of byte i >> 3), or null when every item is valid. */
export function vectorValidity(vec: RawVector, count: number): Uint8Array | null {
  if (count === 0) return null;
  return duckdb.vector_get_validity(vec, Math.ceil(count / 64) * 8) ?? null;
}

export const listChild = (vec: RawVector): RawVector => duckdb.list_vector_get_child(vec);
export const listChildSize = (vec: RawVector): number => duckdb.list_vector_get_size(vec);
export const structChild = (vec: RawVector, index: number): RawVector => duckdb.struct_vector_get_child(vec, index);
export const arrayChild = (vec: RawVector): RawVector => duckdb.array_vector_get_child(vec);

/**
 * Bytes of the duckdb_string_t at item i of a VARCHAR/BLOB/BIT vector:
 * 4-byte length, then up to 12 inline bytes, or a 4-byte prefix and a pointer.
 * Inline strings are a view; longer ones cost one native call.
 */
export function stringBytes(data: Uint8Array, lengths: Uint32Array, i: number): Uint8Array {
  const len = lengths[i * 4]!;
  const at = data.byteOffset + i * 16;
  if (len <= 12) return new Uint8Array(data.buffer, at + 4, len);
  return duckdb.get_data_from_pointer(data.buffer as ArrayBuffer, at + 8, len);
}
