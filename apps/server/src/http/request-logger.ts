import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * `request.log`, made on first use. Fastify makes a pino child for every request (its bindings serialised into a
 * string), but a request that goes well logs nothing through it: its access line goes through the root logger with
 * the request id (access-log.ts). A request that does log (an error, a warning) gets the same child, with the same
 * `reqId`, as before. Kept because, against Fastify's own child logger, it clearly lowers the cost of a request
 * (docs/performance.md).
 */
class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  get real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level(): string {
    return this.#child ? this.#child.level : this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

// The log methods, once on the prototype: forwarded with their arguments as given (pino's are overloaded).
for (const method of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] satisfies LogMethod[]) {
  Object.defineProperty(LazyRequestLogger.prototype, method, {
    value(this: LazyRequestLogger, ...args: unknown[]) {
      (this.real[method] as (...forwarded: unknown[]) => void)(...args);
    },
  });
}

export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
