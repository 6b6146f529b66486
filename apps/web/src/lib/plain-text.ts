/**
 * Card text (markdown with $…$ math) as the plain words a person reads on the rendered card: the name of a button
 * that shows a card, where raw `**x**` or `\frac{a}{b}` would be read out character by character.
 */

const symbols: Record<string, string> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  phi: 'φ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Pi: 'Π',
  Sigma: 'Σ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
  times: '×',
  cdot: '·',
  div: '÷',
  pm: '±',
  leq: '≤',
  le: '≤',
  geq: '≥',
  ge: '≥',
  neq: '≠',
  ne: '≠',
  approx: '≈',
  infty: '∞',
  to: '→',
  rightarrow: '→',
  Rightarrow: '⇒',
  leftarrow: '←',
  sum: '∑',
  prod: '∏',
  int: '∫',
  partial: '∂',
  nabla: '∇',
  in: '∈',
  cup: '∪',
  cap: '∩',
  ldots: '…',
  cdots: '…',
  degree: '°',
};

const superscripts: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '+': '⁺',
  '-': '⁻',
  n: 'ⁿ',
};

/** The innermost `{…}` group (no braces inside), so nested commands are undone from the inside out. */
const GROUP = '\\{([^{}]*)\\}';

/** LaTeX as read aloud: fractions as a/b, roots as √(x), powers as superscripts where they exist, symbols. */
export function plainMath(tex: string): string {
  let text = tex;
  // Each pass undoes one level of nesting; a bounded number of passes keeps hostile input linear.
  for (let pass = 0; pass < 8; pass++) {
    const before = text;
    text = text
      .replace(new RegExp(`\\\\[dt]?frac\\s*${GROUP}\\s*${GROUP}`, 'g'), '$1/$2')
      .replace(new RegExp(`\\\\sqrt\\s*${GROUP}`, 'g'), '√($1)')
      .replace(new RegExp(`\\\\(?:text|mathrm|mathbf|mathit|operatorname|textbf|textit|mbox)\\s*${GROUP}`, 'g'), '$1')
      .replace(new RegExp(`\\^${GROUP}`, 'g'), (_whole, power: string) => superscriptOf(power))
      .replace(new RegExp(`_${GROUP}`, 'g'), '_$1');
    if (text === before) break;
  }
  return text
    .replace(/\^([0-9n+-])/g, (_whole, power: string) => superscripts[power] ?? `^${power}`)
    .replace(/\\(left|right|displaystyle|limits|,|;|:|!|quad|qquad)(?![A-Za-z])/g, ' ')
    .replace(/\\([A-Za-z]+)/g, (_whole, name: string) => (Object.hasOwn(symbols, name) ? symbols[name] : name) ?? name)
    .replace(/\\(.)/g, '$1')
    .replace(/[{}]/g, '');
}

function superscriptOf(power: string): string {
  const chars = [...power];
  return chars.every((char) => char in superscripts) ? chars.map((char) => superscripts[char]).join('') : `^(${power})`;
}

/** Markdown with math, as the plain text of the rendered card on one line. */
export function plainTextOf(markdown: string): string {
  const text = markdown
    // Escaped marks are text: set aside (a private-use mark before each) until the end.
    .replace(/\\([\\`*_{}[\]()#+\-.!$])/g, '\uE000$1')
    // Math first, so that `*` or `_` inside it is not taken for emphasis.
    .replace(/(?<!\uE000)\$\$([\s\S]*?)(?<!\uE000)\$\$/g, (_whole, tex: string) => ` ${plainMath(tex)} `)
    .replace(/(?<!\uE000)\$([^$\n]+?)(?<!\uE000)\$/g, (_whole, tex: string) => plainMath(tex))
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>\n]{0,200}>/g, ' ')
    .replace(/^[ \t]*(?:#{1,6}|>+|[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/^[ \t]*(?:[-*_][ \t]*){3,}$/gm, ' ')
    .replace(/(?<!\uE000)(\*\*|__|~~)(?=\S)([^\n]{0,500}?\S)(?<!\uE000)\1/g, '$2')
    .replace(/(^|[^\w*\uE000])[*_](?=\S)([^*_\n]*?[^\s\uE000])[*_](?![\w*])/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\uE000/g, '');
  return text.replace(/\s+/g, ' ').trim();
}
