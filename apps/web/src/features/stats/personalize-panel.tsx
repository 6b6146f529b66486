import { fillMessage, messages } from '@flashcards/shared/messages';
import { Notice } from '../../components/notice';
import { errorDetail } from '../../lib/api-client';
import { useOptimize, useResetScheduling, useScheduling } from './stats-api';
import { improvement } from './stats-figures';

/**
 * "Personalize scheduling": how many reviews there are, what a fit would use, a button to run it, and the log loss
 * before and after in plain words.
 */
export function PersonalizePanel() {
  const info = useScheduling();
  const optimize = useOptimize();
  const reset = useResetScheduling();

  if (info.isError) {
    return <Notice tone="error">{messages.statsLoadFailed}</Notice>;
  }
  if (!info.data) return <p>{messages.loading}</p>;
  const { personalized, reviews_used, reviews_since, min_reviews, optimized_at } = info.data;
  const total = personalized ? reviews_used + reviews_since : reviews_since;
  const enough = total >= min_reviews;
  const result = optimize.data;

  return (
    <div className="personalize">
      <p>{messages.personalizeIntro}</p>
      <p>
        {personalized && optimized_at
          ? fillMessage(messages.personalizeActive, {
              n: reviews_used,
              date: new Date(optimized_at).toLocaleDateString('en-GB', { dateStyle: 'medium' }),
              since: reviews_since,
            })
          : messages.personalizeDefault}
      </p>
      <p>
        {enough
          ? fillMessage(messages.personalizeUses, { n: total })
          : fillMessage(messages.personalizeCount, { n: total, min: min_reviews })}
      </p>
      <div className="form__actions form__actions--start">
        <button
          type="button"
          className="button"
          disabled={!enough || optimize.isPending}
          onClick={() => optimize.mutate()}
        >
          {optimize.isPending ? messages.personalizeRunning : messages.personalizeRun}
        </button>
        {personalized && (
          <button
            type="button"
            className="button button--secondary"
            disabled={reset.isPending}
            onClick={() => {
              optimize.reset();
              reset.mutate();
            }}
          >
            {messages.personalizeReset}
          </button>
        )}
      </div>
      <div role="status" aria-live="polite">
        {result && (
          <>
            <p>
              {fillMessage(messages.personalizeResult, {
                before: result.log_loss_default.toFixed(3),
                after: result.log_loss_personal.toFixed(3),
                change:
                  improvement(result.log_loss_default, result.log_loss_personal) > 0
                    ? fillMessage(messages.personalizeBetter, {
                        percent: improvement(result.log_loss_default, result.log_loss_personal),
                      })
                    : messages.personalizeNotBetter,
              })}
            </p>
            {result.detail && <p>{result.detail}</p>}
          </>
        )}
      </div>
      {optimize.isError && <Notice tone="error">{errorDetail(optimize.error, messages.personalizeFailed)}</Notice>}
    </div>
  );
}
