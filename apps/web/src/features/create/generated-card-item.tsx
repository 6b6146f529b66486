import type { GeneratedCard } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { checkNote, noteProblemText } from '@flashcards/shared/notes';
import { occlusionMessages } from '@flashcards/shared/occlusion-messages';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/button';
import { CardMarkdown } from '../../components/card-markdown';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
import type { OcclusionFromFigureState } from '../../lib/navigation';
import { ClozeText } from './cloze-text';

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

/** How many cards a cloze text makes (one per number), as the note will. */
function clozeCardCount(text: string): string {
  const checked = checkNote('cloze', { text });
  const count = checked.ok ? checked.cards.length : 0;
  return count === 1 ? messages.clozeMakesOneCard : fillMessage(messages.clozeMakesCards, { count });
}

/**
 * One generated card: a checkbox to select it, its two sides (a cloze note: its text with the deletions marked), and
 * an editor (both sides must stay non-empty; a cloze text must stay a valid cloze note, and stays one).
 */
export function GeneratedCardItem({ card, index, selected, onToggle, onEdit }: Props) {
  const [editing, setEditing] = useState(false);
  const [question, setQuestion] = useState(card.question);
  const [answer, setAnswer] = useState(card.answer);
  const [clozeText, setClozeText] = useState('type' in card ? card.fields.text : '');
  const [error, setError] = useState<string | null>(null);
  const helpId = useId();
  const label = `Card ${index + 1}`;
  const source = sourceLabel(card);
  const cloze = 'type' in card ? card : null;

  function startEditing() {
    setQuestion(card.question);
    setAnswer(card.answer);
    setClozeText(cloze ? cloze.fields.text : '');
    setError(null);
    setEditing(true);
  }

  function save(event: FormEvent) {
    event.preventDefault();
    if (cloze) {
      const text = clozeText.trim();
      const checked = checkNote('cloze', { text });
      const first = checked.ok ? checked.cards[0] : undefined;
      if (!checked.ok || !first) {
        setError(checked.ok ? messages.clozeMissing : noteProblemText(checked.problem));
        return;
      }
      onEdit({ ...cloze, fields: { text }, question: first.question, answer: first.answer });
      setEditing(false);
      return;
    }
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
          {cloze ? (
            <>
              <TextField
                multiline
                label={messages.generatedClozeTextLabel}
                rows={5}
                value={clozeText}
                onValue={setClozeText}
                aria-describedby={helpId}
              />
              <p id={helpId} className="muted generated-card__help">
                {messages.clozeTextHelp}
              </p>
            </>
          ) : (
            <>
              <TextField multiline label="Question" rows={3} value={question} onValue={setQuestion} />
              <TextField multiline label="Answer" rows={4} value={answer} onValue={setAnswer} />
            </>
          )}
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
            {cloze && <span className="generated-card__type">{messages.clozeLabel}</span>}
            {source && <span className="generated-card__source muted">{source}</span>}
          </div>
          {card.verified === false && <Notice tone="info">{messages.sourceUnverified}</Notice>}
          {card.duplicate_of && (
            <Notice tone="info">
              {fillMessage(messages.sourceDuplicate, { question: card.duplicate_of.question })}
            </Notice>
          )}
          {cloze ? (
            <div className="generated-card__side">
              <p className="generated-card__label">{messages.generatedClozeTextLabel}</p>
              <ClozeText text={cloze.fields.text} />
              <p className="muted generated-card__help">{clozeCardCount(cloze.fields.text)}</p>
            </div>
          ) : (
            <>
              <div className="generated-card__side">
                <p className="generated-card__label">Question</p>
                <CardMarkdown text={card.question} />
              </div>
              <div className="generated-card__side">
                <p className="generated-card__label">Answer</p>
                <CardMarkdown text={card.answer} />
              </div>
            </>
          )}
          <GeneratedFigures card={card} onEdit={onEdit} />
          {card.source?.quote && (
            <figure className="generated-card__quote">
              <figcaption className="generated-card__label">{messages.sourceQuoteLabel}</figcaption>
              <blockquote>{card.source.quote}</blockquote>
            </figure>
          )}
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

/**
 * The figures of the card's page or slide as thumbnails, each with a checkbox: the kept ones stay in the card's
 * `images` (and are saved with it), a removed one can be kept again until the card is saved.
 */
function GeneratedFigures({ card, onEdit }: { card: GeneratedCard; onEdit: (card: GeneratedCard) => void }) {
  const [offered] = useState(() => card.images ?? []);
  if (offered.length === 0) return null;
  const kept = new Set(card.images ?? []);
  function toggle(url: string) {
    const next = offered.filter((offer) => (offer === url ? !kept.has(url) : kept.has(offer)));
    onEdit({ ...card, images: next });
  }
  return (
    <fieldset className="generated-card__figures">
      <legend className="generated-card__label">{messages.generatedFiguresLabel}</legend>
      {offered.map((url, index) => (
        <div key={url} className="generated-card__figure">
          <img
            src={url}
            alt={fillMessage(messages.cardImageAlt, { number: index + 1 })}
            loading="lazy"
            decoding="async"
          />
          <label>
            <input type="checkbox" checked={kept.has(url)} onChange={() => toggle(url)} />{' '}
            {fillMessage(messages.generatedFigureKeep, { number: index + 1 })}
          </label>
          {/* The figure is already the learner's media: the occlusion editor opens on it in Add Card. */}
          <Link
            to="/review"
            state={{ occlusionImage: url.replace(/^\/media\//, '') } satisfies OcclusionFromFigureState}
          >
            {fillMessage(occlusionMessages.fromFigure, { number: index + 1 })}
          </Link>
        </div>
      ))}
    </fieldset>
  );
}
