import { useState } from 'react';
import { Modal } from '../../components/modal';

/** The three steps of the create page's tutorial. */
export const onboardingSteps = [
  {
    title: 'Welcome',
    body: 'Turn your notes, documents and slides into flashcards in a few seconds, then study them with spaced repetition.',
  },
  {
    title: 'Add Your Content',
    body: 'Paste up to 10,000 characters of text, or upload a PDF, TXT, DOCX, DOC, PPTX, JPG or PNG file of up to 10 MB, then press Generate.',
  },
  {
    title: 'Review & Save',
    body: 'Read the generated cards, edit any that need it, select the ones to keep, pick or create a deck and save them.',
  },
] as const;

export function OnboardingModal({ onClose }: { onClose: () => void }) {
  const [step, setStep] = useState(0);
  const current = onboardingSteps[step] ?? onboardingSteps[0];
  const last = step === onboardingSteps.length - 1;
  return (
    <Modal title={current.title} onClose={onClose}>
      <p className="onboarding__step muted">
        Step {step + 1} of {onboardingSteps.length}
      </p>
      <p>{current.body}</p>
      <div className="form__actions onboarding__actions">
        {step > 0 && (
          <button type="button" className="button button--secondary" onClick={() => setStep(step - 1)}>
            Back
          </button>
        )}
        {last ? (
          <button type="button" className="button" onClick={onClose}>
            Get Started
          </button>
        ) : (
          <button type="button" className="button" onClick={() => setStep(step + 1)}>
            Next
          </button>
        )}
      </div>
    </Modal>
  );
}
