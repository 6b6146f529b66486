/**
 * Every key this app keeps in the browser's local storage, in one place, so that
 * no two features pick the same name and logout/cleanup code knows what exists.
 */
export const storageKeys = {
  accessToken: 'access_token',
  generatedCards: 'generated_cards',
  selectedCards: 'selected_cards',
  inputText: 'input_text',
  suggestedDeckName: 'suggested_deck_name',
  cardStyle: 'card_style',
  onboardingShown: 'onboarding_shown',
  analyticsConsent: 'analytics_consent',
  pendingShareImport: 'pending_share_import',
  pendingClassJoin: 'pending_class_join',
  selectedPlanType: 'selected_plan_type',
  pendingSubscriptionEmail: 'pending_subscription_email',
  pendingSubscriptionName: 'pending_subscription_name',
  typeAnswers: 'type_answers',
  speechNoVoiceSaid: 'speech_no_voice_said',
} as const;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/** Keys kept in session storage (this tab only). */
export const sessionKeys = {
  reloadedForChunk: 'reloaded_for_chunk',
} as const;
