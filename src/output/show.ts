import type { Result } from './result.js';
import type { OutputSession } from './session.js';
import type { StatusShown } from './status-text.js';
import type { OutputOptions } from './writer.js';

/** Shows a result in the run's format, to stdout or the -o file. */
export async function showResult(result: Result, out: OutputSession): Promise<void> {
  if (result.kind === 'text') return out.io.write(result.text);
  if (result.kind === 'profile-status') {
    const { writeProfileStatus } = await import('./auth-status.js');
    return writeProfileStatus(result.reports, result.configFile, out);
  }
  if (result.kind === 'checks') {
    const { writeChecks } = await import('./checks.js');
    return writeChecks(result.checks, out);
  }
  const options = await out.outputOptions();
  if (result.kind === 'listing') {
    const render = await import('./render.js');
    await render.renderListing(result.pages, result.view, options, { paged: result.paged });
    return result.after?.(options.io);
  }
  const value = await result.read();
  const layout = result.layout ?? 'view';
  if (layout === 'status') return showStatus(value as StatusShown, options);
  const render = await import('./render.js');
  switch (layout) {
    case 'sections':
      return render.renderSections(value, options);
    case 'account':
      return render.renderAccount(value, options);
    case 'list':
      return render.renderListWithItems(value, options);
    case 'view':
      return render.renderSingle(value, result.view, options);
  }
}

/** lk status (shape SCREEN): its screen, or its object as JSON, which --fields asks for as --jq does (never ignored). */
async function showStatus(status: StatusShown, options: OutputOptions): Promise<void> {
  if (options.format === 'json' || options.fields || options.fieldsHelp) {
    const { renderSingle } = await import('./render.js');
    return renderSingle(status, undefined, { ...options, format: 'json' });
  }
  // Without loading the formats.
  const { statusScreen } = await import('./status-text.js');
  await options.io.write(await statusScreen(status, options.display, options.io.columns));
}
