/**
 * The formats every listing and resource is written in, and the ones `lk config set format` stores: the one list. A
 * command's own formats are declared with its output shape (src/output/shape.ts), which starts from this one.
 */
export const DATA_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
