/** Reading card text aloud with the browser's speech synthesis (works offline, costs nothing). */

export type SpeakOutcome = 'spoken' | 'no_voice' | 'unavailable';

function synthesis(): SpeechSynthesis | null {
  if (typeof window === 'undefined' || !('speechSynthesis' in window)) return null;
  if (typeof SpeechSynthesisUtterance === 'undefined') return null;
  return window.speechSynthesis;
}

/** How long to wait for the voice list, which some browsers fill only after the first ask. */
const voicesWaitMs = 1000;

function loadVoices(speech: SpeechSynthesis): Promise<SpeechSynthesisVoice[]> {
  const now = speech.getVoices();
  if (now.length > 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = () => resolve(speech.getVoices());
    speech.addEventListener('voiceschanged', done, { once: true });
    setTimeout(done, voicesWaitMs);
  });
}

const normalTag = (tag: string) => tag.toLowerCase().replace(/_/g, '-');

/** The voice for a BCP-47 tag: the exact tag first, then any voice of the same language. */
export function voiceFor(voices: readonly SpeechSynthesisVoice[], lang: string): SpeechSynthesisVoice | null {
  const wanted = normalTag(lang);
  const primary = wanted.split('-')[0];
  return (
    voices.find((voice) => normalTag(voice.lang) === wanted) ??
    voices.find((voice) => normalTag(voice.lang).split('-')[0] === primary) ??
    null
  );
}

/**
 * Reads `text` aloud in `lang` (null: the browser's default voice), stopping whatever was being read. Without a voice
 * for the language nothing is read: a wrong voice would mangle the words.
 */
export async function speak(text: string, lang: string | null): Promise<SpeakOutcome> {
  const speech = synthesis();
  if (!speech) return 'unavailable';
  const utterance = new SpeechSynthesisUtterance(text);
  if (lang) {
    const voice = voiceFor(await loadVoices(speech), lang);
    if (!voice) return 'no_voice';
    utterance.voice = voice;
    utterance.lang = voice.lang;
  }
  speech.cancel();
  speech.speak(utterance);
  return 'spoken';
}

/** Stops reading (a new card, leaving the page). */
export function stopSpeaking(): void {
  synthesis()?.cancel();
}
