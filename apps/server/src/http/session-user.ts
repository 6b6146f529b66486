import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/schema';

/**
 * What every authenticated request reads of its user: the token version it checks, and what the busiest routes and
 * the scheduling, statistics and billing services use. The rest of the users row is read where it is needed; this
 * lives beside the authentication hook so that http/ never imports a module's repository.
 */
export const sessionColumns = [
  'id',
  'email',
  'token_version',
  'time_zone',
  'fsrs_parameters',
  'fsrs_optimized_at',
  'fsrs_reviews_used',
  'class_memberships',
] as const;
export type SessionUser = Pick<Selectable<UsersTable>, (typeof sessionColumns)[number]>;
