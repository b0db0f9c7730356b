import { httpErrorCodeOf, isHttpErrorCode, type HttpErrorCode } from '@xtalk/protocol';

/*
 * HTTP helper: credentials included, GET/DELETE carry params,
 * PUT/POST carry JSON, only the response body is returned. Retries: a request that got a
 * response is rejected with it and never retried; one that got no response is retried up to 3 times,
 * waiting 500 ms x |remaining - 3| before each retry.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** What went wrong, for the client to word (the body's `code`, else the status's). */
  get code(): HttpErrorCode {
    const code = (this.body as { code?: unknown } | undefined)?.code;
    return isHttpErrorCode(code) ? code : httpErrorCodeOf(this.status);
  }
}

export const MAX_RETRIES = 3;
export const RETRY_STEP_MS = 500;

/** The wait before the retry taken when `remaining` retries were still left. */
export function retryDelayMs(remaining: number): number {
  return RETRY_STEP_MS * Math.abs(remaining - MAX_RETRIES);
}

export interface RequestOptions {
  token?: string | undefined;
  body?: unknown;
  params?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
}

const defaultDeps: ApiClientDeps = {
  fetch: (...args) => globalThis.fetch(...args),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

function withParams(path: string, params: RequestOptions['params']): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RequestOptions = {},
  deps: ApiClientDeps = defaultDeps,
): Promise<T> {
  // a DELETE carries a body only when given one (deleting an account may carry the password)
  const carriesBody = method !== 'GET' && (method !== 'DELETE' || options.body !== undefined);
  const url = carriesBody ? path : withParams(path, options.params);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (carriesBody) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;

  for (let remaining = MAX_RETRIES; ; remaining--) {
    let response: Response;
    try {
      response = await deps.fetch(url, {
        method,
        headers,
        credentials: 'include',
        body: carriesBody ? JSON.stringify(options.body ?? {}) : undefined,
        signal: options.signal,
      });
    } catch (error) {
      // No response at all (offline, server restarting): worth another try, unless aborted on purpose.
      if (options.signal?.aborted || remaining === 0) throw error;
      await deps.sleep(retryDelayMs(remaining));
      continue;
    }
    const body = await readBody(response);
    if (response.ok) return body as T;
    // `{ statusCode, error, message, code }` (protocol's errorBodySchema), read without zod: first load
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ApiError(
      response.status,
      body,
      typeof message === 'string' ? message : `HTTP ${response.status}`,
    );
  }
}
