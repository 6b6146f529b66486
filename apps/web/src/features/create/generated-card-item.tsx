import type { GeneratedCard } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { CardMarkdown } from '../../components/card-markdown';

interface Props {
  card: GeneratedCard;
  index: number;
  selected: boolean;
  onToggle: () => void;
  onEdit: (card: GeneratedCard) => void;
}

function sourceLabel(card: GeneratedCard): string | null {
  if (card.source?.slide) return `Slide ${card.source.slide}`;
  if (card.source?.page) return `Page ${card.source.page}`;
  return null;
}

/** One generated card: a checkbox to select it, its two sides, and an editor (both sides must stay non-empty). */
export function GeneratedCardItem({ card, index, selected, onToggle, onEdit }: Props) {
  const [editing, setEditing] = useState(false);
  const [question, setQuestion] = useState(card.question);
  const [answer, setAnswer] = useState(card.answer);
  const [error, setError] = useState<string | null>(null);
  const questionId = useId();
  const answerId = useId();
  const label = `Card ${index + 1}`;
  const source = sourceLabel(card);

  function startEditing() {
    setQuestion(card.question);
    setAnswer(card.answer);
    setError(null);
    setEditing(true);
  }

  function save(event: FormEvent) {
    event.preventDefault();
    if (!question.trim() || !answer.trim()) {
      setError(messages.cardSidesEmpty);
      return;
    }
    onEdit({ ...card, question: question.trim(), answer: answer.trim() });
    setEditing(false);
  }

  return (
    <li className={`generated-card${selected ? ' generated-card--selected' : ''}`} aria-label={label}>
      {editing ? (
        <form className="form" onSubmit={save}>
          <div className="field">
            <label htmlFor={questionId}>Question</label>
            <textarea id={questionId} rows={3} value={question} onChange={(e) => setQuestion(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={answerId}>Answer</label>
            <textarea id={answerId} rows={4} value={answer} onChange={(e) => setAnswer(e.target.value)} />
          </div>
          {error && (
            <p className="notice notice--error" role="alert">
              {error}
            </p>
          )}
          <div className="form__actions">
            <button type="submit" className="button button--small">
              Save Card
            </button>
            <button type="button" className="button button--secondary button--small" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="generated-card__head">
            <label className="generated-card__select">
              <input type="checkbox" checked={selected} onChange={onToggle} />
              <span>Select {label.toLowerCase()}</span>
            </label>
            {source && <span className="generated-card__source muted">{source}</span>}
          </div>
          <div className="generated-card__side">
            <p className="generated-card__label">Question</p>
            <CardMarkdown text={card.question} />
          </div>
          <div className="generated-card__side">
            <p className="generated-card__label">Answer</p>
            <CardMarkdown text={card.answer} />
          </div>
          <button
            type="button"
            className="button button--secondary button--small"
            aria-label={`Edit ${label.toLowerCase()}`}
            onClick={startEditing}
          >
            Edit
          </button>
        </>
      )}
    </li>
  );
}
