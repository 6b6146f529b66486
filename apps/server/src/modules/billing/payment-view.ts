import type { PaymentView } from '@flashcards/shared/api-types';
import { isoTime } from '@flashcards/shared/time';
import type { Selectable } from 'kysely';
import type { PaymentsTable } from '../../db/schema';

/** GET /api/payments: one row of the payment history as the API shows it (amounts in currency units). */
export function toPaymentView(row: Selectable<PaymentsTable>): PaymentView {
  return {
    _id: row.id,
    plan_type: row.plan_type,
    kind: row.kind,
    amount: row.amount_cents / 100,
    currency: row.currency,
    status: row.status,
    generations_granted: row.generations_granted,
    created_at: isoTime(row.created_at),
  };
}
