/** A promise a test settles by hand: `await signal.promise` waits until `signal.fire()` (Node 20 lacks withResolvers). */
export interface Signal {
  promise: Promise<void>;
  fire(): void;
}

export function signal(): Signal {
  let fire: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}
