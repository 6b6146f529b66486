// Builds the held-out PDFs of bench/generator-quality (documents the generator was never tuned on) from texts
// installed on a Debian machine, printed by three kinds of tool: Chromium's "Save as PDF", LibreOffice Writer and
// pdfLaTeX. Run once by hand (`npx tsx bench/generator-quality/held-out/make-fixtures.ts`, needs chromium,
// soffice and pdflatex; with the argument `transcribed`, only the hand-transcribed documents, Chromium alone); the resulting PDFs are committed, so the bench and tests never need these tools.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { micromark } from 'micromark';
import { chromiumPdf, escapeHtml } from '../../support/generator-corpus';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const work = mkdtempSync(path.join(tmpdir(), 'held-out-'));

/** A man page as man(1) renders it for an 80-column terminal. */
function man(file: string): string {
  return execFileSync('sh', ['-c', 'man -l "$0" | col -bx', file], {
    encoding: 'utf8',
    env: { ...process.env, MANWIDTH: '80', LANG: 'C.UTF-8' },
  });
}

interface Block {
  type: 'heading' | 'subheading' | 'paragraph' | 'term' | 'code';
  text: string;
  /** For a term: its description. */
  body?: string;
}

/** A rendered man page back into its blocks: section headings, paragraphs, tagged paragraphs, examples. */
function manBlocks(text: string): Block[] {
  const lines = text.split('\n').slice(1, -2);
  const blocks: Block[] = [];
  let current: string[] = [];
  const indentOf = (line: string) => line.length - line.trimStart().length;
  const flush = () => {
    if (!current.length) return;
    const first = current[0] ?? '';
    const indent = indentOf(first);
    const words = (lines: string[]) =>
      lines
        .map((l) => l.trim())
        .join(' ')
        .replace(/(\w)‐ (\w)/g, '$1$2')
        .replace(/\s+/g, ' ');
    if (indent >= 9) blocks.push({ type: 'code', text: current.map((l) => l.slice(8)).join('\n') });
    else if (current.length > 1 && indentOf(current[1] ?? '') > indent + 3 && /^\s*\S+(\s{2,}|$)/.test(first)) {
      const [term, ...rest] = first.trim().split(/\s{2,}/);
      blocks.push({ type: 'term', text: term ?? '', body: words([rest.join(' '), ...current.slice(1)]) });
    } else if (/^\s*\S+\s{2,}\S/.test(first) && current.length > 1 && indentOf(current[1] ?? '') > indent + 3) {
      blocks.push({ type: 'paragraph', text: words(current) });
    } else blocks.push({ type: 'paragraph', text: words(current) });
    current = [];
  };
  for (const line of lines) {
    if (!line.trim()) {
      flush();
      continue;
    }
    const indent = indentOf(line);
    if (indent === 0) {
      flush();
      blocks.push({ type: 'heading', text: line.trim() });
    } else if (indent === 3) {
      flush();
      blocks.push({ type: 'subheading', text: line.trim() });
    } else current.push(line);
  }
  flush();
  return blocks;
}

