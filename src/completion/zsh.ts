import { flagNames, globalsAt, LOCAL_COMMANDS, type CommandNode, type CompletionTree, type FlagSpec, type OperandSpec } from './model.js';
import { oneLine, singleQuote } from './quote.js';

/**
 * A zsh completion function in the usual shape: one `_arguments` call per command, descending through
 * `*:: :->subcommand`. Works autoloaded from $fpath (as `_lk`) or sourced after compinit.
 */
export function zshScript(tree: CompletionTree): string {
  const name = tree.name;
  const out: string[] = [];
  const line = (text = '') => out.push(text);
  const nodeFunction = (node: CommandNode) => [`_${name}_cmd`, ...node.path].join('__');
  const subcommandsFunction = (node: CommandNode) => [`_${name}_subcommands`, ...node.path].join('__');
  const globalSpecs = new Map(tree.globals.map((flag) => [flag, optionSpecs(flag, name)]));

  line(`#compdef ${name}`);
  line(`# zsh completion for ${name}: generated from ${name}'s command tree by \`${name} completion zsh\` (npm run completions); do not edit.`);
  line(`# Install: ${name} completion zsh > ~/.zsh/completions/_${name}   (a folder on $fpath, set before compinit runs)`);
  line(`#     or, in ~/.zshrc after compinit: source <(${name} completion zsh)`);
  line();
  line(`_${name}() {`);
  line(`  # The command as typed, for \`${name} completion --profiles\` (dynamically scoped: the functions below see it).`);
  line(`  local _${name}_command=$words[1]`);
  line(`  local -a _${name}_global_options`);
  line(`  _${name}_global_options=(`);
  for (const specs of globalSpecs.values()) for (const spec of specs) line(`    ${spec}`);
  line('  )');
  line(`  ${nodeFunction(tree.root)} "$@"`);
  line('}');

  for (const node of tree.nodes) {
    const title = [name, ...node.path].join(' ');
    line();
    line(`# ${title}`);
    line(`${nodeFunction(node)}() {`);
    line('  local curcontext=$curcontext state state_descr line ret=1');
    line('  local -A opt_args');
    const replaced = tree.globals.filter((flag) => !globalsAt(tree, node).includes(flag));
    let globals = `$_${name}_global_options`;
    if (replaced.length > 0) {
      // This command has its own version of these global flags.
      line('  local -a replaced');
      line(`  replaced=(${replaced.flatMap((flag) => globalSpecs.get(flag)!).join(' ')})`);
      globals = `\${_${name}_global_options:|replaced}`;
    }
    const specs = [globals, ...node.flags.flatMap((flag) => optionSpecs(flag, name))];
    if (node.subcommands.length > 0) specs.push(singleQuote(`: :${subcommandsFunction(node)}`), singleQuote('*:: :->subcommand'));
    else specs.push(...node.operands.map((operand) => singleQuote(operandSpec(operand, name))));
    // -A: after the subcommand's name, its own function reads the flags (it knows the ones that differ there).
    line(`  _arguments -C -S${node.subcommands.length > 0 ? ` -A '-*'` : ''} \\`);
    for (const spec of specs) line(`    ${spec} \\`);
    out[out.length - 1] = `${out[out.length - 1]!.slice(0, -2)} && ret=0`;
    if (node.subcommands.length > 0) {
      line('  if [[ $state == subcommand ]]; then');
      line(`    curcontext=\${curcontext%:*:*}:${[name, ...node.path].join('-')}-$words[1]:`);
      line('    case $words[1] in');
      for (const sub of node.subcommands) line(`    (${sub.names.join('|')}) ${nodeFunction(sub)} && ret=0 ;;`);
      line('    esac');
      line('  fi');
    }
    line('  return ret');
    line('}');
    if (node.subcommands.length > 0) {
      line();
      line(`${subcommandsFunction(node)}() {`);
      line('  local -a subcommands');
      line('  subcommands=(');
      for (const sub of node.subcommands) line(`    ${singleQuote(`${sub.names[0]}:${oneLine(sub.description)}`)}`);
      line('  )');
      if (node.path.length === 0) {
        line("  # This machine's aliases and extensions, beside the commands.");
        line('  local local_name');
        for (const local of LOCAL_COMMANDS) {
          const what = local.args.at(-1)!.replace(/^--|es$|s$/g, '');
          line(`  for local_name in \${(f)"$(_call_program ${what} \${_${name}_command:-${name}} ${local.args.join(' ')} 2>/dev/null)"}; do`);
          line(`    [[ -n $local_name ]] && subcommands+=("\${local_name}:${what}")`);
          line('  done');
        }
      }
      line(`  _describe -t subcommands ${singleQuote(`${title} subcommand`)} subcommands`);
      line('}');
    }
  }

  line();
  line(`_${name}_profiles() {`);
  line('  local -a profiles');
  line(`  profiles=(\${(f)"$(_call_program profiles \${_${name}_command:-${name}} completion --profiles 2>/dev/null)"})`);
  line(`  _wanted profiles expl 'stored profile' compadd -a profiles`);
  line('}');
  line();
  line(`# Values known at Tab time: what \`${name} ARGS…\` prints, one a line ($1 = 1: the operands typed before are added).`);
  line(`_${name}_dynamic() {`);
  line('  local with=$1; shift');
  line('  local -a args values');
  line('  args=("$@")');
  line("  # $words is this command's line from its name on: the words before the cursor, less flags, are its operands.");
  line('  (( with )) && args+=("${(@)${(@)words[2,CURRENT-1]}:#-*}")');
  line(`  values=(\${(f)"$(_call_program values \${_${name}_command:-${name}} "\${(@)args}" 2>/dev/null)"})`);
  line(`  _wanted values expl value compadd -a values`);
  line('}');
  line();
  line('if [[ $zsh_eval_context[-1] == loadautofunc ]]; then');
  line(`  # Autoloaded from $fpath: this file is the body of _${name} on its first call.`);
  line(`  _${name} "$@"`);
  line('else');
  line(`  compdef _${name} ${name}`);
  line('fi');
  return `${out.join('\n')}\n`;
}

