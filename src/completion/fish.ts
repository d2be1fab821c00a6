import { flagNames, flagsAt, globalsAt, LOCAL_COMMANDS, type CommandNode, type CompletionTree, type FlagSpec } from './model.js';
import { oneLine } from './quote.js';

/**
 * A fish script: one `complete` line per subcommand and flag, each guarded by the command path the line is at,
 * which a small parser (`__lk_parse`, cached per command line) reads from the tokens before the cursor.
 */
export function fishScript(tree: CompletionTree): string {
  const name = tree.name;
  const p = `__${name}`;
  const pathOf = (node: CommandNode) => node.path.join(' ');
  const out: string[] = [];
  const line = (text = '') => out.push(text);

  line(`# fish completion for ${name}: generated from ${name}'s command tree by \`${name} completion fish\` (npm run completions); do not edit.`);
  line(`# Install: ${name} completion fish > ~/.config/fish/completions/${name}.fish`);
  line();
  line(`# Flags that take a value at the command path in $argv[1] ('' for ${name} itself), one a line.`);
  line(`function ${p}_value_flags`);
  const globalValueFlags = valueFlagNames(tree.globals);
  const byList = new Map<string, { paths: string[]; names: string[]; complete: boolean }>();
  for (const node of tree.nodes) {
    // A command with its own version of a global flag lists them all; the others add theirs to the global ones.
    const complete = globalsAt(tree, node).length < tree.globals.length;
    const names = valueFlagNames(complete ? flagsAt(tree, node) : node.flags);
    if (names.length === 0 && !complete) continue;
    const key = `${complete} ${names.join(' ')}`;
    const entry = byList.get(key) ?? { paths: [], names, complete };
    entry.paths.push(pathOf(node));
    byList.set(key, entry);
  }
  line('    switch $argv[1]');
  for (const { paths: at, names, complete } of byList.values()) {
    line(`        case ${at.map(fishWord).join(' ')}`);
    if (names.length > 0) line(`            printf '%s\\n' ${names.join(' ')}`);
    if (complete) line('            return');
  }
  line('    end');
  line(`    printf '%s\\n' ${globalValueFlags.join(' ')}`);
  line('end');
  line();
  line('# The subcommand of command path $argv[1] called $argv[2] (a name or an alias), if there is one.');
  line(`function ${p}_child`);
  line('    switch "$argv[1]|$argv[2]"');
  for (const node of tree.nodes) {
    for (const sub of node.subcommands) {
      line(`        case ${sub.names.map((subName) => fishWord(`${pathOf(node)}|${subName}`)).join(' ')}`);
      line(`            echo ${sub.names[0]}`);
    }
  }
  line('    end');
  line('end');
  line();
  line(`# Sets ${p}_path (e.g. "library list") and ${p}_operands from the tokens before the cursor; once per command line.`);
  line(`function ${p}_parse`);
  line('    set -l words (commandline -opc)');
  line('    set -l key (string join \\x1e -- $words)');
  line(`    test "$key" = "$${p}_parsed_line"; and return`);
  line(`    set -g ${p}_parsed_line $key`);
  line('    set -e words[1]');
  line('    set -l path');
  line('    set -l operands 0');
  line('    set -l operand_words');
  line('    set -l skip 0');
  line('    for word in $words');
  line('        if test $skip = 1');
  line('            set skip 0');
  line('            continue');
  line('        end');
  line('        switch $word');
  line("            case '--*=*'");
  line('                continue');
  line("            case '-?*'");
  line(`                contains -- $word (${p}_value_flags "$path"); and set skip 1`);
  line('                continue');
  line('        end');
  line('        set -l child');
  line(`        test $operands = 0; and set child (${p}_child "$path" $word)`);
  line('        if test -n "$child"');
  line('            set path $path $child');
  line('        else');
  line('            set operands (math $operands + 1)');
  line('            set -a operand_words $word');
  line('        end');
  line('    end');
  line(`    set -g ${p}_path "$path"`);
  line(`    set -g ${p}_operands $operands`);
  line(`    set -g ${p}_operand_words $operand_words`);
  line('end');
  line();
  line(`function ${p}_at --description 'Is the command line at one of these command paths?'`);
  line(`    ${p}_parse`);
  line(`    contains -- "$${p}_path" $argv`);
  line('end');
  line();
  line(`function ${p}_operand --description 'Is the next word operand $argv[2] (from 0; "more": or later) of command path $argv[1]?'`);
  line(`    ${p}_parse`);
  line(`    test "$${p}_path" = "$argv[1]"; or return 1`);
  line('    if test "$argv[3]" = more');
  line(`        test $${p}_operands -ge $argv[2]`);
  line('    else');
  line(`        test $${p}_operands = $argv[2]`);
  line('    end');
  line('end');
  line();
  line(`function ${p}_profiles --description 'Stored profile names'`);
  line('    set -l command (commandline -opc)[1]');
  line('    $command completion --profiles 2>/dev/null');
  line('end');
  line();
  line(`function ${p}_dynamic --description 'Values known at Tab time: what lk ARGS prints ($argv[1] = 1: the operands typed before are added)'`);
  line(`    ${p}_parse`);
  line('    set -l command (commandline -opc)[1]');
  line('    set -l args $argv[2..-1]');
  line(`    test "$argv[1]" = 1; and set -a args $${p}_operand_words`);
  line('    $command $args 2>/dev/null');
  line('end');
  line();
  line('# No file names unless a flag asks for a file.');
  line(`complete -c ${name} -f`);

  for (const node of tree.nodes) {
    const title = [name, ...node.path].join(' ');
    const atOperand = (index: number, more = false) => fishCondition(`${p}_operand ${fishWord(pathOf(node))} ${index}${more ? ' more' : ''}`);
    if (node.subcommands.length > 0) {
      line();
      line(`# ${title}: subcommands`);
      for (const sub of node.subcommands) {
        line(`complete -c ${name} -n ${atOperand(0)} -a ${sub.names[0]} -d ${fishQuote(oneLine(sub.description))}`);
      }
      // This machine's aliases and extensions, beside the commands.
      if (node.path.length === 0) {
        for (const local of LOCAL_COMMANDS) {
          const what = local.args.at(-1)!.replace(/^--|es$|s$/g, '');
          line(`complete -c ${name} -n ${atOperand(0)} -a ${fishQuote(`(${p}_dynamic 0 ${local.args.join(' ')})`)} -d ${what}`);
        }
      }
    } else if (node.operands.some((operand) => operand.choices || operand.dynamic)) {
      line();
      line(`# ${title}: operands`);
      node.operands.forEach((operand, index) => {
        if (operand.dynamic) {
          const call = `(${p}_dynamic ${operand.dynamic.withOperands ? 1 : 0} ${operand.dynamic.args.join(' ')})`;
          line(`complete -c ${name} -n ${atOperand(index, operand.variadic)} -a ${fishQuote(call)} -d ${fishQuote(operand.name)}`);
          return;
        }
        if (!operand.choices) return;
        line(`complete -c ${name} -n ${atOperand(index, operand.variadic)} -a ${fishQuote(operand.choices.join(' '))} -d ${fishQuote(operand.name)}`);
      });
    }
  }

  // One line per flag, guarded by every command path it applies at.
  const paths = new Map<string, { flag: FlagSpec; paths: string[] }>();
  for (const node of tree.nodes) {
    for (const flag of node.flags) {
      const key = JSON.stringify(flag);
      const entry = paths.get(key) ?? { flag, paths: [] };
      entry.paths.push(pathOf(node));
      paths.set(key, entry);
    }
  }
  line();
  line('# Flags of each command');
  for (const { flag, paths: at } of paths.values()) {
    line(flagLine(name, flag, fishCondition(`${p}_at ${at.map(fishWord).join(' ')}`)));
  }
  line();
  line('# Global flags, accepted after any command');
  for (const flag of tree.globals) {
    const replacedAt = tree.nodes.filter((node) => !globalsAt(tree, node).includes(flag)).map(pathOf);
    const condition = replacedAt.length > 0 ? fishCondition(`not ${p}_at ${replacedAt.map(fishWord).join(' ')}`) : undefined;
    line(flagLine(name, flag, condition));
  }
  return `${out.join('\n')}\n`;
}

