// The one composed undici dispatcher both clients share: a keep-alive Agent with the retry interceptor. The
// interceptor's own policy never retries; each call brings its bound policy (retryHandler.ts) in `retryOptions`.
import { Agent, interceptors, type Dispatcher } from "undici";

const ALL_METHODS = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE", "POST", "PATCH"] as const;

export interface ClientDispatcherOptions {
  /** How long an idle keep-alive socket is kept, in milliseconds. Default 4,000 ms. */
  keepAliveTimeoutMs?: number;
  /** Most sockets per origin. Default unlimited. */
  connections?: number;
}

/** A fresh dispatcher of the kind the clients need (keep-alive agent + retry interceptor). */
export function createClientDispatcher(options: ClientDispatcherOptions = {}): Dispatcher {
  const agent = new Agent({
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  });
  return agent.compose(
    interceptors.retry({
      // Hand every answer to the retry function instead of throwing away its body (undici's default).
      throwOnError: false,
      // undici retries no POST by default; our policy decides per call, so the interceptor lets every method through.
      methods: [...ALL_METHODS],
      errorCodes: [],
      retry: (err, _context, callback) => callback(err),
    }),
  );
}

let shared: Dispatcher | undefined;

/** The process-wide dispatcher the clients use unless given their own. */
export function sharedClientDispatcher(): Dispatcher {
  shared ??= createClientDispatcher();
  return shared;
}
