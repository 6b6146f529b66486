import type { DeckStats } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { formatNextDue } from '@flashcards/shared/next-due';

/** 'Next cards available very soon.' / 'in N minutes/hours/days', from the deck statistics. */
export function NextDueLine({ stats }: { stats: DeckStats | undefined }) {
  if (!stats) return null;
  if (stats.next_due_time === null) {
    return stats.total_cards > 0 ? null : <p className="muted">{messages.reviewNothingScheduled}</p>;
  }
  return (
    <p className="review-next-due">
      {fillMessage(messages.reviewNextDue, { when: formatNextDue(stats.next_due_time) })}
    </p>
  );
}
