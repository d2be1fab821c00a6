import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type ReadResourceResult } from '@modelcontextprotocol/server';
import { reviewPage, reviewPeriod, statusReading, yearInReview } from '../readings/composed.js';
import { statusScreen } from '../output/wording/status-text.js';
import { escapeHtml } from '../output/wording/feed-text.js';
import type { McpMirror, ToolHost } from './mirror.js';

/**
 * lk mcp's views, as the MCP Apps extension (io.modelcontextprotocol/ui, SEP-1865) defines them: ui:// resources of
 * HTML a host shows beside a tool's answer, the status tool's (ui://lk/status: lk status, as its screen prints it) and
 * the stats tool's (ui://lk/year/{year}: lk report's page of that year). Each is made when read, from the engine's
 * readings, and needs nothing else: styles inline, no font, image or script from anywhere, no link to another
 * host; its one script is inline, and only tells the host the view is ready and how tall it is (the extension's
 * handshake). A client without the extension never reads them and the tools' text stays what it was. As the
 * extension allows, they are left out of resources/list: the tools' _meta names them.
 */

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const VIEW_MIME = 'text/html;profile=mcp-app';
export const STATUS_VIEW = 'ui://lk/status';
const YEAR_VIEW = /^ui:\/\/lk\/year\/(.*)$/;

/** The view of a year's review. */
export const yearView = (year: string) => `ui://lk/year/${year}`;

/** The view of the year the stats tool reviews when asked for none: the last complete year (this one in December). */
export const defaultYearView = (mirror: McpMirror) => yearView(reviewPeriod(mirror.readings, {}).label);

/** A view's contents, or undefined when `uri` names no view. */
export async function readView(uri: string, host: ToolHost, mirror: McpMirror): Promise<ReadResourceResult | undefined> {
  if (uri === STATUS_VIEW) return viewOf(uri, await statusHtml(host, mirror));
  const year = YEAR_VIEW.exec(uri);
  if (!year) return undefined;
  if (!/^\d{4}$/.test(year[1]!))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri}: the year is four digits, e.g. ui://lk/year/2025`, { uri });
  const review = await yearInReview(mirror.readings, { year: year[1]! });
  if (review.empty) throw new ResourceNotFoundError(uri, `nothing to review: the mirror holds no dated event and no finished work in ${year[1]}`);
  return viewOf(uri, asView(withoutOutsideLinks(await reviewPage(review))));
}

function viewOf(uri: string, html: string): ReadResourceResult {
  return { contents: [{ uri, mimeType: VIEW_MIME, text: html, _meta: { ui: { prefersBorder: true } } }] };
}

/** lk status --offline as its screen shows it (80 columns, no colour), in a page of its own. */
async function statusHtml(host: ToolHost, mirror: McpMirror): Promise<string> {
  const status = await statusReading(mirror.readings, { offline: true });
  const colors = (await import('picocolors')).default.createColors(false);
  const screen = await statusScreen(status, { now: host.now(), colors }, 80);
  return asView(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="color-scheme" content="light dark">
<title>lk status</title>
<style>body{margin:0;padding:12px 16px;font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}pre{margin:0;white-space:pre-wrap}</style>
</head>
<body>
<pre>${screen.trimEnd().split('\n').map(escapeHtml).join('\n')}</pre>
</body>
</html>
`);
}

/** Nothing from anywhere: styles and the one script inline, no request of any kind. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * The extension's handshake, inline: ui/initialize to the host, then ui/notifications/initialized and the view's
 * size as it changes; ui/resource-teardown and ping answered. Opened outside a host (no parent), it does nothing.
 */
const HANDSHAKE = `<script>
(() => {
  if (window.parent === window) return;
  const send = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const size = () => send({ method: 'ui/notifications/size-changed', params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } });
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== window.parent || !message || message.jsonrpc !== '2.0') return;
    if (message.id === 'lk-view-init' && 'result' in message) {
      send({ method: 'ui/notifications/initialized' });
      size();
      new ResizeObserver(size).observe(document.documentElement);
    } else if (message.method === 'ui/resource-teardown' || message.method === 'ping') send({ id: message.id, result: {} });
  });
  send({ id: 'lk-view-init', method: 'ui/initialize', params: { appInfo: { name: 'lk', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } });
})();
</script>`;

/** A page made a view: its policy lets the inline handshake run (and nothing else), the handshake at its end. */
function asView(page: string): string {
  const policy = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;
  return page.replace(policy, `<meta http-equiv="Content-Security-Policy" content="${CSP}">`).replace('</body>', `${HANDSHAKE}\n</body>`);
}

/**
 * lk report's page links a best-rated work to its page on the service; a view links nowhere outside itself (a host
 * shows it in a sandbox that opens no link), so the title stays and the link goes.
 */
function withoutOutsideLinks(page: string): string {
  return page.replace(/<a href="https?:[^"]*"[^>]*>(.*?)<\/a>/g, '$1');
}
