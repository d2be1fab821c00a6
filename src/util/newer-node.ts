/**
 * The Node the mirror needs (node:sqlite without a flag, from 22.13), and the two ways to get one, in every line that
 * says so: lk's single file, which carries its own Node, or a newer Node.
 */
export const MIRROR_NODE = '22.13';

export const NEWER_NODE_WAYS =
  "Use lk's single file, which carries its own Node (the release binary `lk`, or `npm run sea` in lk's sources), " +
  'or install Node 22.13 or later (https://nodejs.org, or `nvm install 24`).';

/** One line: what needs the newer Node, this Node, and the ways to get one. */
export function needsNewerNode(what: string, version = process.versions.node): string {
  return `${what} needs Node ${MIRROR_NODE} or later (for its built-in SQLite, node:sqlite); this is Node ${version}. ${NEWER_NODE_WAYS}`;
}
