import { messages } from '@flashcards/shared/messages';
import { CardMarkdown } from '../../components/card-markdown';
import { type NoteDraft, previewCardTitle, previewDraft } from './note-draft';

const side = (text: string) =>
  text.trim() ? <CardMarkdown text={text} /> : <p className="muted">{messages.cardPreviewEmpty}</p>;

/** The question and answer as review shows them (the same markdown and math renderer), updated as one types. */
export function CardPreview({ question, answer }: { question: string; answer: string }) {
  return (
    <section className="card-preview" aria-label="Preview">
      <p className="deck-cards__label">Preview: question</p>
      {side(question)}
      <p className="deck-cards__label">Preview: answer</p>
      {side(answer)}
    </section>
  );
}

/**
 * Every card the note will make, as review will show it: a basic note's one card, a reversed note's two, a cloze
 * note's one per cloze number (rendered by the shared renderer the server uses), or why a cloze text makes none yet.
 */
export function NotePreview({ draft }: { draft: NoteDraft }) {
  if (draft.type === 'basic') return <CardPreview question={draft.first} answer={draft.second} />;
  const { cards, problem } = previewDraft(draft);
  let body = <p className="muted">{problem ?? messages.cardPreviewEmpty}</p>;
  if (cards.length > 0) {
    body = (
      <ol className="note-preview__cards">
        {cards.map((card, index) => (
          <li key={`${card.card_type}-${card.ord}`} className="note-preview__card">
            <p className="note-preview__title">{previewCardTitle(card, index)}</p>
            <p className="deck-cards__label">{messages.previewQuestion}</p>
            {side(card.question)}
            <p className="deck-cards__label">{messages.previewAnswer}</p>
            {side(card.answer)}
          </li>
        ))}
      </ol>
    );
  }
  return (
    <section className="card-preview" aria-label="Preview">
      {body}
    </section>
  );
}
