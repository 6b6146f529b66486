import type { Card, Deck } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { preloadCardRenderer } from '../../components/card-markdown';
import { ConfirmModal } from '../../components/confirm-modal';
import { errorDetail } from '../../lib/api-client';
import { useDecks, useDeleteCard, useDeleteDeck } from '../../lib/decks-api';
import type { OcclusionFromFigureState, StudyDeckState } from '../../lib/navigation';
import { AddCardModal } from './card-form';
import { DeckList } from './deck-list';
import { DeckSettingsModal, type SettingsTab } from './deck-settings-modal';
import { useKeepQueuesOnDevice, useRefreshDeckData } from './review-api';
import { ReviewSession, type ReviewTarget } from './review-session';
import './review.css';

type Dialog =
  | { kind: 'add-card'; occlusionImage?: string }
  | { kind: 'settings'; deck: Deck; tab: SettingsTab }
  | { kind: 'share'; deck: Deck }
  | { kind: 'assign'; deck: Deck }
  | { kind: 'delete-deck'; deck: Deck }
  | { kind: 'delete-card'; deck: Deck; card: Card }
  | { kind: 'import' };

/**
 * The dialogs other features own (the import of a file, the sharing of a deck), handed in by the page so that this
 * feature does not import theirs.
 */
export interface ReviewDialogs {
  ImportModal: ComponentType<{ onClose: () => void }>;
  ShareModal: ComponentType<{ deck: Deck; onClose: () => void }>;
  AssignDeckModal: ComponentType<{ deck: Deck; onClose: () => void }>;
}

/** Add Card on an occlusion note of this image, when the Create page sent a figure here. */
function occlusionDialogOf(state: unknown): Dialog | null {
  if (typeof state !== 'object' || state === null || !('occlusionImage' in state)) return null;
  const image = (state as OcclusionFromFigureState).occlusionImage;
  return typeof image === 'string' && image !== '' ? { kind: 'add-card', occlusionImage: image } : null;
}

function studyDeckOf(state: unknown): ReviewTarget | null {
  if (typeof state !== 'object' || state === null || !('studyDeck' in state)) return null;
  const deck = (state as StudyDeckState).studyDeck;
  return typeof deck?.deckId === 'string' && typeof deck.name === 'string'
    ? { deckId: deck.deckId, name: deck.name }
    : null;
}

/**
 * The review page: the deck list with its dialogs, or a review session. One dialog
 * at a time: deleting a card from the settings' Cards tab swaps to the confirmation and back.
 */
export function ReviewScreen({ dialogs }: { dialogs: ReviewDialogs }) {
  const { ImportModal, ShareModal, AssignDeckModal } = dialogs;
  const location = useLocation();
  const [target, setTarget] = useState<ReviewTarget | null>(() => studyDeckOf(location.state));
  const [dialog, setDialog] = useState<Dialog | null>(() => occlusionDialogOf(location.state));
  const refresh = useRefreshDeckData();
  const decks = useDecks();
  useKeepQueuesOnDevice(target === null ? decks.data : undefined);

  // The top navigation's Review link, followed during a session, comes back here as a new location: the session
  // ends and the deck list shows, fetched afresh (with any deck made meanwhile).
  const { key } = location;
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current === key) return;
    shownKey.current = key;
    setTarget(null);
    setDialog(null);
    void refresh();
  }, [key, refresh]);

  // While the deck list waits for a choice, the markdown and math renderer loads, so the first card need not wait.
  const choosing = target === null;
  useEffect(() => {
    if (!choosing) return;
    if (typeof window.requestIdleCallback === 'function') {
      const idle = window.requestIdleCallback(preloadCardRenderer, { timeout: 2_000 });
      return () => window.cancelIdleCallback(idle);
    }
    const timer = setTimeout(preloadCardRenderer, 500);
    return () => clearTimeout(timer);
  }, [choosing]);

  if (target) {
    return (
      <ReviewSession
        target={target}
        onBack={() => {
          setTarget(null);
          void refresh();
        }}
      />
    );
  }

  return (
    <>
      <DeckList
        onReview={(deck) =>
          setTarget(deck ? { deckId: deck._id, name: deck.name } : { deckId: null, name: 'All decks' })
        }
        onAddCard={() => setDialog({ kind: 'add-card' })}
        onSettings={(deck) => setDialog({ kind: 'settings', deck, tab: 'settings' })}
        onShare={(deck) => setDialog({ kind: 'share', deck })}
        onDelete={(deck) => setDialog({ kind: 'delete-deck', deck })}
        onAssign={(deck) => setDialog({ kind: 'assign', deck })}
      />
      {/* Below the decks once they are in: shown under 'Loading...', the arrival of the decks would push it down. */}
      {(decks.data || decks.isError) && (
        <div className="review-import">
          <button type="button" className="button button--secondary" onClick={() => setDialog({ kind: 'import' })}>
            {messages.importTitle}
          </button>
        </div>
      )}
      {dialog?.kind === 'settings' && (
        <DeckSettingsModal
          deck={dialog.deck}
          initialTab={dialog.tab}
          onDeleteCard={(card) => setDialog({ kind: 'delete-card', deck: dialog.deck, card })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'add-card' && (
        <AddCardModal occlusionImage={dialog.occlusionImage} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'import' && <ImportModal onClose={() => setDialog(null)} />}
      {dialog?.kind === 'share' && <ShareModal deck={dialog.deck} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'assign' && <AssignDeckModal deck={dialog.deck} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete-deck' && <DeleteDeckModal deck={dialog.deck} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete-card' && (
        <DeleteCardModal
          card={dialog.card}
          onClose={() => setDialog({ kind: 'settings', deck: dialog.deck, tab: 'cards' })}
        />
      )}
    </>
  );
}

function DeleteDeckModal({ deck, onClose }: { deck: Deck; onClose: () => void }) {
  const remove = useDeleteDeck();
  return (
    <ConfirmModal
      title="Delete deck"
      message={fillMessage(messages.reviewDeleteDeckConfirm, { name: deck.name, count: deck.card_count })}
      confirmLabel="Delete deck"
      pending={remove.isPending}
      error={remove.isError ? messages.reviewDeckDeleteFailed : null}
      onConfirm={() => remove.mutate(deck._id, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}

function DeleteCardModal({ card, onClose }: { card: Card; onClose: () => void }) {
  const remove = useDeleteCard();
  return (
    <ConfirmModal
      title="Delete card"
      message={messages.reviewDeleteCardConfirm}
      confirmLabel="Delete card"
      pending={remove.isPending}
      error={remove.isError ? errorDetail(remove.error, messages.reviewCardDeleteFailed) : null}
      onConfirm={() => remove.mutate(card._id, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
