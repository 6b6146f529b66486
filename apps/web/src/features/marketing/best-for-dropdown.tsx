import { messages } from '@flashcards/shared/messages';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { audiences } from './audiences';

/** 'Best for?' menu of the five marketing pages; closes on a click outside it, on Escape and on choosing. */
export function BestForDropdown() {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent | TouchEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('touchstart', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('touchstart', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div className="dropdown" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="dropdown__button"
        aria-expanded={open}
        aria-controls="best-for-menu"
        onClick={() => setOpen((value) => !value)}
      >
        {messages.bestFor} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul id="best-for-menu" className="dropdown__menu">
          {audiences.map((audience) => (
            <li key={audience.slug}>
              <Link to={`/best-for/${audience.slug}`} onClick={() => setOpen(false)}>
                {audience.menuLabel}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
