import { type CardStyle, cardStyles, type GeneratedCard } from '@flashcards/shared/api-types';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';

/**
 * What the create page keeps in local storage: the generated cards, which of
 * them are selected (their positions), and the input text, so that leaving and coming back restores the work.
 */
export interface CreateDraft {
  cards: GeneratedCard[];
  selected: number[];
  text: string;
  /** The deck name offered for these cards (from the file's name or the text's first line). */
  deckName: string;
}

function parse(value: string | null): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

function isCard(value: unknown): value is GeneratedCard {
  if (typeof value !== 'object' || value === null) return false;
  const card = value as Record<string, unknown>;
  if (typeof card.question !== 'string' || typeof card.answer !== 'string') return false;
  if (card.type === undefined) return true;
  const fields = card.fields as Record<string, unknown> | null | undefined;
  return card.type === 'cloze' && typeof fields === 'object' && fields !== null && typeof fields.text === 'string';
}

/** Reads the stored draft; anything malformed is dropped rather than trusted. */
export function loadDraft(): CreateDraft {
  const storedCards = parse(localStore.get(storageKeys.generatedCards));
  const cards = Array.isArray(storedCards) ? storedCards.filter(isCard) : [];
  const storedSelected = parse(localStore.get(storageKeys.selectedCards));
  const selected = Array.isArray(storedSelected)
    ? [...new Set(storedSelected)].filter(
        (index): index is number => Number.isInteger(index) && index >= 0 && index < cards.length,
      )
    : [];
  const text = localStore.get(storageKeys.inputText) ?? '';
  const deckName = (localStore.get(storageKeys.suggestedDeckName) ?? '').slice(0, 200);
  return { cards, selected, text, deckName };
}

export function storeCards(cards: GeneratedCard[]): void {
  if (cards.length === 0) localStore.remove(storageKeys.generatedCards);
  else localStore.set(storageKeys.generatedCards, JSON.stringify(cards));
}

export function storeSelection(selected: number[]): void {
  if (selected.length === 0) localStore.remove(storageKeys.selectedCards);
  else localStore.set(storageKeys.selectedCards, JSON.stringify(selected));
}

export function storeText(text: string): void {
  if (text === '') localStore.remove(storageKeys.inputText);
  else localStore.set(storageKeys.inputText, text);
}

export function storeDeckName(name: string): void {
  if (name === '') localStore.remove(storageKeys.suggestedDeckName);
  else localStore.set(storageKeys.suggestedDeckName, name);
}

/** The card style last chosen on the Create page (basic until one is). */
export function loadCardStyle(): CardStyle {
  const stored = localStore.get(storageKeys.cardStyle);
  return cardStyles.find((style) => style === stored) ?? 'basic';
}

export function storeCardStyle(style: CardStyle): void {
  localStore.set(storageKeys.cardStyle, style);
}

export function onboardingSeen(): boolean {
  return localStore.get(storageKeys.onboardingShown) === 'true';
}

export function markOnboardingSeen(): void {
  localStore.set(storageKeys.onboardingShown, 'true');
}
