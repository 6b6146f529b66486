export const faqItems: readonly { question: string; answer: string }[] = [
  {
    question: 'What counts as a generation?',
    answer:
      'Each time you generate flashcards you use generations: 1 for text, 3 for an image or a document file, 5 for a PowerPoint (PPTX) file. Quizzes use none.',
  },
  {
    question: 'Which generations are used first?',
    answer: 'Your monthly premium quota is used first, then the generations you purchased in packs.',
  },
  {
    question: 'Do generation packs expire or renew?',
    answer: 'No. A pack is paid once, has no recurring charges and its generations never expire.',
  },
  {
    question: 'When does the monthly quota reset?',
    answer: 'The Monthly plan gives 300 premium generations per month; the quota resets on each renewal.',
  },
  {
    question: 'How do I cancel my subscription?',
    answer:
      'Press Manage Subscription to open the billing portal, where you can cancel. You keep access until the end of the period you paid for.',
  },
];

/** Frequently asked questions as an accordion (native details elements: keyboard and screen reader ready). */
export function Faq() {
  return (
    <section className="panel account-card" aria-labelledby="faq-heading">
      <h2 id="faq-heading">Frequently asked questions</h2>
      <div className="faq">
        {faqItems.map((item) => (
          <details key={item.question} className="faq__item">
            <summary>{item.question}</summary>
            <p>{item.answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