function flagLine(name: string, flag: FlagSpec, condition: string | undefined): string {
  const parts = [`complete -c ${name}`];
  if (condition) parts.push(`-n ${condition}`);
  if (flag.short) parts.push(`-s ${flag.short.slice(1)}`);
  if (flag.long) parts.push(`-l ${flag.long.slice(2)}`);
  switch (flag.value?.kind) {
    case 'choices':
      parts.push(`-x -a ${fishQuote(flag.value.choices.join(' '))}`);
      break;
    case 'profiles':
      parts.push(`-x -a ${fishQuote(`(__${name}_profiles)`)}`);
      break;
    case 'files':
      parts.push('-r -F');
      break;
    case 'directories':
      parts.push(`-x -a ${fishQuote('(__fish_complete_directories (commandline -ct))')}`);
      break;
    case 'free':
      parts.push('-x');
      break;
    default:
      break;
  }
  parts.push(`-d ${fishQuote(oneLine(flag.description))}`);
  return parts.join(' ');
}

/** A literal word for fish: inside single quotes only \ and ' are special. */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

/** A word as fish reads it: bare when it is plain, quoted otherwise. */
function fishWord(text: string): string {
  return /^[A-Za-z0-9_-]+$/.test(text) ? text : fishQuote(text);
}

/** A `-n` condition, double-quoted so that the words inside may use single quotes. */
function fishCondition(text: string): string {
  return `"${text.replace(/[\\"$]/g, (char) => `\\${char}`)}"`;
}

function valueFlagNames(flags: FlagSpec[]): string[] {
  return flags.filter((flag) => flag.value).flatMap(flagNames);
}
