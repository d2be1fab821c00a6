import type { Result } from './result.js';
import type { OutputSession } from './session.js';

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
  const render = await import('./render.js');
  if (result.kind === 'listing') return render.renderListing(result.pages, result.view, options, { paged: result.paged });
  const value = await result.read();
  switch (result.layout ?? 'view') {
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
