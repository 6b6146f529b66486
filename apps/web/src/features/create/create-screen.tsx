import type { CardStyle, GeneratedCard, GenerationProgress } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type ChangeEvent, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { DeckSelect } from '../../components/deck-select';
import { useSubscriptionStatus } from '../../lib/billing-api';
import { useDecks } from '../../lib/decks-api';
import type { RegenerateState, StudyDeckState } from '../../lib/navigation';
import { CardStyleControl } from './card-style-control';
import { GenerationCancelled, useGenerateCards } from './create-api';
import {
  acceptedFiles,
  deckNameFromFile,
  deckNameFromText,
  fileProblem,
  generationCost,
  generationErrorMessage,
  mergeFinalCards,
  progressSentence,
  saveBannerMs,
  savedSentence,
  startsSelected,
} from './create-rules';
import {
  loadCardStyle,
  loadDraft,
  markOnboardingSeen,
  onboardingSeen,
  storeCardStyle,
  storeCards,
  storeDeckName,
  storeSelection,
  storeText,
} from './create-store';
import { GeneratedCardItem } from './generated-card-item';
import { OnboardingModal } from './onboarding-modal';
import { SavePanel } from './save-panel';
import './create.css';
import { Notice } from '../../components/notice';
import { useTimedNotice } from '../../lib/use-timed-notice';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The create page: text or a file in, generated cards out, pick and edit
 * them, save them to a deck. Cards, selection and text survive leaving the page (local storage) until saved.
 */