/** `_arguments` specs of one flag: one per name, each excluding the other name unless the flag repeats. */
function optionSpecs(flag: FlagSpec, name: string): string[] {
  const names = flagNames(flag);
  const exclusion = flag.repeatable ? '*' : names.length > 1 ? `(${names.join(' ')})` : '';
  const description = `[${escapeSpec(oneLine(flag.description))}]`;
  const value = flag.value ? `:${escapeSpec(flag.value.name)}:${valueAction(flag, name)}` : '';
  // `--flag=` takes `--flag=VALUE` or `--flag VALUE`; `-f+` takes `-fVALUE` or `-f VALUE`.
  const suffix = (flagName: string) => (flag.value ? (flagName.startsWith('--') ? '=' : '+') : '');
  return names.map((flagName) => singleQuote(`${exclusion}${flagName}${suffix(flagName)}${description}${value}`));
}

function valueAction(flag: FlagSpec, name: string): string {
  switch (flag.value?.kind) {
    case 'choices':
      return `(${flag.value.choices.map(escapeWord).join(' ')})`;
    case 'profiles':
      return `_${name}_profiles`;
    case 'files':
      return '_files';
    case 'directories':
      return '_files -/';
    default:
      return ' '; // a space: show the value's name, offer nothing
  }
}

function operandSpec(operand: OperandSpec, name: string): string {
  // In braces: run as written (a plain function action would get compadd's options before its own arguments).
  const action = operand.dynamic
    ? `{_${name}_dynamic ${operand.dynamic.withOperands ? 1 : 0} ${operand.dynamic.args.map(escapeWord).join(' ')}}`
    : operand.choices
      ? `(${operand.choices.map(escapeWord).join(' ')})`
      : ' ';
  const position = operand.variadic ? '*:' : operand.required ? ':' : '::';
  return `${position}${escapeSpec(operand.name)}:${action}`;
}

/** Descriptions and messages inside an `_arguments` spec. */
function escapeSpec(text: string): string {
  return text.replace(/[\\[\]:]/g, (char) => `\\${char}`);
}

/** A word inside an `(a b c)` action. */
function escapeWord(text: string): string {
  return text.replace(/[^A-Za-z0-9_.,+@%/=-]/g, (char) => `\\${char}`);
}
