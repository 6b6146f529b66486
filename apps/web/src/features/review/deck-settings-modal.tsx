import type { Card, Deck } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { formatNextDue } from '@flashcards/shared/next-due';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { StatsList } from '../../components/stats-list';
import { TextField } from '../../components/text-field';
import { errorDetail } from '../../lib/api-client';
import { useDeckStats, useDecks, useUpdateDeckSettings } from '../../lib/decks-api';
import { AddCardForm } from './card-form';
import { SearchBox, SearchResults, useSettled } from './card-search';
import { parseDailyLimit } from './daily-limit';
import { DeckCardList } from './deck-card-list';
import { ExamSettings } from './exam-settings';

export type SettingsTab = 'settings' | 'cards';

interface DeckSettingsModalProps {
  deck: Deck;
  initialTab: SettingsTab;
  onDeleteCard: (card: Card) => void;
  onClose: () => void;
}

/**
 * Deck settings: the Settings tab (daily new card limit, the deck's statistics) and the Cards tab (add, search,
 * edit, delete; big decks page in as the list scrolls).
 */
export function DeckSettingsModal({ deck: opened, initialTab, onDeleteCard, onClose }: DeckSettingsModalProps) {
  const [tab, setTab] = useState<SettingsTab>(initialTab);
  // The deck as the list has it now, so a rename shows in the title at once.
  const decks = useDecks();
  const deck = decks.data?.find((item) => item._id === opened._id) ?? opened;
  const baseId = useId();
  const tabs: { id: SettingsTab; label: string }[] = [
    { id: 'settings', label: 'Settings' },
    { id: 'cards', label: 'Cards' },
  ];
  return (
    <Modal title={`Deck settings: ${deck.name}`} onClose={onClose}>
      <div className="tabs deck-settings__tabs" role="tablist" aria-label="Deck settings">
        {tabs.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`${baseId}-${item.id}-tab`}
            aria-selected={tab === item.id}
            aria-controls={`${baseId}-${item.id}-panel`}
            className="tabs__tab"
            onClick={() => setTab(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-${tab}-panel`}
        aria-labelledby={`${baseId}-${tab}-tab`}
        className="deck-settings__panel"
      >
        {tab === 'settings' ? <SettingsPanel deck={deck} /> : <CardsPanel deck={deck} onDeleteCard={onDeleteCard} />}
      </div>
    </Modal>
  );
}

/**
 * A percentage typed by the learner as a desired retention from 0.70 to 0.97, or null for anything else (out of
 * range, not a whole number): the form then says what it takes instead of saving something else.
 */
export function parseRetentionPercent(text: string): number | null {
  const trimmed = text.trim().replace(/\s*%$/, '');
  if (!/^\d{1,3}$/.test(trimmed)) return null;
  const retention = Number(trimmed) / 100;
  return retention >= limits.minDesiredRetention && retention <= limits.maxDesiredRetention ? retention : null;
}

function SettingsPanel({ deck }: { deck: Deck }) {
  const inputId = useId();
  const retentionId = useId();
  const retentionHelpId = useId();
  const retentionErrorId = useId();
  const nameErrorId = useId();
  const [name, setName] = useState(deck.name);
  const [value, setValue] = useState(String(deck.daily_new_card_limit));
  const initialRetention = deck.desired_retention ?? limits.defaultDesiredRetention;
  const [retention, setRetention] = useState(String(Math.round(initialRetention * 100)));
  const [nameError, setNameError] = useState<string | null>(null);
  const [retentionError, setRetentionError] = useState<string | null>(null);
  const save = useUpdateDeckSettings(deck._id);
  const stats = useDeckStats(deck._id);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    const desired = parseRetentionPercent(retention);
    setNameError(trimmed ? null : messages.deckNameEmpty);
    setRetentionError(desired === null ? messages.desiredRetentionPercentInvalid : null);
    if (!trimmed || desired === null) {
      save.reset();
      return;
    }
    const limit = parseDailyLimit(value);
    setValue(String(limit));
    setName(trimmed);
    save.mutate({
      daily_new_card_limit: limit,
      desired_retention: desired,
      ...(trimmed !== deck.name ? { name: trimmed } : {}),
    });
  }

  return (
    <>
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={messages.deckNameLabel}
          type="text"
          autoComplete="off"
          maxLength={limits.maxDeckNameLength}
          value={name}
          onValue={(next) => {
            setName(next);
            setNameError(null);
            save.reset();
          }}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? nameErrorId : undefined}
        />
        {nameError && (
          <Notice tone="error" id={nameErrorId}>
            {nameError}
          </Notice>
        )}
        <div className="field">
          <label htmlFor={inputId}>Daily new card limit</label>
          <input
            id={inputId}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              save.reset();
            }}
          />
        </div>
        <div className="field">
          <label htmlFor={retentionId}>Desired retention (%)</label>
          <input
            id={retentionId}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            aria-describedby={retentionError ? `${retentionHelpId} ${retentionErrorId}` : retentionHelpId}
            aria-invalid={retentionError ? true : undefined}
            value={retention}
            onChange={(event) => {
              setRetention(event.target.value);
              setRetentionError(null);
              save.reset();
            }}
          />
          <p id={retentionHelpId} className="field__hint">
            {messages.desiredRetentionHint}
          </p>
        </div>
        {retentionError && (
          <Notice tone="error" id={retentionErrorId}>
            {retentionError}
          </Notice>
        )}
        {save.isSuccess && <Notice tone="success">{messages.deckSettingsSaved}</Notice>}
        {save.isError && <Notice tone="error">{errorDetail(save.error, messages.reviewDailyLimitSaveFailed)}</Notice>}
        <div className="form__actions">
          <button type="submit" className="button" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </button>
        </div>
      </form>
      <ExamSettings deck={deck} />
      <h3 className="deck-settings__heading">Overall stats</h3>
      <p>
        <Link to={`/stats?deck_id=${deck._id}`} aria-label={`Statistics for ${deck.name}`}>
          Statistics
        </Link>
      </p>
      {stats.isError ? (
        <Notice tone="error">{messages.reviewStatsLoadFailed}</Notice>
      ) : !stats.data ? (
        <p>{messages.loading}</p>
      ) : (
        <StatsList
          entries={[
            ['Total cards', stats.data.total_cards],
            ['New', stats.data.new_cards],
            ['Learning', stats.data.learning_cards],
            ['Due', stats.data.due_cards],
            ['Reviewed today', stats.data.cards_reviewed_today],
            ['Next due', stats.data.next_due_time ? formatNextDue(stats.data.next_due_time) : 'None scheduled'],
          ]}
        />
      )}
    </>
  );
}

/** A class deck's copy lists and searches its cards without Add, Edit or Delete: its teacher keeps them. */
function CardsPanel({ deck, onDeleteCard }: { deck: Deck; onDeleteCard: (card: Card) => void }) {
  const [adding, setAdding] = useState(false);
  const [query, setQuery] = useState('');
  const q = useSettled(query);
  const readOnly = deck.linked === true;
  return (
    <>
      {readOnly && <p className="muted">{classMessages.linkedReadOnly}</p>}
      <div className="cards-toolbar">
        <SearchBox value={query} onChange={setQuery} label={messages.searchCardsPlaceholder} />
        {!adding && !readOnly && (
          <button type="button" className="button button--small" onClick={() => setAdding(true)}>
            {messages.addCard}
          </button>
        )}
      </div>
      {adding && <AddCardForm deck={deck} onClose={() => setAdding(false)} />}
      {q ? (
        <SearchResults q={q} deckId={deck._id} />
      ) : (
        <DeckCardList deckId={deck._id} onDeleteCard={onDeleteCard} readOnly={readOnly} />
      )}
    </>
  );
}
