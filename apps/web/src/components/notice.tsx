import type { ReactNode, Ref } from 'react';

type NoticeTone = 'error' | 'success' | 'info';

interface NoticeProps {
  /** `error` is announced at once (role="alert"); `success` and `info` politely (role="status"). */
  tone: NoticeTone;
  children: ReactNode;
  /** Extra classes beside `notice notice--<tone>`. */
  className?: string;
  id?: string;
  tabIndex?: number;
  ref?: Ref<HTMLParagraphElement>;
}

/** The one way to show a message box: a paragraph with the notice classes and the live-region role of its tone. */
export function Notice({ tone, children, className, id, tabIndex, ref }: NoticeProps) {
  const classes = className ? `notice notice--${tone} ${className}` : `notice notice--${tone}`;
  return (
    <p id={id} ref={ref} tabIndex={tabIndex} className={classes} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}
