import { readdirSync, readFileSync } from 'node:fs';

// Processes as /proc shows them (Linux): a process's children, and whether one still runs.

/**
 * The running processes whose parent is `pid` (and whose command line holds `holding`): the children lists of its
 * threads in /proc (a few small files, not a scan of every process).
 */
export function childrenOf(pid: number, holding = ''): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children: number[];
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      continue;
    }
    for (const child of children) {
      try {
        if (running(child) && readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(holding)) found.push(child);
      } catch {
        // gone while we looked
      }
    }
  }
  return found;
}

/** True while `pid` runs (a zombie waiting for its parent to read its status has stopped running). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