export function CreateScreen() {
  const [draft] = useState(loadDraft);
  const [text, setText] = useState(draft.text.slice(0, limits.maxTextLength));
  const [cards, setCards] = useState<GeneratedCard[]>(draft.cards);
  const [selected, setSelected] = useState<number[]>(draft.selected);
  const [file, setFile] = useState<File | null>(null);
  const [deckName, setDeckName] = useState(draft.deckName);
  const [cardStyle, setCardStyle] = useState<CardStyle>(loadCardStyle);
  const [studyOffer, setStudyOffer] = useState<{ deckId: string; deckName: string; count: number } | null>(null);
  // The deck whose cards new ones are compared with, and the one the shown cards were compared with.
  const [checkDeckId, setCheckDeckId] = useState('');
  const [checkedDeckId, setCheckedDeckId] = useState('');
  const decks = useDecks();
  const navigate = useNavigate();
  const location = useLocation();
  const regenerateRequest = useRef((location.state as Partial<RegenerateState> | null)?.regenerate ?? null);
  const resultsRef = useRef<HTMLElement>(null);
  const resultsHeadingRef = useRef<HTMLHeadingElement>(null);
  // Set when a generation starts; the first cards to arrive then take the view and the focus, once.
  const revealResults = useRef(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const [generationError, setGenerationError] = useState<string | null>(null);
  const banner = useTimedNotice<string>(saveBannerMs);
  const [tutorialOpen, setTutorialOpen] = useState(() => !onboardingSeen());
  const [progress, setProgress] = useState<GenerationProgress | null>(null);
  const [cancelNote, setCancelNote] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const bannerRef = useRef<HTMLParagraphElement>(null);
  const textId = useId();
  const counterId = useId();
  const fileId = useId();
  const status = useSubscriptionStatus();
  const generate = useGenerateCards();
  const deckList = decks.data ?? [];
  const duplicateDeckId = deckList.some((deck) => deck._id === checkDeckId) ? checkDeckId : '';

  // The tutorial counts as seen from the moment it is on screen: written in the same commit that shows it (a
  // layout effect runs before anything else can read the flag), not in a passive effect some time after paint.
  useLayoutEffect(() => {
    if (tutorialOpen) markOnboardingSeen();
  }, [tutorialOpen]);
  useEffect(() => storeText(text), [text]);
  useEffect(() => storeCards(cards), [cards]);
  useEffect(() => storeSelection(selected), [selected]);
  useEffect(() => storeDeckName(deckName), [deckName]);
  useEffect(() => storeCardStyle(cardStyle), [cardStyle]);
  // Results arrive below the input, out of view on most screens: bring them into view and focus their heading.
  useEffect(() => {
    if (cards.length === 0 || !revealResults.current) return;
    revealResults.current = false;
    resultsRef.current?.scrollIntoView?.({ block: 'start' });
    resultsHeadingRef.current?.focus({ preventScroll: true });
  }, [cards.length]);
  // The Save button has just gone with the cards: focus moves to the banner instead of being lost.
  useEffect(() => {
    if (banner.value !== null) bannerRef.current?.focus();
  }, [banner.value]);

  const cost = generationCost(file);
  const remaining = status.data?.remaining;
  const short = remaining !== undefined && remaining < cost;
  const allSelected = cards.length > 0 && selected.length === cards.length;

  function changeText(event: ChangeEvent<HTMLTextAreaElement>) {
    const value = event.target.value;
    if (value.length > limits.maxTextLength) {
      setText(value.slice(0, limits.maxTextLength));
      setInputError(messages.textTooLong);
    } else {
      setText(value);
      setInputError(null);
    }
  }

  function changeFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    if (!chosen) return;
    const problem = fileProblem(chosen);
    if (problem) {
      setInputError(problem);
      setFile(null);
      event.target.value = '';
      return;
    }
    setInputError(null);
    setFile(chosen);
  }

  function removeFile() {
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  }

  /** Generates from the page's input, or from `passage` (text only) when given. */
  async function submitGeneration(passage?: { text: string; deckId: string }) {
    if (generate.isPending) return;
    setGenerationError(null);
    setCancelNote(false);
    const input = passage
      ? { text: passage.text, file: null, cardStyle, deckId: passage.deckId }
      : { text, file, cardStyle, deckId: duplicateDeckId };
    if (!input.text.trim() && !input.file) {
      setInputError(messages.emptyInput);
      return;
    }
    setInputError(null);
    setStudyOffer(null);
    setCheckedDeckId(input.deckId);
    setDeckName(input.file ? deckNameFromFile(input.file.name) : deckNameFromText(input.text));
    revealResults.current = true;
    // A new generation replaces the list; streamed cards are stored as they come, so that leaving the page (or a
    // reload) keeps what was shown, and the stored list (with edits made meanwhile) is what each card joins.
    const streamed: GeneratedCard[] = [];
    storeCards([]);
    storeSelection([]);
    setCards([]);
    setSelected([]);
    banner.clear();
    setProgress(null);
    try {
      const result = await generate.start(input, {
        onProgress: setProgress,
        onCard: (card) => {
          streamed.push(card);
          const draft = loadDraft();
          const nextCards = [...draft.cards, card];
          const nextSelected = startsSelected(card) ? [...draft.selected, nextCards.length - 1] : draft.selected;
          storeCards(nextCards);
          storeSelection(nextSelected);
          setCards(nextCards);
          setSelected(nextSelected);
        },
      });
      // The final list (de-duplicated, capped, in source order) replaces the streamed one, keeping the choices made.
      const draft = loadDraft();
      const final = mergeFinalCards(result.cards, streamed, draft.cards, draft.selected);
      storeCards(final.cards);
      storeSelection(final.selected);
      setCards(final.cards);
      setSelected(final.selected);
      // The file has been read: keeping it chosen would price the next generation by it ("Need 5, Have 1").
      removeFile();
    } catch (error) {
      if (error instanceof GenerationCancelled) setCancelNote(true);
      else setGenerationError(generationErrorMessage(error));
    } finally {
      setProgress(null);
    }
  }

  // "Regenerate from this passage" (review, Cards tab) opens this page with the passage: it is generated at once,
  // and the request is taken out of the history entry so that a reload does not pay for it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, for the request the page was opened with.
  useEffect(() => {
    const passage = regenerateRequest.current;
    if (!passage) return;
    regenerateRequest.current = null;
    navigate('.', { replace: true, state: null });
    setText(passage.text.slice(0, limits.maxTextLength));
    setCheckDeckId(passage.deckId);
    void submitGeneration(passage);
  }, []);

  function toggle(index: number) {
    setSelected((current) =>
      current.includes(index) ? current.filter((i) => i !== index) : [...current, index].sort((a, b) => a - b),
    );
  }

  function toggleAll() {
    setSelected(allSelected ? [] : cards.map((_, index) => index));
  }

  function editCard(index: number, card: GeneratedCard) {
    setCards((current) => current.map((existing, i) => (i === index ? card : existing)));
  }

  function saved(deck: { _id: string; name: string }, count: number, skipped: number) {
    setCards([]);
    setSelected([]);
    setText('');
    setDeckName('');
    removeFile();
    banner.show(savedSentence(deck.name, count, skipped));
    setStudyOffer(count > 0 ? { deckId: deck._id, deckName: deck.name, count } : null);
  }

  function studySavedCards() {
    if (!studyOffer) return;
    const state: StudyDeckState = { studyDeck: { deckId: studyOffer.deckId, name: studyOffer.deckName } };
    navigate('/review', { state });
  }

  const selectedCards = selected.map((index) => cards[index]).filter((card): card is GeneratedCard => !!card);

  return (
    <main id="main" className="page create-page">
      <div className="create-page__header">
        <h1>Create Cards</h1>
        <button type="button" className="button button--secondary button--small" onClick={() => setTutorialOpen(true)}>
          Show Tutorial
        </button>
      </div>
      {tutorialOpen && <OnboardingModal onClose={() => setTutorialOpen(false)} />}

      {banner.value !== null && (
        <Notice tone="success" tabIndex={-1} ref={bannerRef}>
          {banner.value}
        </Notice>
      )}

      {studyOffer && cards.length === 0 && (
        <div className="create-study">
          <button type="button" className="button button--large" onClick={studySavedCards}>
            {studyOffer.count === 1
              ? messages.studyThisCard
              : fillMessage(messages.studyTheseCards, { count: studyOffer.count })}
          </button>
        </div>
      )}

      {cards.length === 0 && !text && !file && !studyOffer && (
        <aside className="notice notice--info create-page__helper" aria-label="Getting started">
          <strong>New here?</strong> Paste your notes below or upload a file, press Generate, then keep the cards you
          like in one of your decks.
        </aside>
      )}

      <section className="panel create-input" aria-label="Your content">
        <div className="field">
          <label htmlFor={textId}>Text to turn into flashcards</label>
          <textarea
            id={textId}
            rows={10}
            value={text}
            aria-describedby={counterId}
            placeholder="Paste your notes, an article or a chapter here..."
            onChange={changeText}
          />
          <p id={counterId} className="create-input__counter muted">
            {text.length} / {limits.maxTextLength} characters
          </p>
        </div>
        <div className="field">
          <label htmlFor={fileId}>Or upload a file (PDF, TXT, DOCX, DOC, PPTX, JPG, PNG; up to 10 MB)</label>
          <input id={fileId} ref={fileInput} type="file" accept={acceptedFiles} onChange={changeFile} />
          {file && (
            <p className="create-input__file">
              <span>
                {file.name} ({formatBytes(file.size)})
              </span>
              <button type="button" className="button button--secondary button--small" onClick={removeFile}>
                Remove file
              </button>
            </p>
          )}
        </div>
        <CardStyleControl value={cardStyle} onValue={setCardStyle} disabled={generate.isPending} />
        {deckList.length > 0 && (
          <DeckSelect
            label={messages.createCheckDeck}
            fieldClassName="create-input__deck"
            decks={deckList}
            value={duplicateDeckId}
            onValue={setCheckDeckId}
            emptyOption={messages.createCheckDeckNone}
            disabled={generate.isPending}
          />
        )}
        {inputError && <Notice tone="error">{inputError}</Notice>}
        {generationError && <Notice tone="error">{generationError}</Notice>}
        <div className="create-input__actions">
          {short ? (
            <p className="create-input__short">
              {fillMessage(messages.quotaShort, { need: cost, have: remaining })}{' '}
              <Link className="button button--small" to="/account">
                Upgrade
              </Link>
            </p>
          ) : (
            <>
              <button
                type="button"
                className="button button--large"
                onClick={() => submitGeneration()}
                disabled={generate.isPending}
              >
                {generate.isPending ? 'Generating...' : `Generate Flashcards (Cost: ${cost})`}
              </button>
              {generate.isPending && (
                <button type="button" className="button button--secondary" onClick={generate.cancel}>
                  Cancel
                </button>
              )}
            </>
          )}
          <p className="muted create-input__note">{messages.generationNote}</p>
        </div>
        {generate.isPending && (
          <div className="create-progress" role="status" aria-live="polite">
            <progress
              className="create-progress__bar"
              aria-label="Generation progress"
              {...(progress && progress.total > 0 ? { value: progress.done, max: progress.total } : {})}
            />
            <p className="create-progress__text">{progressSentence(progress, file?.name ?? null)}</p>
          </div>
        )}
        {cancelNote && <Notice tone="info">{messages.generationCancelled}</Notice>}
      </section>

      {cards.length > 0 && (
        <section className="create-results" aria-labelledby={`${textId}-results`} ref={resultsRef}>
          <div className="create-results__header">
            <h2 id={`${textId}-results`} ref={resultsHeadingRef} tabIndex={-1}>
              Generated Cards
            </h2>
            <p className="muted create-results__count">
              {selected.length} of {cards.length} selected
            </p>
            <button type="button" className="button button--secondary button--small" onClick={toggleAll}>
              {allSelected ? 'Deselect All' : 'Select All'}
            </button>
          </div>
          <ul className="create-results__grid">
            {cards.map((card, index) => (
              <GeneratedCardItem
                // Cards have no ids before they are saved; a new generation replaces the whole list.
                // biome-ignore lint/suspicious/noArrayIndexKey: the position is the card's identity here.
                key={`${index}-${card.question}`}
                card={card}
                index={index}
                selected={selected.includes(index)}
                onToggle={() => toggle(index)}
                onEdit={(edited) => editCard(index, edited)}
              />
            ))}
          </ul>
          <SavePanel
            key={`${deckName}|${checkedDeckId}`}
            selectedCards={selectedCards}
            suggestedDeckName={deckName}
            initialDeckId={deckList.some((deck) => deck._id === checkedDeckId) ? checkedDeckId : ''}
            onSaved={saved}
          />
        </section>
      )}
    </main>
  );
}
