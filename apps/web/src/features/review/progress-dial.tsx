const radius = 34;
const circumference = 2 * Math.PI * radius;

/** How far the session has come: a ring that fills as cards are answered, with "done / total" inside. */
export function ProgressDial({ done, total }: { done: number; total: number }) {
  const share = total === 0 ? 0 : Math.min(1, done / total);
  return (
    <div
      className="progress-dial"
      role="progressbar"
      aria-label="Review progress"
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
      aria-valuetext={`${done} of ${total} cards`}
    >
      <svg viewBox="0 0 80 80" aria-hidden="true" focusable="false">
        <circle className="progress-dial__track" cx="40" cy="40" r={radius} />
        <circle
          className="progress-dial__fill"
          cx="40"
          cy="40"
          r={radius}
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - share)}
        />
      </svg>
      <span className="progress-dial__text" aria-hidden="true">
        {done}/{total}
      </span>
    </div>
  );
}
