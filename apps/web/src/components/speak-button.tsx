import type { MouseEvent, PointerEvent } from 'react';
import './speak-button.css';

/**
 * A speaker button on a card side: reads the side aloud. It keeps its click and pointer to itself, so that pressing
 * it on a card neither flips nor drags the card.
 */
export function SpeakButton({ label, onSpeak }: { label: string; onSpeak: () => void }) {
  const keep = (event: MouseEvent | PointerEvent) => event.stopPropagation();
  return (
    <button
      type="button"
      className="speak-button"
      aria-label={label}
      title={label}
      onPointerDown={keep}
      onClick={(event) => {
        keep(event);
        onSpeak();
      }}
    >
      <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20">
        <path
          fill="currentColor"
          d="M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z"
        />
      </svg>
    </button>
  );
}
