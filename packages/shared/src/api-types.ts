/** Shapes of api-contract.md, shared by the server (responses) and the web app (requests). */

/** Every 4xx/5xx body. */
export interface ApiError {
  detail: string;
  code: string;
  errors?: { field: string; message: string }[];
}

export interface User {
  _id: string;
  email: string;
  name: string;
  created_at: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
}

/** GET /api/config: what this server offers the web app. No secrets. */
export interface ClientConfig {
  google_client_id: string | null;
  /** "offline" for the built-in generator, otherwise the model name. */
  ai_provider: string;
  payment_mode: 'test' | 'live';
}

export interface HealthResponse {
  status: 'ok';
}

/** Where a generated card's material came from in an uploaded file. */
export interface CardSource {
  page?: number;
  slide?: number;
}

export interface GeneratedCard {
  question: string;
  answer: string;
  /** Present when the card comes from a page or slide of an uploaded file. */
  source?: CardSource;
}

/** POST /create */
export interface GenerateResponse {
  cards: GeneratedCard[];
  cost: number;
  remaining: number;
}

/** POST /api/quiz/generate */
export interface QuizResponse {
  cards: { question: string; answer: string }[];
}

/** GET /api/subscription-status */
export interface SubscriptionStatus {
  has_access: boolean;
  plan_type: string | null;
  premium_quota: number;
  premium_requests_used: number;
  purchased_generations: number;
  subscription_end_date: string | null;
  free_quota: number;
  free_used: number;
  /** What the next generation may draw on. */
  remaining: number;
}
