import * as z from 'zod';

/**
 * A tool's zod schema as JSON Schema every client reads: the Inspector's strict mode (and the hosts behind it) warn
 * on a keyword that lists two types (zod writes `type: ["string", "null"]` for a nullable string) and on a schema
 * with no keyword at all (zod writes `{}` for z.unknown() and for a loose object's other fields). Here a type list
 * becomes `anyOf` of one type each, and an empty schema says what it holds: any JSON value, as six types in `anyOf`
 * (no recursion, no `$ref`), which accepts exactly what an empty schema did.
 */

type Schema = Record<string, unknown>;

export const ANY_JSON_VALUE: Schema = Object.freeze({
  description: 'any JSON value',
  anyOf: ['string', 'number', 'boolean', 'null', 'array', 'object'].map((type) => ({ type })),
});

export function portableSchema(schema: z.ZodType, io: 'input' | 'output'): Schema {
  return portable(z.toJSONSchema(schema, { io }) as Schema);
}

/** Keywords whose value is one schema, and those whose value is a list of them or a map of names to them. */
const ONE = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** Words that say something of a schema without constraining it: a schema of only these is empty. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

function portable(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.includes(key) && isSchema(value)) out[key] = portable(filled(value));
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((each) => (isSchema(each) ? portable(filled(each)) : each));
    else if (MAP.includes(key) && isSchema(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, each]) => [name, isSchema(each) ? portable(filled(each)) : each]));
    else out[key] = value;
  }
  return untyped(out);
}

/** `type: [a, b]` as `anyOf: [{ type: a }, { type: b }]` (beside any anyOf already there, through allOf). */
function untyped(schema: Schema): Schema {
  const { type, ...rest } = schema;
  if (!Array.isArray(type)) return schema;
  const choices = { anyOf: type.map((one: unknown) => ({ type: one })) };
  if (rest.anyOf === undefined) return { ...rest, ...choices };
  const { anyOf, ...others } = rest;
  return { ...others, allOf: [...((others.allOf as unknown[]) ?? []), { anyOf }, choices] };
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An empty schema (`{}`, or only annotations) as ANY_JSON_VALUE, its annotations kept. */
function filled(schema: Schema): Schema {
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key)) ? { ...ANY_JSON_VALUE, ...schema } : schema;
}
