import { flagNames, LOCAL_COMMANDS, type CompletionTree, type FlagSpec, type OperandSpec } from './model.js';
import { oneLine } from './quote.js';

/**
 * A PowerShell script (Windows PowerShell 5.1 and PowerShell 7): one native argument completer holding the whole
 * tree as hashtables, keyed by command path. At Tab time it walks the words before the cursor as the other shells'
 * scripts do (subcommands make the path, flags are passed over with their values), then offers subcommands, flags,
 * a flag's values or an operand's; like them it runs nothing but `lk completion --profiles`, `--ids`,
 * `--setting-values`, `--aliases` and `--extensions` (no network, no key). A file value offers nothing of its own,
 * so PowerShell completes file names.
 */
export function powershellScript(tree: CompletionTree): string {
  const name = tree.name;
  const out: string[] = [];
  const line = (text = '') => out.push(text);

  line(
    `# PowerShell completion for ${name}: generated from ${name}'s command tree by \`${name} completion powershell\` (npm run completions); do not edit.`,
  );
  line(
    `# Install: ${name} completion powershell >> $PROFILE    (or, for this session: ${name} completion powershell | Out-String | Invoke-Expression)`,
  );
  line();
  line(`Register-ArgumentCompleter -Native -CommandName ${psQuote(name)} -ScriptBlock {`);
  line('    param($wordToComplete, $commandAst, $cursorPosition)');
  line();
  line('    # Global flags, accepted after any command: each is @{ N = names; D = description; V = its value, if it takes one }.');
  line('    $globals = @(');
  for (const flag of tree.globals) line(`        ${flagEntry(flag)}`);
  line('    )');
  line("    # Each command path ('' for the program): its subcommands, its own flags, its operands in order.");
  line('    $nodes = @{');
  for (const node of tree.nodes) {
    line(`        ${psQuote(node.path.join(' '))} = @{`);
    line(
      `            Subs = @(${node.subcommands.map((sub) => `@{ N = ${psArray(sub.names)}; D = ${psQuote(oneLine(sub.description))} }`).join(', ')})`,
    );
    line('            Flags = @(');
    for (const flag of node.flags) line(`                ${flagEntry(flag)}`);
    line('            )');
    line(`            Operands = @(${node.operands.map(operandEntry).join(', ')})`);
    line('        }');
  }
  line('    }');
  line(`    # This machine's aliases and extensions, offered beside the commands: what these print.`);
  line(`    $local = @(${LOCAL_COMMANDS.map((local) => psArray(local.args)).join(', ')})`);
  line();
  line(BODY);
  line('}');
  return `${out.join('\n')}\n`;
}

