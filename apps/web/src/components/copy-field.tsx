import { useId, useState } from 'react';
import { useTimedNotice } from '../lib/use-timed-notice';
import { Notice } from './notice';

/** How long the copy button says it copied. */
export const copyFieldNoticeMs = 2000;

interface CopyFieldProps {
  label: string;
  value: string;
  copyLabel: string;
  copiedLabel: string;
  copyFailedText: string;
}

/** A read-only text (a code, a link) with a button that copies it, and a polite word once it is copied. */
export function CopyField({ label, value, copyLabel, copiedLabel, copyFailedText }: CopyFieldProps) {
  const id = useId();
  const copiedNotice = useTimedNotice<true>(copyFieldNoticeMs);
  const copied = copiedNotice.value !== null;
  const [failed, setFailed] = useState(false);

  async function copy() {
    setFailed(false);
    try {
      await navigator.clipboard.writeText(value);
      copiedNotice.show(true);
    } catch {
      copiedNotice.clear();
      setFailed(true);
    }
  }

  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-field__row">
        <input id={id} type="text" readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" className="button button--secondary" onClick={copy} aria-label={`${copyLabel}: ${label}`}>
          {copied ? copiedLabel : copyLabel}
        </button>
      </div>
      <p className="visually-hidden" role="status">
        {copied ? copiedLabel : ''}
      </p>
      {failed && <Notice tone="error">{copyFailedText}</Notice>}
    </div>
  );
}
