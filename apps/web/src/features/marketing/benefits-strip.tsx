const benefits = [
  {
    icon: 'M12 3l2.2 5.3L20 9l-4.4 3.8L17 19l-5-3.2L7 19l1.4-6.2L4 9l5.8-.7z',
    title: 'Effortless creation',
    text: 'Paste text or upload a PDF, Word file, slides or a photo, and get question and answer cards in seconds.',
  },
  {
    icon: 'M4 5h16v11H8l-4 4z M8 9h8 M8 12h5',
    title: 'Ask the AI before you learn',
    text: 'Not sure what a card means? Generate a quiz on the deck and test yourself with new questions.',
  },
  {
    icon: 'M12 7v5l3 2 M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18',
    title: 'No manual work',
    text: 'No typing, no formatting: pick the cards you want, edit any of them, and save them to a deck.',
  },
  {
    icon: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18 M12 7a5 5 0 1 0 0 10a5 5 0 1 0 0-10 M12 11a1 1 0 1 0 0 2a1 1 0 1 0 0-2',
    title: 'Master any concept',
    text: 'Spaced repetition brings each card back just before you would forget it, so it stays learned.',
  },
];

/** The four benefits: one column on phones, two from 576 px, four from 992 px. */
export function BenefitsStrip() {
  return (
    <section className="benefits" aria-labelledby="benefits-heading">
      <h2 id="benefits-heading" className="visually-hidden">
        Why it works
      </h2>
      <ul className="benefits__grid">
        {benefits.map((benefit) => (
          <li key={benefit.title} className="panel panel--flat benefit-card">
            <svg className="benefit-card__icon" viewBox="0 0 24 24" aria-hidden="true">
              <path d={benefit.icon} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
            </svg>
            <h3>{benefit.title}</h3>
            <p>{benefit.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
