/**
 * The daily new-card limit (docs/api.md, "Rules the API keeps"): each deck introduces at most its
 * `daily_new_card_limit` of new cards per study day (study-day.ts); a card counts as introduced by its first review
 * that day that was not undone.
 */

/** A deck's daily new-card limit and how many new cards it introduced since the study day began. */
export interface NewCardAllowance {
  deckId: string;
  dailyLimit: number;
  introduced: number;
}

/** How many new cards each deck may still give today, with at most `room` from any one deck; decks with none left are dropped. */
export function newCardTakes(
  allowances: readonly NewCardAllowance[],
  room: number,
): { deckId: string; limit: number }[] {
  return allowances
    .map((deck) => ({ deckId: deck.deckId, limit: Math.min(room, Math.max(0, deck.dailyLimit - deck.introduced)) }))
    .filter((deck) => deck.limit > 0);
}
