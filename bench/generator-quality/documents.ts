// The real-document corpus of bench/generator-quality.bench.ts: where each document comes from, its licence, the
// file type it is turned into, and its key facts noted by hand after reading it. Nothing here was written for the
// test: the texts are read at run time from npm packages in node_modules, man pages installed on this machine
// (Debian's man-db and dpkg packages), and the ICU/CLDR data inside Node.js; only these notes are committed.
//
// A key fact is covered when one card's question and answer, together, contain every string of `all` (case and
// spacing ignored).

export type FileType = 'pdf' | 'docx' | 'pptx' | 'txt';

export type Source =
  /** A markdown file inside an npm package (node_modules/<path>). */
  | { from: 'npm'; path: string }
  /** A man page rendered by man(1) to plain text, as a reader would copy it from a terminal. */
  | { from: 'man'; path: string }
  /** Weekday and month names from ICU (Intl.DateTimeFormat) with their English names: a vocabulary list. */
  | { from: 'icu-vocabulary'; locale: string; separator: string };

/** How the text becomes a file: as is, printed to PDF by Chromium, or laid out as DOCX or PPTX. */
export interface DocumentSpec {
  id: string;
  kind: string;
  language: string;
  fileType: FileType;
  source: Source;
  licence: string;
  facts: { fact: string; all: string[] }[];
}

const aproposLicence =
  'GPL-2.0-or-later (man-db, translations by the manpages-l10n teams); read at run time, not committed';
const fsrsLicence = 'MIT (ts-fsrs npm package); read at run time';

/** The same man page in six languages: NAME line and the main options (flag + the gist of its description). */
function apropos(language: string, words: Record<string, string>): DocumentSpec {
  return {
    id: `apropos-${language}`,
    kind: 'manual (options reference)',
    language,
    fileType: 'txt',
    source: { from: 'man', path: `/usr/share/man/${language}/man1/apropos.1.gz` },
    licence: aproposLicence,
    facts: [
      { fact: 'apropos searches the names and short descriptions of manual pages', all: ['apropos', words.name ?? ''] },
      { fact: '-r/--regex: each keyword is a regular expression (the default)', all: ['--regex', words.regex ?? ''] },
      {
        fact: '-w/--wildcard: each keyword is a pattern with shell wildcards',
        all: ['--wildcard', words.wildcard ?? ''],
      },
      {
        fact: '-e/--exact: each keyword must match page names and descriptions exactly',
        all: ['--exact', words.exact ?? ''],
      },
      ...(words.and ? [{ fact: '-a/--and: only entries matching all keywords', all: ['--and', words.and] }] : []),
      ...(words.long ? [{ fact: '-l/--long: output not cut to the terminal width', all: ['--long', words.long] }] : []),
      { fact: 'the database apropos searches is updated by mandb', all: ['mandb', words.mandb ?? ''] },
    ],
  };
}

