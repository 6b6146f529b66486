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

/** POST /signup */
export interface SignupRequest {
  email: string;
  password: string;
  name: string;
}

/** GET /shared/{code}. */
export interface SharedDeckInfo {
  deck_name: string;
  owner_name: string;
  card_count: number;
  shared_at: string;
  expires_at: string;
}

/** POST /shared/{code}/import: the caller's new copy. */
export interface ImportResponse {
  _id: string;
  name: string;
}

/** POST /send-feedback request. */
export interface FeedbackRequest {
  email?: string;
  feedback: string;
}
