import type { Card, CardSource } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { CardImages } from '../../components/card-images';
import { Notice } from '../../components/notice';
import { useDeleteCardSource } from '../../lib/decks-api';
import type { RegenerateState } from '../../lib/navigation';

/** "Page 3", "Slide 2", or nothing when the source names neither. */
export function sourcePlace(source: CardSource): string | null {
  if (source.slide) return fillMessage(messages.sourceSlide, { slide: source.slide });
  if (source.page) return fillMessage(messages.sourcePage, { page: source.page });
  return null;
}

interface Props {
  card: Pick<Card, '_id' | 'deck_id' | 'source' | 'images'>;
  /** Given by a screen that opens the panel by its own key too (review's S); otherwise the control keeps it. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The key that toggles the panel, shown on the button. */
  shortcut?: string;
}

/**
 * The "Source" button of an AI card and the panel it opens: the quote, the document and its page or slide, the
 * card's figure, and two actions: delete the source, or regenerate cards from the quote's paragraph (on the create
 * page, which charges it as any text generation). A card without a source shows nothing.
 */
export function CardSourceControl({ card, open: openProp, onOpenChange, shortcut }: Props) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const deleteSource = useDeleteCardSource();
  const navigate = useNavigate();
  const panelId = useId();
  const open = openProp ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;

  if (deleted) return <Notice tone="success">{messages.sourceDeleted}</Notice>;
  const source = card.source;
  if (!source) return null;
  const place = sourcePlace(source);

  async function remove() {
    try {
      await deleteSource.mutateAsync(card._id);
      setDeleted(true);
      setOpen(false);
    } catch {
      // The failure is shown by the mutation's error state below.
    }
  }

  function regenerate() {
    if (!source) return;
    const state: RegenerateState = { regenerate: { text: source.paragraph ?? source.quote, deckId: card.deck_id } };
    navigate('/create', { state });
  }

  return (
    <div className="card-source">
      <button
        type="button"
        className="button button--secondary button--small card-source__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        aria-keyshortcuts={shortcut}
        onClick={() => setOpen(!open)}
      >
        {open ? messages.sourceHide : messages.sourceShow}
        {shortcut && (
          <>
            {' '}
            <span className="kbd" aria-hidden="true">
              {shortcut}
            </span>
          </>
        )}
      </button>
      <section id={panelId} className="card-source__panel" hidden={!open} aria-label={messages.sourceTitle}>
        {open && (
          <>
            <figure className="card-source__quote">
              <figcaption className="card-source__label">{messages.sourceQuoteLabel}</figcaption>
              <blockquote>{source.quote}</blockquote>
            </figure>
            {(source.document || place) && (
              <p className="card-source__where muted">
                {[source.document ? fillMessage(messages.sourceDocument, { document: source.document }) : null, place]
                  .filter(Boolean)
                  .join(', ')}
              </p>
            )}
            <CardImages images={card.images} />
            {deleteSource.isError && <Notice tone="error">{messages.sourceDeleteFailed}</Notice>}
            <div className="card-source__actions">
              <button type="button" className="button button--secondary button--small" onClick={regenerate}>
                {messages.sourceRegenerate}
              </button>
              <button
                type="button"
                className="button button--danger-outline button--small"
                onClick={remove}
                disabled={deleteSource.isPending}
              >
                {messages.sourceDelete}
              </button>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
