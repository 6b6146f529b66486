import type { SharedDeckInfo } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useId, useState } from 'react';
import { CardMarkdown } from '../../components/card-markdown';
import './share-preview.css';

/**
 * A shared deck's first cards, rendered as review renders them (markdown and math), each flipped on its own: the
 * visitor sees what they would import before signing up.
 */
export function SharePreview({ deck }: { deck: SharedDeckInfo }) {
  const headingId = useId();
  const preview = deck.preview ?? [];
  return (
    <section className="share-preview" aria-labelledby={headingId}>
      <h3 id={headingId} className="share-preview__heading">
        {messages.sharePreviewHeading}
      </h3>
      {preview.length === 0 ? (
        <p className="muted">{messages.sharePreviewEmpty}</p>
      ) : (
        <>
          {deck.card_count > preview.length && (
            <p className="muted">
              {fillMessage(messages.sharePreviewMore, { shown: preview.length, total: deck.card_count })}
            </p>
          )}
          <ol className="share-preview__list">
            {preview.map((card, index) => (
              <PreviewCard
                // The preview is a fixed list in the deck's order: the position is the card's identity here.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                key={index}
                label={fillMessage(messages.shareCardPosition, { n: index + 1, total: preview.length })}
                question={card.question}
                answer={card.answer}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function PreviewCard({ label, question, answer }: { label: string; question: string; answer: string }) {
  const [flipped, setFlipped] = useState(false);
  const answerId = useId();
  return (
    <li className="share-preview__card" aria-label={label}>
      <CardMarkdown text={question} className="share-preview__question" />
      {flipped && (
        <div id={answerId} className="share-preview__answer">
          <CardMarkdown text={answer} />
        </div>
      )}
      <button
        type="button"
        className="button button--secondary button--small"
        aria-expanded={flipped}
        aria-controls={flipped ? answerId : undefined}
        onClick={() => setFlipped((shown) => !shown)}
      >
        {flipped ? messages.shareShowQuestion : messages.shareShowAnswer}
      </button>
    </li>
  );
}
