import { type ClozeNode, parseCloze } from '@flashcards/shared/notes';
import type { ReactNode } from 'react';

function render(nodes: ClozeNode[], key: string): ReactNode[] {
  return nodes.map((node, index) => {
    const id = `${key}-${index}`;
    if (node.kind === 'text') return <span key={id}>{node.text}</span>;
    return (
      <mark key={id} className="cloze-deletion">
        <span className="visually-hidden">{`Blank ${node.number}: `}</span>
        {render(node.children, id)}
        <sup className="cloze-deletion__number" aria-hidden="true">
          {node.number}
        </sup>
      </mark>
    );
  });
}

/** A cloze note's text with its deletions visible: each blank highlighted with its number (the card it makes). */
export function ClozeText({ text }: { text: string }) {
  const parsed = parseCloze(text);
  return <p className="cloze-text">{parsed.ok ? render(parsed.nodes, 'c') : text}</p>;
}
