/** The updates modal's changelog (April 6 to 12, 2025), newest first. */
export interface ChangelogEntry {
  /** ISO date (YYYY-MM-DD). */
  date: string;
  title: string;
  changes: string[];
}

export const changelog: readonly ChangelogEntry[] = [
  {
    date: '2025-04-12',
    title: 'Account page refresh',
    changes: [
      'Usage meters show your monthly, free and purchased generations at a glance.',
      'Manage your subscription from the account page in one click.',
    ],
  },
  {
    date: '2025-04-11',
    title: 'Quiz improvements',
    changes: [
      'Add any quiz question to your deck with Add to Deck.',
      'Move through quiz cards with the A and D keys; Space flips the card.',
    ],
  },
  {
    date: '2025-04-10',
    title: 'Math in cards',
    changes: ['Cards render formulas written in LaTeX, inline and as blocks.'],
  },
  {
    date: '2025-04-09',
    title: 'Sharing and export',
    changes: ['Share a deck by link and import shared decks.', 'Export any deck to an Anki CSV file.'],
  },
  {
    date: '2025-04-08',
    title: 'More file types',
    changes: ['Generate cards from PowerPoint (PPTX) files and from photos of your notes (JPG, PNG).'],
  },
  {
    date: '2025-04-07',
    title: 'Daily new card limit',
    changes: ['Choose how many new cards each deck introduces per day in the deck settings.'],
  },
  {
    date: '2025-04-06',
    title: 'Generation packs',
    changes: [
      'Buy Generation Pack (50) or Generation Pack (100) once, with no recurring charges.',
      'Purchased generations are used after your monthly quota.',
    ],
  },
];
