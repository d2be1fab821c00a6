import { flagNames, flagsAt, globalsAt, LOCAL_COMMANDS, type CommandNode, type CompletionTree, type FlagSpec } from './model.js';
import { singleQuote } from './quote.js';

/**
 * A bash script with the whole tree as `case` tables: nothing runs at Tab time but bash, except `lk completion
 * --profiles` for `--profile`. Needs bash 4 (compopt, mapfile), not the bash-completion package.
 */
export function bashScript(tree: CompletionTree): string {
  const p = `__${tree.name}`;
  const pathOf = (node: CommandNode) => node.path.join(' ');
  const out: string[] = [];
  const line = (text = '') => out.push(text);

  line(`# bash completion for ${tree.name}                                  -*- shell-script -*-`);
  line(`# Generated from ${tree.name}'s command tree by \`${tree.name} completion bash\` (npm run completions); do not edit.`);
  line(`# Install: ${tree.name} completion bash > ~/.local/share/bash-completion/completions/${tree.name}`);
  line(`#     or, in ~/.bashrc: source <(${tree.name} completion bash)`);
  line();

  const globalFlags = tree.globals.flatMap(flagNames).join(' ');
  const globalValueFlags = valueFlagNames(tree.globals).join(' ');
  line(`# Sets ${p}_subs, ${p}_flags and ${p}_value_flags for the command path in $1 ('' for ${tree.name} itself).`);
  line(`${p}_node() {`);
  line(`    local globals=${singleQuote(globalFlags)}`);
  line(`    local global_values=${singleQuote(globalValueFlags)}`);
  line(`    ${p}_subs= ${p}_flags=$globals ${p}_value_flags=$global_values`);
  line('    case $1 in');
  for (const node of tree.nodes) {
    const assignments: string[] = [];
    if (node.subcommands.length > 0) assignments.push(`${p}_subs=${singleQuote(node.subcommands.map((sub) => sub.names[0]).join(' '))}`);
    if (globalsAt(tree, node).length < tree.globals.length) {
      // This command has its own version of a global flag: its lists in full.
      const flags = flagsAt(tree, node);
      assignments.push(`${p}_flags=${singleQuote(flags.flatMap(flagNames).join(' '))}`);
      assignments.push(`${p}_value_flags=${singleQuote(valueFlagNames(flags).join(' '))}`);
    } else if (node.flags.length > 0) {
      assignments.push(`${p}_flags="${node.flags.flatMap(flagNames).join(' ')} $globals"`);
      const valueFlags = valueFlagNames(node.flags);
      if (valueFlags.length > 0) assignments.push(`${p}_value_flags="${valueFlags.join(' ')} $global_values"`);
    }
    if (assignments.length === 0) continue;
    line(`    ${singleQuote(pathOf(node))})`);
    for (const assignment of assignments) line(`        ${assignment}`);
    line('        ;;');
  }
  line('    esac');
  line('}');
  line();

  line(`# Sets ${p}_name to the subcommand of command path $1 called $2 (a name or an alias); fails when there is none.`);
  line(`${p}_child() {`);
  line(`    case $1\\|$2 in`);
  for (const node of tree.nodes) {
    for (const sub of node.subcommands) {
      const patterns = sub.names.map((name) => singleQuote(`${pathOf(node)}|${name}`));
      line(`    ${patterns.join(' | ')}) ${p}_name=${sub.names[0]} ;;`);
    }
  }
  line('    *) return 1 ;;');
  line('    esac');
  line('}');
  line();

  line(`# Sets ${p}_kind (words, profiles, files or dirs) and ${p}_words for the value of flag $2 at command path $1.`);
  line(`${p}_value() {`);
  line(`    ${p}_kind= ${p}_words=`);
  line(`    case $1\\|$2 in`);
  // Command-specific flags first: they replace a global flag of the same name.
  const cases = new Map<string, string[]>();
  const addCase = (pattern: string, flag: FlagSpec) => {
    const action = valueAction(flag, p);
    if (action) cases.set(action, [...(cases.get(action) ?? []), pattern]);
  };
  for (const node of tree.nodes) {
    for (const flag of node.flags) for (const name of flagNames(flag)) addCase(singleQuote(`${pathOf(node)}|${name}`), flag);
  }
  for (const flag of tree.globals) for (const name of flagNames(flag)) addCase(`*${singleQuote(`|${name}`)}`, flag);
  for (const [action, patterns] of cases) line(`    ${patterns.join(' | ')}) ${action} ;;`);
  line('    esac');
  line('}');
  line();

  line(`# Sets ${p}_words to the values of operand $2 (from 0) at command path $1, or ${p}_dynamic to the words after`);
  line(`# ${tree.name} that print them at Tab time (${p}_with_operands: followed by the operands typed before).`);
  line(`${p}_operand() {`);
  line(`    ${p}_words= ${p}_dynamic= ${p}_with_operands=`);
  line(`    case $1\\|$2 in`);
  for (const node of tree.nodes) {
    node.operands.forEach((operand, index) => {
      if (operand.dynamic && !operand.variadic) {
        const withOperands = operand.dynamic.withOperands ? ` ${p}_with_operands=1` : '';
        line(`    ${singleQuote(`${pathOf(node)}|${index}`)}) ${p}_dynamic=${singleQuote(operand.dynamic.args.join(' '))}${withOperands} ;;`);
        return;
      }
      const words = `${p}_words=${singleQuote((operand.choices ?? []).join(' '))}`;
      if (operand.variadic) {
        if (operand.choices) line(`    ${singleQuote(`${pathOf(node)}|`)}*) ${words} ;;`);
      } else if (operand.choices || node.operands.slice(index + 1).some((later) => later.variadic && later.choices)) {
        line(`    ${singleQuote(`${pathOf(node)}|${index}`)}) ${words} ;;`);
      }
    });
  }
  line('    esac');
  line('}');
  line();

  line(`_${tree.name}() {`);
  line(`    local cur=\${COMP_WORDS[COMP_CWORD]} path= flag= prefix= word i operands=0 skip=0`);
  line(`    local ${p}_subs ${p}_flags ${p}_value_flags ${p}_name ${p}_kind ${p}_words ${p}_dynamic ${p}_with_operands`);
  line('    local -a candidates ops');
  line('    COMPREPLY=()');
  line('    # The words before the cursor: subcommands make the path, flags are passed over with their values.');
  line('    for ((i = 1; i < COMP_CWORD; i++)); do');
  line('        word=${COMP_WORDS[i]}');
  line('        # "--flag=value" arrives as three words when COMP_WORDBREAKS holds "=" (the default).');
  line('        if [[ $word == = ]]; then skip=1; continue; fi');
  line('        if ((skip)); then skip=0; continue; fi');
  line('        case $word in');
  line('        --*=*) ;;');
  line('        -?*)');
  line(`            ${p}_node "$path"`);
  line(`            [[ " $${p}_value_flags " == *" $word "* ]] && skip=1`);
  line('            ;;');
  line('        *)');
  line(`            if ((operands == 0)) && ${p}_child "$path" "$word"; then`);
  line(`                path=\${path:+$path }$${p}_name`);
  line('            else');
  line('                operands=$((operands + 1)) ops+=("$word")');
  line('            fi');
  line('            ;;');
  line('        esac');
  line('    done');
  line(`    ${p}_node "$path"`);
  line();
  line('    # The value of a flag: "--flag VALUE", "--flag=VALUE", or "--flag=" where "=" broke the word.');
  line('    if [[ $cur == = ]]; then');
  line('        flag=${COMP_WORDS[COMP_CWORD-1]} cur=');
  line('    elif ((skip)); then');
  line('        flag=${COMP_WORDS[COMP_CWORD-1]}');
  line('        [[ $flag == = ]] && flag=${COMP_WORDS[COMP_CWORD-2]}');
  line('    elif [[ $cur == --*=* ]]; then');
  line('        flag=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}');
  line('    fi');
  line('    if [[ -n $flag ]]; then');
  line(`        [[ " $${p}_value_flags " == *" $flag "* ]] || return 0`);
  line(`        ${p}_value "$path" "$flag"`);
  line(`        case $${p}_kind in`);
  line('        files | dirs)');
  line('            compopt -o filenames 2>/dev/null');
  line(`            [[ $${p}_kind == files ]] && word=-f || word=-d`);
  line('            mapfile -t COMPREPLY < <(compgen "$word" -- "$cur")');
  line('            ;;');
  line('        profiles)');
  line('            # Read, not expanded: a profile name is data, whatever it holds.');
  line('            while IFS= read -r word; do');
  line('                [[ -n $word && $word == "$cur"* ]] || continue');
  line('                [[ -n $prefix ]] && COMPREPLY+=("$prefix$word") || COMPREPLY+=("$(printf %q "$word")")');
  line(`            done < <("\${COMP_WORDS[0]}" completion --profiles 2>/dev/null)`);
  line('            ;;');
  line('        words)');
  line(`            read -ra candidates <<<"$${p}_words"`);
  line('            for word in "${candidates[@]}"; do [[ $word == "$cur"* ]] && COMPREPLY+=("$prefix$word"); done');
  line('            ;;');
  line('        esac');
  line('        return 0');
  line('    fi');
  line();
  line('    if [[ $cur == -* ]]; then');
  line(`        read -ra candidates <<<"$${p}_flags"`);
  line(`    elif ((operands == 0)) && [[ -n $${p}_subs ]]; then`);
  line(`        read -ra candidates <<<"$${p}_subs"`);
  line(`        if [[ -z $path ]]; then`);
  line(`            # This machine's aliases and extensions, beside the commands.`);
  line('            while IFS= read -r word; do');
  line('                [[ -n $word ]] && candidates+=("$word")');
  line(`            done < <(${LOCAL_COMMANDS.map((local) => `"\${COMP_WORDS[0]}" ${local.args.join(' ')} 2>/dev/null`).join('; ')})`);
  line('        fi');
  line('    else');
  line(`        ${p}_operand "$path" "$operands"`);
  line(`        if [[ -n $${p}_dynamic ]]; then`);
  line('            # Read, not expanded: ids and values are data, whatever they hold.');
  line(`            read -ra candidates <<<"$${p}_dynamic"`);
  line(`            ((${p}_with_operands)) && candidates+=("\${ops[@]}")`);
  line('            while IFS= read -r word; do');
  line('                [[ -n $word && $word == "$cur"* ]] && COMPREPLY+=("$(printf %q "$word")")');
  line(`            done < <("\${COMP_WORDS[0]}" "\${candidates[@]}" 2>/dev/null)`);
  line('            return 0');
  line('        fi');
  line(`        read -ra candidates <<<"$${p}_words"`);
  line('    fi');
  line('    for word in "${candidates[@]}"; do [[ $word == "$cur"* ]] && COMPREPLY+=("$word"); done');
  line('    return 0');
  line('}');
  line();
  line(`complete -F _${tree.name} ${tree.name}`);
  return `${out.join('\n')}\n`;
}

/** The body of a `__lk_value` case, or nothing for a free value. */
function valueAction(flag: FlagSpec, p: string): string | undefined {
  switch (flag.value?.kind) {
    case 'choices':
      return `${p}_kind=words ${p}_words=${singleQuote(flag.value.choices.join(' '))}`;
    case 'profiles':
      return `${p}_kind=profiles`;
    case 'files':
      return `${p}_kind=files`;
    case 'directories':
      return `${p}_kind=dirs`;
    default:
      return undefined;
  }
}

function valueFlagNames(flags: FlagSpec[]): string[] {
  return flags.filter((flag) => flag.value).flatMap(flagNames);
}
