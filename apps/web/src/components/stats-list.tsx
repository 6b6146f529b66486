import type { ReactNode } from 'react';

/** A deck's (or all decks') numbers as a definition list: label, value. */
export function StatsList({ entries, inline = false }: { entries: [string, ReactNode][]; inline?: boolean }) {
  return (
    <dl className={inline ? 'deck-stats deck-stats--inline' : 'deck-stats'}>
      {entries.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