export const documents: DocumentSpec[] = [
  {
    id: 'fastify-getting-started',
    kind: 'tutorial chapter printed to PDF from a browser',
    language: 'en',
    fileType: 'pdf',
    source: { from: 'npm', path: 'fastify/docs/Guides/Getting-Started.md' },
    licence: 'MIT (fastify npm package); read at run time',
    facts: [
      { fact: 'with Fastify everything is a plugin', all: ['everything', 'plugin'] },
      { fact: 'register is the core API, the only way to add routes and plugins', all: ['register', 'routes'] },
      { fact: 'plugins load in the order they are declared', all: ['same order', 'declare'] },
      { fact: 'plugin loading starts on listen(), inject() or ready()', all: ['listen', 'ready'] },
      { fact: 'the decorate API adds custom objects to the Fastify instance', all: ['decorate', 'custom objects'] },
      { fact: 'Fastify validates incoming requests with JSON Schema', all: ['json schema', 'validat'] },
      { fact: 'a response schema speeds up serialization by a factor of 2-3', all: ['2-3'] },
      { fact: 'application/json and text/plain payloads are parsed natively', all: ['application/json', 'text/plain'] },
      { fact: 'listen on 0.0.0.0 to listen on all IPv4 interfaces', all: ['0.0.0.0', 'ipv4'] },
      { fact: 'Fastify is not a "batteries included" framework', all: ['batteries included'] },
      { fact: 'Fastify does not offer a testing framework', all: ['testing framework'] },
      {
        fact: 'fastify-cli is a separate tool for scaffolding and managing projects',
        all: ['fastify-cli', 'scaffolding'],
      },
    ],
  },
  {
    id: 'fastify-lifecycle',
    kind: 'reference page as DOCX',
    language: 'en',
    fileType: 'docx',
    source: { from: 'npm', path: 'fastify/docs/Reference/Lifecycle.md' },
    licence: 'MIT (fastify npm package); read at run time',
    facts: [
      { fact: 'errors are automatically handled by Fastify', all: ['automatically handled'] },
      { fact: 'if handlerTimeout passes, request.signal aborts and a 503 is sent', all: ['handlertimeout', '503'] },
      { fact: 'reply.hijack() prevents subsequent hooks and the automatic response', all: ['hijack', 'subsequent'] },
      { fact: 'if reply.raw sends the response, onResponse hooks still run', all: ['reply.raw', 'onresponse'] },
      { fact: 'an async handler returns a payload or throws an Error', all: ['async handler', 'payload'] },
      { fact: 'the default serializer is JSON.stringify', all: ['json.stringify'] },
      { fact: 'fastify.close() runs a graceful shutdown (preClose, draining, onClose)', all: ['close', 'graceful'] },
    ],
  },
  {
    id: 'ts-fsrs-readme-slides',
    kind: 'library README as slides (PPTX)',
    language: 'en',
    fileType: 'pptx',
    source: { from: 'npm', path: 'ts-fsrs/README.md' },
    licence: fsrsLicence,
    facts: [
      {
        fact: 'ts-fsrs is a TypeScript package for building spaced repetition systems with FSRS',
        all: ['ts-fsrs', 'spaced repetition'],
      },
      { fact: 'ts-fsrs requires Node.js >=20.0.0', all: ['20.0.0'] },
      {
        fact: 'request_retention is the share of correct answers the scheduler aims for',
        all: ['request_retention', 'correct'],
      },
      { fact: 'maximum_interval caps how far ahead a card can be scheduled', all: ['maximum_interval', 'future'] },
      { fact: 'enable_fuzz adds randomness to long intervals', all: ['enable_fuzz', 'randomness'] },
      { fact: 'use repeat to preview all four outcomes', all: ['repeat', 'four outcomes'] },
      { fact: 'use next when the rating is already known', all: ['next', 'rating'] },
      { fact: 'a decay value must be within 0.1 to 0.8', all: ['0.1', '0.8'] },
      { fact: 'the history helpers are rollback, forget and reschedule', all: ['rollback', 'forget', 'reschedule'] },
    ],
  },
  {
    id: 'deb-version',
    kind: 'specification printed to PDF',
    language: 'en',
    fileType: 'pdf',
    source: { from: 'man', path: '/usr/share/man/man7/deb-version.7.gz' },
    licence: 'GPL-2.0-or-later (dpkg); read at run time, not committed',
    facts: [
      { fact: 'the epoch is a single, generally small, unsigned integer', all: ['epoch', 'unsigned integer'] },
      { fact: 'an omitted epoch is taken as zero', all: ['omitted', 'zero'] },
      { fact: 'the upstream-version is the main part of the version number', all: ['upstream-version', 'main part'] },
      { fact: 'the upstream-version should start with a digit', all: ['start with a digit'] },
      {
        fact: 'the debian-revision is the version of the Debian package based on the upstream version',
        all: ['debian-revision', 'debian package'],
      },
      { fact: 'the debian-revision is conventionally restarted at 1', all: ['restart', '1'] },
      { fact: 'dpkg splits the version at the last hyphen', all: ['last hyphen'] },
      { fact: 'a tilde sorts before anything, even the end of a part', all: ['tilde', 'before anything'] },
      { fact: 'the tilde was introduced in dpkg 1.10', all: ['tilde', '1.10'] },
    ],
  },
  {
    id: 'ts-fsrs-readme-ja',
    kind: 'library README, Japanese (pasted markdown)',
    language: 'ja',
    fileType: 'txt',
    source: { from: 'npm', path: 'ts-fsrs/README_JA.md' },
    licence: fsrsLicence,
    facts: [
      { fact: 'ts-fsrs は間隔反復システムを構築するための TypeScript パッケージ', all: ['ts-fsrs', '間隔反復'] },
      { fact: 'Node.js >=20.0.0 が必要', all: ['20.0.0'] },
      { fact: 'request_retention は最低保持率', all: ['request_retention', '保持率'] },
      { fact: 'maximum_interval はスケジュールの上限', all: ['maximum_interval', '上限'] },
      { fact: 'enable_fuzz は長い間隔にランダムな揺らぎを加える', all: ['enable_fuzz', 'ランダム'] },
      { fact: '回答する前に結果を見たい場合は repeat', all: ['repeat', '回答する前'] },
      { fact: 'decay は 0.1 から 0.8 の範囲', all: ['0.1', '0.8'] },
    ],
  },
  {
    id: 'ts-fsrs-readme-zh',
    kind: 'library README, Chinese (pasted markdown)',
    language: 'zh',
    fileType: 'txt',
    source: { from: 'npm', path: 'ts-fsrs/README_CN.md' },
    licence: fsrsLicence,
    facts: [
      { fact: 'ts-fsrs 是一个帮助构建间隔重复系统的 TypeScript 包', all: ['ts-fsrs', '间隔重复'] },
      { fact: '需要 Node.js >=20.0.0', all: ['20.0.0'] },
      { fact: 'request_retention 是最低记忆保持率', all: ['request_retention', '保持率'] },
      { fact: 'maximum_interval 限制卡片最多安排到未来多少天', all: ['maximum_interval', '未来'] },
      { fact: 'enable_fuzz 给较长的间隔增加随机扰动', all: ['enable_fuzz', '随机'] },
      { fact: '用户作答前预览四种评分结果用 repeat', all: ['repeat', '预览'] },
      { fact: 'decay 范围在 0.1 到 0.8 之间', all: ['0.1', '0.8'] },
    ],
  },
  apropos('de', {
    name: 'kurzbeschreibungen',
    regex: 'regulären ausdruck',
    wildcard: 'platzhalter',
    exact: 'genau',
    and: 'alle',
    long: 'terminalbreite',
    mandb: 'datenbank',
  }),
  apropos('es', {
    name: 'busca nombres',
    regex: 'expresión regular',
    wildcard: 'comodines',
    exact: 'exactamente',
    and: 'todas',
    long: 'terminal',
    mandb: 'actualiza',
  }),
  apropos('fr', {
    name: 'chercher',
    regex: 'expression rationnelle',
    wildcard: 'jokers',
    exact: 'exactement',
    and: 'tous',
    long: 'largeur du terminal',
    mandb: 'mandb',
  }),
  apropos('it', {
    name: 'ricerca',
    regex: 'espressione regolare',
    wildcard: 'modello',
    exact: 'esatta',
    mandb: 'mandb',
  }),
  apropos('pt', {
    name: 'procurar',
    regex: 'regex',
    wildcard: 'universais',
    exact: 'exactamente',
    and: 'todas',
    long: 'largura',
    mandb: 'mandb',
  }),
  apropos('ko', {
    name: '검색',
    regex: '정규 표현식',
    wildcard: '와일드카드',
    exact: '정확히',
    and: '모두',
    long: '터미널',
    mandb: '데이터베이스',
  }),
];

/** Vocabulary lists, one pair a line, in nine languages and several separators; every line is a key fact. */
export const vocabularyLists: DocumentSpec[] = (
  [
    ['en', ', ', 'txt'],
    ['es', ' - ', 'txt'],
    ['fr', ' – ', 'txt'],
    ['de', '\t', 'docx'],
    ['pt', ' = ', 'txt'],
    ['it', ': ', 'txt'],
    ['ja', '：', 'txt'],
    ['zh', '\t', 'txt'],
    ['ko', ' - ', 'pptx'],
  ] as const
).map(([locale, separator, fileType]) => ({
  id: `vocabulary-${locale}`,
  kind: 'vocabulary list',
  language: locale,
  fileType,
  source: { from: 'icu-vocabulary', locale, separator },
  licence: 'Unicode License v3 (CLDR data in Node.js ICU); generated at run time',
  facts: [], // one per line, filled in by the bench from the list itself
}));
