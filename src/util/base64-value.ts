/**
 * A BLOB read from SQLite, as lk writes it (lk sql, the mcp sql tool): its bytes in standard base64 (RFC 4648, with
 * padding). JSON holds it as `{"$base64": true, "encoded": "…"}`, the form sqlite-utils and Datasette write (toJSON
 * gives it); csv, tsv and table cells hold the base64 text alone (cellText). Either decodes back to the bytes.
 *
 * The text is kept in a private field: the value has no own keys, so the flat formats take it as one leaf (one
 * column), not as an object to spread into columns.
 */
export class Base64Value {
  readonly #encoded: string;

  constructor(encoded: string) {
    this.#encoded = encoded;
  }

  static of(bytes: Uint8Array): Base64Value {
    return new Base64Value(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'));
  }

  /** The base64 text. */
  get encoded(): string {
    return this.#encoded;
  }

  toJSON(): { $base64: true; encoded: string } {
    return { $base64: true, encoded: this.#encoded };
  }

  toString(): string {
    return this.#encoded;
  }
}
