import { prettyJson } from './pretty-json.js';
import { pickPaths } from './fields.js';
import type { Formatter, OutputOptions } from './writer.js';

function shaped(item: unknown, options: OutputOptions): unknown {
  return options.fields ? pickPaths(item, options.fields) : item;
}

/** On a terminal, indented and coloured (src/output/formats/pretty-json.ts); elsewhere exactly the compact text. */
function itemText(item: unknown, options: OutputOptions): string {
  const text = JSON.stringify(shaped(item, options));
  return options.io.stdoutIsTTY && text !== undefined ? `  ${prettyJson(text, { colors: options.display.colors, depth: 1 })}` : text;
}

/** `--json` of a listing, as a pipe receives it: one compact item a line inside the array (lk serve's bodies too). */
export function jsonListingText(items: readonly unknown[]): string {
  return items.length === 0 ? '[]\n' : `[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`;
}

/** `--json` of one resource, as a pipe receives it: compact, one line (lk serve's bodies too). */
export function jsonValueText(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** An array for listings, written item by item so that --all never holds the library; the object for one resource. */
export const json: Formatter = {
  listing(_view, options) {
    let first = true;
    return {
      async write(items) {
        let text = '';
        for (const item of items) {
          text += `${first ? '[\n' : ',\n'}${itemText(item, options)}`;
          first = false;
        }
        await options.io.write(text);
      },
      async end() {
        await options.io.write(first ? '[]\n' : '\n]\n');
      },
    };
  },
  async single(value, _view, options) {
    const text = JSON.stringify(shaped(value, options));
    await options.io.write(`${options.io.stdoutIsTTY && text !== undefined ? prettyJson(text, { colors: options.display.colors }) : text}\n`);
  },
};

/** One item per line; uncoloured, so on a terminal the characters it would act on are shown escaped (writeExact). */
export const ndjson: Formatter = {
  listing(_view, options) {
    return {
      async write(items) {
        let text = '';
        for (const item of items) text += `${JSON.stringify(shaped(item, options))}\n`;
        await options.io.writeExact(text);
      },
      async end() {},
    };
  },
  async single(value, _view, options) {
    await options.io.writeExact(`${JSON.stringify(shaped(value, options))}\n`);
  },
};