/** The completer's logic: the same for every tree. */
const BODY = String.raw`    $exe = $commandAst.CommandElements[0].Extent.Text
    # Quietly: a failing lk at Tab time offers nothing.
    function Ask([string[]] $arguments) { @(& $exe @arguments 2>$null | Where-Object { $_ -ne '' }) }
    function FlagsAt($node) {
        $own = @($node.Flags)
        $names = @($own | ForEach-Object { $_.N })
        $own + @($globals | Where-Object { -not (@($_.N) | Where-Object { $names -contains $_ }) })
    }
    function FindFlag($node, [string] $word) { FlagsAt $node | Where-Object { $_.N -contains $word } | Select-Object -First 1 }

    # The words before the one being completed.
    $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object { $_.Extent.Text })
    $path = ''
    $node = $nodes['']
    $operands = 0
    $ops = @()
    $pending = $null
    for ($i = 1; $i -lt $words.Count; $i++) {
        $word = $words[$i]
        if ($pending) { $pending = $null; continue }
        if ($word.StartsWith('-') -and $word -ne '-') {
            if (-not $word.Contains('=')) {
                $flag = FindFlag $node $word
                if ($flag -and $flag.V) { $pending = $flag }
            }
            continue
        }
        if ($operands -eq 0) {
            $child = @($node.Subs | Where-Object { $_.N -contains $word }) | Select-Object -First 1
            if ($child) {
                $path = if ($path) { "$path $($child.N[0])" } else { $child.N[0] }
                $node = $nodes[$path]
                continue
            }
        }
        $operands++
        $ops += $word
    }

    $current = $wordToComplete
    $prefix = ''
    $flag = $pending
    if (-not $flag -and $current.StartsWith('--') -and $current.Contains('=')) {
        $at = $current.IndexOf('=')
        $flag = FindFlag $node $current.Substring(0, $at)
        if (-not ($flag -and $flag.V)) { return }
        $prefix = $current.Substring(0, $at + 1)
        $current = $current.Substring($at + 1)
    }
    $offers = @()
    if ($flag) {
        switch ($flag.V.K) {
            'words' { $offers = @($flag.V.W | ForEach-Object { @{ T = $_; D = $flag.V.Name; R = 'ParameterValue' } }) }
            'profiles' { $offers = @(Ask @('completion', '--profiles') | ForEach-Object { @{ T = $_; D = 'stored profile'; R = 'ParameterValue' } }) }
            default { return }
        }
    } elseif ($current.StartsWith('-')) {
        $offers = @(FlagsAt $node | ForEach-Object { $flag = $_; $flag.N | ForEach-Object { @{ T = $_; D = $flag.D; R = 'ParameterName' } } })
    } elseif ($operands -eq 0 -and @($node.Subs).Count -gt 0) {
        $offers = @($node.Subs | ForEach-Object { @{ T = $_.N[0]; D = $_.D; R = 'Command' } })
        if ($path -eq '') {
            foreach ($source in $local) { $offers += @(Ask $source | ForEach-Object { @{ T = $_; D = $source[-1].TrimStart('-'); R = 'Command' } }) }
        }
    } else {
        $all = @($node.Operands)
        if ($all.Count -eq 0) { return }
        $operand = if ($operands -lt $all.Count) { $all[$operands] } elseif ($all[-1].More) { $all[-1] } else { $null }
        if (-not $operand) { return }
        switch ($operand.K) {
            'words' { $offers = @($operand.W | ForEach-Object { @{ T = $_; D = $operand.Name; R = 'ParameterValue' } }) }
            'dynamic' {
                $arguments = @($operand.A)
                if ($operand.With) { $arguments += $ops }
                $offers = @(Ask $arguments | ForEach-Object { @{ T = $_; D = $operand.Name; R = 'ParameterValue' } })
            }
            default { return }
        }
    }
    $offers | Where-Object { $_.T.StartsWith($current) } | ForEach-Object {
        $tip = if ($_.D) { $_.D } else { $_.T }
        [System.Management.Automation.CompletionResult]::new($prefix + $_.T, $_.T, $_.R, $tip)
    }`;

/** One flag as a hashtable of the script. */
function flagEntry(flag: FlagSpec): string {
  const value = flag.value;
  let v = '$null';
  if (value?.kind === 'choices') v = `@{ K = 'words'; Name = ${psQuote(value.name)}; W = ${psArray(value.choices)} }`;
  else if (value) v = `@{ K = ${psQuote(value.kind)}; Name = ${psQuote(value.name)} }`;
  return `@{ N = ${psArray(flagNames(flag))}; D = ${psQuote(oneLine(flag.description))}; V = ${v} }`;
}

/** One operand: its words, or what prints its values at Tab time, or nothing (a free value, a file). */
function operandEntry(operand: OperandSpec): string {
  const common = `Name = ${psQuote(operand.name)}; More = $${operand.variadic ? 'true' : 'false'}`;
  if (operand.dynamic)
    return `@{ K = 'dynamic'; ${common}; A = ${psArray(operand.dynamic.args)}; With = $${operand.dynamic.withOperands ? 'true' : 'false'} }`;
  if (operand.choices) return `@{ K = 'words'; ${common}; W = ${psArray(operand.choices)} }`;
  return `@{ K = 'free'; ${common} }`;
}

/** A literal string of PowerShell: single quotes, each one inside doubled (and the typographic ones PowerShell also reads as quotes). */
export function psQuote(text: string): string {
  return `'${text.replace(/['\u2018\u2019\u201a\u201b]/g, (quote) => quote + quote)}'`;
}

function psArray(words: readonly string[]): string {
  return `@(${words.map(psQuote).join(', ')})`;
}
