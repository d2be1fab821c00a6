import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree, type CompletionShell } from './model.js';
import { zshScript } from './zsh.js';
import { powershellScript } from './powershell.js';

/** The completion script for `shell`, generated from the program's own command tree. */
export function completionScript(program: Command, shell: CompletionShell): string {
  const tree = completionTree(program);
  switch (shell) {
    case 'bash':
      return bashScript(tree);
    case 'zsh':
      return zshScript(tree);
    case 'fish':
      return fishScript(tree);
    case 'powershell':
      return powershellScript(tree);
  }
}
