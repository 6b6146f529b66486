import { JSONParser } from '@streamparser/json';

/**
 * Reads a model's reply as it streams in and hands over each card object as soon as its closing brace arrives:
 * `{"cards":[{…},{…}]}` as the JSON schema asks, `{"flashcards":[…]}`, or a bare array, after any prose or code
 * fence that servers without structured output put before it. Text after the JSON is ignored. When the reply is
 * not JSON after all, the stream simply stops handing out cards (`failed`); the caller reads the whole reply at the
 * end as before.
 */
export interface CardStream {
  write(delta: string): void;
  readonly failed: boolean;
}

export function createCardStream(onObject: (value: unknown) => void): CardStream {
  let parser: JSONParser | null = null;
  let done = false;
  let failed = false;

  function start(rootChar: string) {
    parser = new JSONParser({
      // A bare array's items, or the items of the object's "cards" (or "flashcards") array.
      paths: rootChar === '[' ? ['$.*'] : ['$.cards.*', '$.flashcards.*'],
      keepStack: false,
    });
    parser.onValue = ({ value }) => onObject(value);
    parser.onEnd = () => {
      done = true;
    };
    parser.onError = () => {
      if (!done) failed = true;
    };
  }

  return {
    get failed() {
      return failed;
    },
    write(delta: string) {
      if (done || failed || !delta) return;
      let text = delta;
      if (!parser) {
        const at = text.search(/[[{]/);
        if (at < 0) return;
        start(text[at] as string);
        text = text.slice(at);
      }
      try {
        parser?.write(text);
      } catch {
        // Not JSON after all: no more cards from the stream.
        if (!done) failed = true;
      }
    },
  };
}
