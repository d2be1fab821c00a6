import { READINGS } from '../readings/table.js';
import { DESCRIPTIONS } from './descriptions.js';
import { madeToolReadings } from './reading-tools.js';

/**
 * The names of every tool lk mcp serves — those written with their descriptions, and those made from the readings —
 * for lk mcp --tools, checked before the server and the SDK load.
 */
const written = Object.keys(DESCRIPTIONS);
export const TOOL_NAMES: readonly string[] = [...written, ...madeToolReadings(READINGS, new Set(written)).map((reading) => reading.surfaces.tool)];
