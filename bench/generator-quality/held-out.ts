// The held-out half of the generator bench: documents the offline generator was never tuned on, chosen and keyed
// (key facts noted by hand from the text) before any change to the generator, and reported apart from the tuning
// documents of documents.ts. Their PDFs are committed in held-out/ (built once by held-out/make-fixtures.ts with
// Chromium, LibreOffice Writer and pdfLaTeX), each beside the text it was printed from.
//
// A key fact is covered when one card that the independent judge (judge.ts) keeps contains, in its question and
// answer together, every string of `all` (case and spacing ignored).

export interface HeldOutSpec {
  id: string;
  /** The tool that printed the PDF. */
  printer: 'chromium' | 'libreoffice' | 'pdflatex';
  field: string;
  language: string;
  source: string;
  licence: string;
  facts: { fact: string; all: string[] }[];
}

const manPages = 'Linux man-pages project, verbatim copying licence (Debian manpages package)';

export const heldOut: HeldOutSpec[] = [
  {
    id: 'semver-ranges',
    printer: 'chromium',
    field: 'software versioning (specification)',
    language: 'en',
    source: 'node_modules/semver/README.md, "Versions" to "Range Grammar"',
    licence: 'ISC (semver npm package)',
    facts: [
      { fact: 'a leading "=" or "v" is stripped off and ignored', all: ['stripped', 'ignored'] },
      { fact: 'a version range is a set of comparators', all: ['version range', 'comparators'] },
      { fact: 'a comparator is an operator and a version', all: ['comparator', 'operator'] },
      { fact: 'with no operator, equality is assumed', all: ['equality'] },
      { fact: 'a comparator set is satisfied by the intersection of its comparators', all: ['intersection'] },
      { fact: 'comparator sets are joined by ||', all: ['||', 'comparator set'] },
      {
        fact: 'a prerelease version satisfies only if a comparator with the same tuple has a prerelease tag',
        all: ['prerelease', 'same'],
      },
      { fact: 'includePrerelease treats prereleases as normal versions', all: ['includeprerelease'] },
      { fact: 'a hyphen range specifies an inclusive set', all: ['inclusive set'] },
      { fact: 'X, x or * stand in for a numeric value', all: ['stand in'] },
      {
        fact: 'tilde allows patch-level changes if a minor version is specified',
        all: ['patch-level changes', 'minor version'],
      },
      {
        fact: 'caret allows changes that do not modify the left-most non-zero element',
        all: ['left-most non-zero'],
      },
      { fact: 'a missing patch value desugars to 0', all: ['missing', 'patch', 'desugar'] },
    ],
  },
  {
    id: 'pipe-overview',
    printer: 'chromium',
    field: 'operating systems',
    language: 'en',
    source: 'pipe(7), DESCRIPTION up to PIPE_BUF',
    licence: manPages,
    facts: [
      { fact: 'pipes and FIFOs provide a unidirectional interprocess communication channel', all: ['unidirectional'] },
      {
        fact: 'a pipe is created with pipe(2), which returns two file descriptors',
        all: ['pipe(2)', 'two file descriptors'],
      },
      { fact: 'FIFO is short for First In First Out', all: ['first in first out'] },
      { fact: 'a FIFO is created with mkfifo(3)', all: ['mkfifo'] },
      { fact: 'reading from an empty pipe blocks until data is available', all: ['empty pipe', 'block'] },
      { fact: 'a pipe is a byte stream with no message boundaries', all: ['byte stream'] },
      { fact: 'writing when all read ends are closed raises SIGPIPE', all: ['sigpipe'] },
      { fact: 'lseek(2) cannot be applied to a pipe', all: ['lseek'] },
      { fact: 'before Linux 2.6.11 the capacity was the system page size', all: ['2.6.11', 'page size'] },
      { fact: 'since Linux 2.6.11 the capacity is 16 pages (65,536 bytes)', all: ['16 pages'] },
      { fact: 'F_GETPIPE_SZ and F_SETPIPE_SZ query and set the capacity', all: ['f_setpipe_sz'] },
      { fact: 'FIONREAD gives the number of unread bytes', all: ['fionread', 'unread bytes'] },
      { fact: 'pipe-max-size defaults to 1048576 (1 MiB)', all: ['pipe-max-size', '1048576'] },
    ],
  },
  {
    id: 'apache-license',
    printer: 'libreoffice',
    field: 'law (licence terms)',
    language: 'en',
    source: '/usr/share/common-licenses/Apache-2.0, sections 1 to 4',
    licence: 'Apache-2.0 (the licence text itself may be copied verbatim)',
    facts: [
      { fact: 'Licensor: the copyright owner or entity granting the License', all: ['licensor', 'copyright owner'] },
      { fact: 'control means ownership of fifty percent (50%) or more of the shares', all: ['50%'] },
      { fact: 'Source form: the preferred form for making modifications', all: ['source', 'preferred form'] },
      {
        fact: 'Object form: resulting from mechanical transformation or translation',
        all: ['object', 'mechanical transformation'],
      },
      {
        fact: 'a Contributor is the Licensor and anyone whose Contribution was incorporated',
        all: ['contributor', 'incorporated'],
      },
      { fact: 'a communication marked "Not a Contribution" is excluded', all: ['not a contribution'] },
      {
        fact: 'the copyright licence is perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable',
        all: ['perpetual', 'royalty-free'],
      },
      {
        fact: 'patent licences terminate when You institute patent litigation',
        all: ['patent', 'litigation', 'terminate'],
      },
      { fact: 'recipients must be given a copy of this License', all: ['copy of this license'] },
      {
        fact: 'modified files must carry prominent notices stating that You changed the files',
        all: ['prominent notices'],
      },
      { fact: 'a NOTICE text file must be included in derivative works', all: ['notice'] },
    ],
  },
  {
    id: 'chsh-de',
    printer: 'libreoffice',
    field: 'system administration (German page, half translated)',
    language: 'de+en',
    source: '/usr/share/man/de/man1/chsh.1.gz',
    licence: 'BSD-3-Clause (shadow-utils), German translation GPL-3.0-or-later',
    facts: [
      { fact: 'chsh changes the user login shell', all: ['chsh', 'login shell'] },
      {
        fact: 'a normal user may only change the login shell for her own account',
        all: ['normal user', 'own account'],
      },
      { fact: 'the superuser may change the login shell for any account', all: ['superuser', 'any account'] },
      { fact: '-R/--root applies changes in the CHROOT_DIR directory', all: ['--root', 'chroot_dir'] },
      { fact: '-s/--shell: the name of the new login shell', all: ['--shell', 'new login shell'] },
      { fact: 'without -s, chsh runs interactively', all: ['interactive'] },
      { fact: 'the shell must be listed in /etc/shells', all: ['/etc/shells', 'listed'] },
      { fact: 'an account with a restricted login shell may not change its login shell', all: ['restricted'] },
      { fact: '/etc/passwd: Informationen zu den Benutzerkonten', all: ['/etc/passwd', 'benutzerkonten'] },
    ],
  },
  {
    id: 'glob-latex',
    printer: 'pdflatex',
    field: 'history of Unix and pattern matching',
    language: 'en',
    source: 'glob(7)',
    licence: manPages,
    facts: [
      { fact: 'in UNIX V6, /etc/glob expanded wildcard patterns', all: ['v6', '/etc/glob'] },
      { fact: 'a string is a wildcard pattern if it contains ?, * or [', all: ['wildcard pattern', 'contains'] },
      {
        fact: 'globbing expands a pattern into the list of matching pathnames',
        all: ['globbing', 'list of pathnames'],
      },
      { fact: '? matches any single character', all: ['?', 'any single character'] },
      { fact: '* matches any string, including the empty string', all: ['*', 'empty string'] },
      { fact: 'two characters separated by - denote a range', all: ['range', 'separated'] },
      { fact: '[!...] matches a character not matched by the expression', all: ['[!', 'not matched'] },
      { fact: 'a / cannot be matched by ? or *', all: ['/', 'cannot be matched'] },
      { fact: 'a leading . must be matched explicitly', all: ['.', 'explicitly'] },
      { fact: 'POSIX leaves a pattern unchanged when nothing matches', all: ['unchanged', 'empty'] },
      { fact: 'shopt -s nullglob forces the classical behaviour in bash', all: ['nullglob'] },
      { fact: 'POSIX declared [^...] in a wildcard pattern undefined', all: ['[^...]', 'undefined'] },
      { fact: 'character classes are defined by LC_CTYPE', all: ['lc_ctype'] },
    ],
  },
  {
    id: 'hier-latex',
    printer: 'pdflatex',
    field: 'operating systems (definition list)',
    language: 'en',
    source: 'hier(7), up to /usr',
    licence: manPages,
    facts: [
      { fact: '/ is the root directory', all: ['root directory'] },
      { fact: '/bin: programs needed in single user mode', all: ['/bin', 'single user mode'] },
      { fact: '/boot: static files for the boot loader', all: ['/boot', 'boot loader'] },
      { fact: '/dev: special or device files', all: ['/dev', 'device files'] },
      { fact: '/etc: configuration files local to the machine', all: ['/etc', 'configuration files'] },
      { fact: "/etc/skel: files copied into a new user's home directory", all: ['/etc/skel', 'copied'] },
      { fact: '/lib/modules: loadable kernel modules', all: ['/lib/modules', 'kernel modules'] },
      { fact: '/lost+found: items lost in the filesystem', all: ['/lost+found', 'lost'] },
      { fact: '/media: mount points for removable media', all: ['/media', 'removable media'] },
      { fact: '/mnt: mount point for a temporarily mounted filesystem', all: ['/mnt', 'temporarily'] },
      { fact: '/proc: mount point for the proc filesystem', all: ['/proc', 'running processes'] },
      { fact: '/sys: mount point for the sysfs filesystem', all: ['/sys', 'sysfs'] },
      { fact: '/tmp: temporary files which may be deleted with no notice', all: ['/tmp', 'temporary files'] },
    ],
  },
  {
    id: 'us-constitution-article-1',
    printer: 'chromium',
    field: 'law (constitution)',
    language: 'en',
    source: 'the Constitution of the United States, Article I, Sections 1 to 3, transcribed by hand (held-out/*.txt)',
    licence: 'public domain (a work of the United States, 1787)',
    facts: [
      { fact: 'legislative powers are vested in a Congress', all: ['legislative', 'congress'] },
      { fact: 'Congress consists of a Senate and House of Representatives', all: ['senate and house'] },
      { fact: 'Members of the House are chosen every second year', all: ['every second year'] },
      { fact: 'a Representative must be at least twenty five', all: ['twenty five'] },
      { fact: 'a Representative must have been a citizen for seven years', all: ['seven years'] },
      { fact: 'the enumeration is made every ten years', all: ['ten years'] },
      { fact: 'at most one Representative for every thirty thousand', all: ['thirty thousand'] },
      { fact: 'the House chooses its Speaker', all: ['speaker'] },
      { fact: 'the House has the sole power of impeachment', all: ['sole power of impeachment'] },
      { fact: 'two Senators from each State', all: ['two senators'] },
      { fact: 'Senators are chosen for six years', all: ['six years'] },
      { fact: 'a Senator must be at least thirty', all: ['thirty years'] },
      { fact: 'a Senator must have been a citizen for nine years', all: ['nine years'] },
      { fact: 'the Vice President is President of the Senate', all: ['vice president', 'president of the senate'] },
      { fact: 'the Senate has the sole power to try impeachments', all: ['try all impeachments'] },
      { fact: 'the Chief Justice presides when the President is tried', all: ['chief justice'] },
      { fact: 'conviction needs two thirds of the members present', all: ['two thirds'] },
      { fact: 'judgment in impeachment extends no further than removal from office', all: ['removal from office'] },
    ],
  },
  {
    id: 'declaration-of-independence',
    printer: 'chromium',
    field: 'history (founding document)',
    language: 'en',
    source:
      'the Declaration of Independence (1776): preamble, opening and a selection of grievances, transcribed by hand',
    licence: 'public domain (1776)',
    facts: [
      { fact: 'declared in Congress on July 4, 1776', all: ['1776'] },
      { fact: 'a declaration of the thirteen united States', all: ['thirteen'] },
      {
        fact: 'a decent respect to the opinions of mankind requires declaring the causes',
        all: ['opinions of mankind'],
      },
      { fact: 'all men are created equal', all: ['created equal'] },
      { fact: 'men are endowed with unalienable Rights', all: ['unalienable'] },
      { fact: 'among them Life, Liberty and the pursuit of Happiness', all: ['liberty', 'pursuit of happiness'] },
      {
        fact: 'governments derive their just powers from the consent of the governed',
        all: ['consent of the governed'],
      },
      { fact: 'the People may alter or abolish a destructive government', all: ['alter or to abolish'] },
      {
        fact: 'long-established governments should not be changed for light and transient causes',
        all: ['light and transient'],
      },
      {
        fact: 'a long train of abuses and usurpations justifies throwing off such government',
        all: ['long train of abuses'],
      },
      { fact: "the King's history is one of repeated injuries and usurpations", all: ['repeated injuries'] },
      { fact: 'its object: an absolute Tyranny over these States', all: ['absolute tyranny'] },
      { fact: 'standing armies kept in times of peace without consent', all: ['standing armies'] },
      { fact: 'taxes imposed without consent', all: ['taxes', 'without our consent'] },
      { fact: 'deprived of the benefits of trial by jury', all: ['trial by jury'] },
      {
        fact: 'the colonies are absolved from all allegiance to the British Crown',
        all: ['allegiance', 'british crown'],
      },
    ],
  },
];
