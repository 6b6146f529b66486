/** The five marketing pages, each with content of its own. */
export interface Audience {
  slug: 'medical-students' | 'language-learners' | 'stem-majors' | 'professionals' | 'teachers';
  menuLabel: string;
  title: string;
  heading: string;
  intro: string;
  points: { title: string; text: string }[];
  example: { question: string; answer: string };
  tip: string;
}

export const audiences: Audience[] = [
  {
    slug: 'medical-students',
    menuLabel: 'Medical students',
    title: 'Flashcards for Medical Students | AI Flashcards',
    heading: 'Learn pharmacology, anatomy and pathways without writing a single card',
    intro:
      'Medical school asks you to remember thousands of facts at once. Upload your lecture slides or paste a chapter, and get question and answer cards you can review in minutes a day.',
    points: [
      {
        title: 'Slides to cards',
        text: 'PowerPoint decks, PDFs and scanned handouts become focused cards: one drug, one mechanism, one fact each.',
      },
      {
        title: 'Spaced repetition that adapts',
        text: 'Cards you know come back less often; the ones you miss come back the same day, so board prep fits your week.',
      },
      {
        title: 'Quiz yourself before the exam',
        text: 'Generate a fresh quiz from any deck to test recall under new wording, not just the card you memorised.',
      },
    ],
    example: {
      question: 'What is the mechanism of action of metformin?',
      answer: 'It lowers hepatic glucose production (gluconeogenesis) and improves insulin sensitivity.',
    },
    tip: 'Make one deck per block or organ system and review every day: fifteen minutes beats a weekend of cramming.',
  },
  {
    slug: 'language-learners',
    menuLabel: 'Language learners',
    title: 'Flashcards for Language Learners | AI Flashcards',
    heading: 'Turn any text in your new language into vocabulary you keep',
    intro:
      'Paste an article, a song lyric or your textbook lesson and get cards for the words and phrases in it, with meanings and example sentences.',
    points: [
      {
        title: 'Vocabulary in context',
        text: 'Cards come from what you actually read, so every word arrives with a sentence that shows how it is used.',
      },
      {
        title: 'Short daily sessions',
        text: 'Review with a swipe or a key press: right for "I know it", left for "not yet". A session fits a bus ride.',
      },
      {
        title: 'Share decks with your class',
        text: 'Send a link to your study partner; they import the whole deck into their own account in one click.',
      },
    ],
    example: {
      question: 'Translate: "la bibliothèque"',
      answer: 'the library (not "the bookshop", which is la librairie)',
    },
    tip: 'Add a few new cards every day instead of many at once: your daily new-card limit keeps reviews manageable.',
  },
  {
    slug: 'stem-majors',
    menuLabel: 'STEM majors',
    title: 'Flashcards for STEM Majors | AI Flashcards',
    heading: 'Formulas, definitions and proofs, ready to review',
    intro:
      'Upload lecture notes or a problem-set solution and get cards that ask for the idea behind each step. Cards render maths, so formulas look like formulas.',
    points: [
      {
        title: 'Math that renders',
        text: 'Write or generate cards with LaTeX; equations display properly on every device.',
      },
      {
        title: 'Understand, not just memorise',
        text: 'Ask the AI to turn a derivation into questions about why each step holds, then review those.',
      },
      {
        title: 'Export to Anki',
        text: 'Already have an Anki setup? Export any deck as a CSV file and keep studying there.',
      },
    ],
    example: {
      question: 'What does the derivative of a function at a point represent?',
      answer: 'The slope of the tangent line: the instantaneous rate of change of the function at that point.',
    },
    tip: 'After each lecture, generate cards from your notes the same day, while the material is still fresh.',
  },
  {
    slug: 'professionals',
    menuLabel: 'Professionals',
    title: 'Flashcards for Professionals | AI Flashcards',
    heading: 'Prepare for certifications while keeping your day job',
    intro:
      'Certification guides, internal documentation and compliance rules are long and dry. Turn them into cards and learn them in small, regular sessions.',
    points: [
      {
        title: 'From documents to cards',
        text: 'Upload a PDF or Word document and get the key facts as questions: no highlighting, no copying.',
      },
      {
        title: 'Study in spare minutes',
        text: 'The review queue shows only what is due today, so a coffee break is enough to keep up.',
      },
      {
        title: 'Pay only when you need more',
        text: 'Start free; buy a generation pack for a big exam, or subscribe monthly if you generate often.',
      },
    ],
    example: {
      question: 'What are the three parts of the CIA triad in information security?',
      answer: 'Confidentiality, integrity and availability.',
    },
    tip: 'Keep one deck per exam domain, so that the statistics show which area still needs work.',
  },
  {
    slug: 'teachers',
    menuLabel: 'Teachers',
    title: 'Flashcards for Teachers | AI Flashcards',
    heading: 'Make study decks for your class in minutes',
    intro:
      'Paste your lesson or upload your worksheet, pick the best cards, edit them, and share the deck with your students by link.',
    points: [
      {
        title: 'You stay in control',
        text: 'Every generated card can be edited or left out before you save, so the deck says exactly what you teach.',
      },
      {
        title: 'One link for the whole class',
        text: 'Share a deck and each student imports their own copy, with their own review schedule.',
      },
      {
        title: 'Quick quizzes',
        text: 'Generate a quiz from a deck to warm up a lesson or check understanding before a test.',
      },
    ],
    example: {
      question: 'What is photosynthesis?',
      answer: 'The process by which plants use light energy to turn carbon dioxide and water into glucose and oxygen.',
    },
    tip: 'Share the deck a week before the test, so students have time for several spaced reviews.',
  },
];

export function findAudience(slug: string | undefined): Audience | undefined {
  return audiences.find((audience) => audience.slug === slug);
}
