// The commands a Markdown page gives to run: the lines of its `sh` blocks and its inline code spans,
// and each command a line runs.

export type Command = { text: string; inBlock: boolean };

/** Each line of the shell blocks (joined across `\`), and each inline code span outside blocks. */
export function commands(markdown: string): Command[] {
  const found: Command[] = [];
  let fence: string | undefined;
  for (const line of markdown.replace(/\\\n\s*/g, ' ').split('\n')) {
    const opening = /^\s*```(\w*)/.exec(line);
    if (opening) fence = fence === undefined ? opening[1] : undefined;
    else if (fence === 'sh') found.push({ text: line.trim(), inBlock: true });
    else if (fence === undefined)
      for (const [, code = ''] of line.matchAll(/`([^`]+)`/g))
        found.push({ text: code.trim(), inBlock: false });
  }
  return found;
}

/**
 * The commands a line runs: each of `a && b`, and each `$(...)` inside; `VAR=value cmd` runs cmd (with
 * VAR in its environment), and `VAR=$(cmd)` runs only cmd.
 */
export function steps(line: string): string[] {
  const code = line.replace(/\s+#.*$/, '');
  const substituted = [...code.matchAll(/\$\(([^)]*)\)/g)].map(([, inner = '']) => inner.trim());
  const outer = code
    .replace(/\w+=\$\([^)]*\)/g, '')
    .split('&&')
    .map((step) => step.trim().replace(/^(\w+=\S+\s+)+(?=\S)/, ''))
    .filter((step) => step !== '');
  return [...outer, ...substituted];
}

/** An AWS CLI call (`aws <service> <operation>`), not `aws --version`. */
export const isAwsCall = (line: string) => /^aws [a-z]/.test(line);