const escapeTex = (text: string) =>
  text
    .replace(/\\/g, '\\textbackslash{}')
    .replace(/([#$%&_{}])/g, '\\$1')
    .replace(/~/g, '\\textasciitilde{}')
    .replace(/\^/g, '\\textasciicircum{}')
    .replace(/</g, '\\textless{}')
    .replace(/>/g, '\\textgreater{}')
    .replace(/\|/g, '\\textbar{}')
    .replace(/"/g, "''")
    .replace(/‐/g, '-');

function blocksToHtml(blocks: Block[]): string {
  return blocks
    .map((b) => {
      if (b.type === 'heading') return `<h2>${escapeHtml(b.text)}</h2>`;
      if (b.type === 'subheading') return `<h3>${escapeHtml(b.text)}</h3>`;
      if (b.type === 'code') return `<pre>${escapeHtml(b.text)}</pre>`;
      if (b.type === 'term')
        return `<dl><dt><b>${escapeHtml(b.text)}</b></dt><dd>${escapeHtml(b.body ?? '')}</dd></dl>`;
      return `<p>${escapeHtml(b.text)}</p>`;
    })
    .join('\n');
}

function blocksToTex(blocks: Block[], title: string): string {
  const body: string[] = [];
  let inList = false;
  for (const b of blocks) {
    if (b.type !== 'term' && inList) {
      body.push('\\end{description}');
      inList = false;
    }
    if (b.type === 'heading') body.push(`\\section*{${escapeTex(b.text)}}`);
    else if (b.type === 'subheading') body.push(`\\subsection*{${escapeTex(b.text)}}`);
    else if (b.type === 'code') body.push(`\\begin{verbatim}\n${b.text}\n\\end{verbatim}`);
    else if (b.type === 'term') {
      if (!inList) body.push('\\begin{description}');
      inList = true;
      body.push(`\\item[${escapeTex(b.text)}] ${escapeTex(b.body ?? '')}`);
    } else body.push(`${escapeTex(b.text)}\n`);
  }
  if (inList) body.push('\\end{description}');
  return `\\documentclass[11pt,a4paper]{article}
\\usepackage[T1]{fontenc}
\\usepackage[utf8]{inputenc}
\\pagestyle{myheadings}
\\markright{${escapeTex(title)}}
\\begin{document}
${body.join('\n')}
\\end{document}
`;
}

/** LibreOffice Writer opening an HTML file and exporting it as PDF (its own fonts, justification and layout). */
function libreOfficePdf(html: string, title: string): Buffer {
  const file = path.join(work, `${title}.html`);
  writeFileSync(
    file,
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${html}</body></html>`,
  );
  execFileSync('soffice', ['--headless', '--convert-to', 'pdf:writer_pdf_Export', '--outdir', work, file], {
    stdio: 'ignore',
    env: { ...process.env, HOME: work },
  });
  return readFileSync(path.join(work, `${title}.pdf`));
}

function texPdf(tex: string, title: string): Buffer {
  const file = path.join(work, `${title}.tex`);
  writeFileSync(file, tex);
  for (let run = 0; run < 2; run++)
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-output-directory', work, file], { stdio: 'ignore' });
  return readFileSync(path.join(work, `${title}.pdf`));
}

/** The PDF, and beside it the text it was printed from (the judge checks answers against it). */
const save = (name: string, bytes: Buffer, text: string) => {
  writeFileSync(path.join(work, `${name}.out`), bytes);
  renameSync(path.join(work, `${name}.out`), path.join(here, `${name}.pdf`));
  writeFileSync(path.join(here, `${name}.txt`), text);
};
const blocksText = (blocks: Block[]) =>
  blocks.map((b) => (b.type === 'term' ? `${b.text}\n${b.body ?? ''}` : b.text)).join('\n\n');

const between = (text: string, from: RegExp, to: RegExp) => {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => from.test(l));
  const end = lines.findIndex((l, i) => i > start && to.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
};

/** Texts transcribed by hand into held-out/<name>.txt (public-domain documents): its first paragraph is the title. */
async function printTranscribed(name: string) {
  const text = readFileSync(path.join(here, `${name}.txt`), 'utf8');
  const html = text
    .split(/\n\s*\n/)
    .map((para) => para.trim())
    .filter(Boolean)
    .map((para, i) => (i === 0 ? `<h2>${escapeHtml(para)}</h2>` : `<p>${escapeHtml(para)}</p>`))
    .join('\n');
  save(name, await chromiumPdf(html, name, path.join(work, `${name}.html`)), text);
}

// Chromium: the hand-transcribed documents of new fields (law, history); `-- transcribed` builds only these, since
// the others need soffice and pdflatex.
await printTranscribed('us-constitution-article-1');
await printTranscribed('declaration-of-independence');
if (process.argv.includes('transcribed')) {
  console.log(`transcribed held-out PDFs written to ${here}`);
  process.exit(0);
}

// Chromium: a README section rendered from markdown, and a man page laid out as HTML.
const semver = between(
  readFileSync(path.join(repoRoot, 'node_modules/semver/README.md'), 'utf8'),
  /^## Versions/,
  /^### Range Grammar/,
);
save(
  'semver-ranges',
  await chromiumPdf(micromark(semver), 'semver-ranges', path.join(work, 'semver-ranges.html')),
  semver,
);
const pipe = man('/usr/share/man/man7/pipe.7.gz');
const pipeBlocks = manBlocks(between(pipe, /^pipe\(7\)/, /^ {3}PIPE_BUF/));
save(
  'pipe-overview',
  await chromiumPdf(blocksToHtml(pipeBlocks), 'pipe-overview', path.join(work, 'pipe-overview.html')),
  blocksText(pipeBlocks),
);

// LibreOffice: a licence's first four sections, and a German man page whose translation is partly English.
const apache = between(readFileSync('/usr/share/common-licenses/Apache-2.0', 'utf8'), /Apache License/, /^ {3}5\. /);
const apacheHtml = apache
  .split(/\n\s*\n/)
  .map((para) => para.trim().replace(/\s+/g, ' '))
  .filter(Boolean)
  .map((para, i) => (i < 3 ? `<h2>${escapeHtml(para)}</h2>` : `<p>${escapeHtml(para)}</p>`))
  .join('\n');
save('apache-license', libreOfficePdf(apacheHtml, 'apache-license'), apache);
const chsh = manBlocks(man('/usr/share/man/de/man1/chsh.1.gz'));
save('chsh-de', libreOfficePdf(blocksToHtml(chsh), 'chsh-de'), blocksText(chsh));

// pdfLaTeX: a man page as an article (hyphenated, justified, running head), and a definition list.
const glob = manBlocks(man('/usr/share/man/man7/glob.7.gz'));
save('glob-latex', texPdf(blocksToTex(glob, 'glob(7)'), 'glob-latex'), blocksText(glob));
const hier = manBlocks(between(man('/usr/share/man/man7/hier.7.gz'), /^hier\(7\)/, /^ {7}\/usr\/X11R6$/));
save('hier-latex', texPdf(blocksToTex(hier, 'hier(7)'), 'hier-latex'), blocksText(hier));
console.log(`held-out PDFs written to ${here}`);
