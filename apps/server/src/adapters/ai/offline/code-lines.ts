// Tells code and interactive prompts from prose, line by line: they are fenced by the text cleanup and never carded.

const codeStart =
  /^(>>>|\.\.\.\s|\$\s|#include\b|import\s|export\s|from\s+\S+\s+import\b|const\s|let\s|var\s|def\s|class\s+\w+\s*[:({]|function\b|return\b|await\s|async\s*\(|try\s*\{|catch\s*\(|if\s*\(|for\s*\(|while\s*\(|console\.|print\(|\/\/|\/\*|\*\/|\*\s*@\w+|[─│└├┌┐┘┬┴┼▶◀★]|\s*\}|\s*\{|\s*\)|\s*\]|(npm|npx|yarn|pnpm|bun|pip|apt|apt-get|git|curl|node|python3?|cd|sudo)\s)/;

/** A line of code or an interactive prompt, not prose. */
export function isCodeLine(line: string): boolean {
  const t = line.trim();
  if (!t) return false;
  if (codeStart.test(t) || /[─│└├┌┐┘┬┴┼]|\$\{/.test(t)) return true;
  // "key: value," inside an object literal, a spread, JavaScript's ?? ?. && || operators.
  if (/^[\w"'$.]+\s*:\s*\S.*,$/.test(t) || /^\.\.\.\w/.test(t) || /\?\?|\?\.\w|&&|\|\|/.test(t)) return true;
  const prose = /\s\p{Ll}+\s\p{Ll}+\s/u.test(t);
  if (/\{$/.test(t) || (/;$|=>|===|!==|\)\s*\{|\w\(\S*\)\s*;?$/.test(t) && !prose)) return true;
  if (/^[\w$.]+\s*=\s*.*[\d(){}[\]'"`;]/.test(t) && !/\s\p{L}+\s\p{L}+\s\p{L}+/u.test(t)) return true;
  const symbols = (t.match(/[{}()[\];=<>|]/g) ?? []).length;
  return symbols >= 4 && symbols / t.length > 0.1 && !prose;
}
