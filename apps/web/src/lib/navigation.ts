/**
 * A full page load to `path`. Used where the spec says "go to '/'" after the session ends (logout, any 401):
 * reloading drops every cached query and component state of the previous user at once.
 */
export function hardNavigate(path: string): void {
  window.location.assign(path);
}

/** Navigation state that opens the review page straight into a session of one deck ("Study these cards now"). */
export interface StudyDeckState {
  studyDeck: { deckId: string; name: string };
}

/** Navigation state that opens the review page's Add Card on an image occlusion note of a generated card's figure. */
export interface OcclusionFromFigureState {
  /** A media name of the user's. */
  occlusionImage: string;
}

/** Navigation state that opens the create page generating cards from one passage ("Regenerate from this passage"). */
export interface RegenerateState {
  regenerate: { text: string; deckId: string };
}
