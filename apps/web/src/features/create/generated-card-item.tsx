import type { GeneratedCard } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { CardMarkdown } from '../../components/card-markdown';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';

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
          <TextField multiline label="Question" rows={3} value={question} onValue={setQuestion} />
          <TextField multiline label="Answer" rows={4} value={answer} onValue={setAnswer} />
          {error && <Notice tone="error">{error}</Notice>}
          <div className="form__actions">
            <Button type="submit" small>
              Save Card
            </Button>
            <Button variant="secondary" small onClick={() => setEditing(false)}>
              Cancel
            </Button>
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
