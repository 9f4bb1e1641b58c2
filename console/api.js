// The console's one way to the server: the same HTTP API everyone uses, with the logged-in key.
// It holds no authority; every answer was decided and gated by the server for this caller.
const KEY = 'twinline.apiKey';

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key) {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}

function headers(extra = {}) {
  return { authorization: `Bearer ${apiKey()}`, ...extra };
}

/** A JSON request; a refusal becomes an Error carrying the server's message. */
export async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: headers(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
  });
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
  if (!res.ok) {
    const err = new Error(body?.message ?? `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

/** A file the server sends (an export): its text and the name it suggests. */
export async function download(path) {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export';
  return { blob: await res.blob(), name };
}

/**
 * Follows a server-sent event stream with the key in the header (EventSource cannot send one).
 * `onEvent(name, data)` sees each event; returns a function that stops following.
 */
export function follow(path, onEvent, onEnd) {
  const ac = new AbortController();
  (async () => {
    try {
      const res = await fetch(path, { headers: headers(), signal: ac.signal });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) onEvent(name, JSON.parse(data));
          cut = buffer.indexOf('\n\n');
        }
      }
      onEnd?.();
    } catch (err) {
      if (!ac.signal.aborted) onEnd?.(err);
    }
  })();
  return () => ac.abort();
}
