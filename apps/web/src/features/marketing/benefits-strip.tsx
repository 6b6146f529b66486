const benefits = [
  {
    icon: '✨',
    title: 'Effortless creation',
    text: 'Paste text or upload a PDF, Word file, slides or a photo, and get question and answer cards in seconds.',
  },
  {
    icon: '💬',
    title: 'Ask the AI before you learn',
    text: 'Not sure what a card means? Generate a quiz on the deck and test yourself with new questions.',
  },
  {
    icon: '⏱️',
    title: 'No manual work',
    text: 'No typing, no formatting: pick the cards you want, edit any of them, and save them to a deck.',
  },
  {
    icon: '🎯',
    title: 'Master any concept',
    text: 'Spaced repetition brings each card back just before you would forget it, so it stays learned.',
  },
];

/** The four benefits of product-spec.md section 1: one column on phones, two from 576 px, four from 992 px. */
export function BenefitsStrip() {
  return (
    <section className="benefits" aria-labelledby="benefits-heading">
      <h2 id="benefits-heading" className="visually-hidden">
        Why it works
      </h2>
      <ul className="benefits__grid">
        {benefits.map((benefit) => (
          <li key={benefit.title} className="benefit-card">
            <span className="benefit-card__icon" aria-hidden="true">
              {benefit.icon}
            </span>
            <h3>{benefit.title}</h3>
            <p>{benefit.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
