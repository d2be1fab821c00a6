import type { Listing, Resource, Result, Service } from './result.js';
import type { OutputSession } from './session.js';
import type { OutputOptions } from './formats/writer.js';
import { showDocument } from './document.js';
import { writeChecks } from './wording/checks.js';
import { endCleanlyOnSignal } from '../util/interrupt.js';
import * as render from './formats/render.js';

/** Shows a result in the run's format, to stdout or the -o file. */
export async function showResult(result: Result, out: OutputSession): Promise<void> {
  if (result.kind === 'text') return out.io.write(result.text);
  if (result.kind === 'own') return result.write(out);
  if (result.kind === 'document') {
    return showDocument(result, out);
  }
  if (result.kind === 'service') return runService(result, out);
  if (result.kind === 'checks') {
    return writeChecks(result.checks, out);
  }
  const options = await out.outputOptions();
  if (result.kind === 'listing') return showListing(result, options);
  const value = await result.read();
  if (result.screen) return showScreen(value, result.screen, options);
  if (result.write) return result.write(value, options);
  return result.layout === 'sections' ? render.renderSections(value, options) : render.renderSingle(value, result.view, options);
}

/** Items page by page; with --json the listing's whole value when it has one; then, in a table, the listings after it. */
async function showListing(result: Listing, options: OutputOptions): Promise<void> {
  if (result.json && options.format === 'json') return render.renderSingle(result.json(), undefined, options);
  await render.renderListing(result.pages, result.view, options, { paged: result.paged });
  result.after?.(options.io);
  if (options.format !== 'table') return;
  for (const next of result.tablesAfter ?? []) {
    await options.io.write('\n');
    await showListing(next, options);
  }
}

/** A command's own screen (shape SCREEN), or its value as JSON, which --fields asks for as --jq does (never ignored). */
async function showScreen(value: unknown, screen: NonNullable<Resource['screen']>, options: OutputOptions): Promise<void> {
  if (options.format === 'json' || options.fields || options.fieldsHelp) {
    return render.renderSingle(value, undefined, { ...options, format: 'json' });
  }
  // Without loading the formats.
  await options.io.write(await screen(value, options));
}

/** A server, from its start to the run's signal: its announcement goes to the terminal's stdout at once, unpaged. */
async function runService(service: Service, out: OutputSession): Promise<void> {
  const restore = service.endsCleanly ? endCleanlyOnSignal() : undefined;
  try {
    const started = await service.start();
    try {
      out.io.stdout.write(started.announce);
      if (started.said !== undefined) out.io.info(started.said);
      await aborted(service.signal);
    } finally {
      await started.stop();
    }
  } finally {
    restore?.();
  }
}

function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
