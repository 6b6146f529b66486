/**
 * Table types for Kysely. Conventions (docs/ARCHITECTURE.md): ids are 24-hex text, times are integer
 * epoch milliseconds, booleans are 0/1 integers, so the same rows work on SQLite and PostgreSQL.
 */

export interface UsersTable {
  id: string;
  /** Trimmed and lower-cased; unique. */
  email: string;
  name: string;
  /** argon2id PHC string; null for accounts that only sign in with Google. */
  password_hash: string | null;
  /** Google's stable subject id, once the account has signed in with Google. */
  google_sub: string | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
}
