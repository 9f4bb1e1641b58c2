import type { TracerPort } from '../core/index.js';
import type { TelemetryMetrics } from './metrics-port.js';

/** A model provider as the observer sees it (the agent module's `ModelProvider`, structurally). */
export interface ObservableProvider {
  readonly kind: string;
  readonly model: string;
  turn(request: never): AsyncIterable<ObservedDelta>;
  forSubagent?(definitionName: string): ObservableProvider;
}

/** The deltas of a turn, as far as the observer reads them. */
export interface ObservedDelta {
  readonly type: string;
  readonly message?: { readonly finishReason?: string | undefined; readonly toolCalls?: readonly unknown[] };
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

export interface ModelObservers {
  readonly tracer?: TracerPort | undefined;
  readonly metrics?: TelemetryMetrics | undefined;
}

/**
 * `provider` with every turn observed (docs/operations.md, "Traces"): a `chat {model}` client span
 * (OpenTelemetry GenAI conventions: operation, provider, model, token usage, finish reason) and
 * the turn's latency and tokens as metrics. Prompts and answers are never recorded. A sub-agent's
 * provider is observed the same way. With neither observer, `provider` itself is returned.
 */
export function observeProvider<P extends ObservableProvider>(provider: P, observers: ModelObservers): P {
  if (!observers.tracer && !observers.metrics) return provider;
  return new ObservedProvider(provider, observers) as unknown as P;
}

/** A provider whose turns are observed; a plain class, so making one per request costs nothing. */
class ObservedProvider implements ObservableProvider {
  readonly kind: string;
  readonly model: string;
  readonly forSubagent?: (definitionName: string) => ObservableProvider;

  constructor(
    private readonly inner: ObservableProvider,
    private readonly observers: ModelObservers,
  ) {
    this.kind = inner.kind;
    this.model = inner.model;
    if (inner.forSubagent)
      this.forSubagent = (name: string) => observeProvider(inner.forSubagent!(name), observers);
  }

  turn(request: never): AsyncIterable<ObservedDelta> {
    return observedTurn(this.inner, request, this.observers);
  }
}

async function* observedTurn(
  provider: ObservableProvider,
  request: never,
  { tracer, metrics }: ModelObservers,
): AsyncGenerator<ObservedDelta> {
  const span = tracer?.start(`chat ${provider.model}`, {
    kind: 'client',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider.kind,
      'gen_ai.request.model': provider.model,
    },
  });
  const started = performance.now();
  let inputTokens = 0;
  let outputTokens = 0;
  let retries = 0;
  let outcome: 'ok' | 'error' = 'ok';
  try {
    for await (const delta of provider.turn(request)) {
      if (delta.type === 'message') {
        inputTokens = delta.usage?.inputTokens ?? 0;
        outputTokens = delta.usage?.outputTokens ?? 0;
        span?.set({
          'gen_ai.response.model': provider.model,
          'gen_ai.usage.input_tokens': inputTokens,
          'gen_ai.usage.output_tokens': outputTokens,
          'gen_ai.response.finish_reasons': [
            delta.message?.finishReason ?? (delta.message?.toolCalls?.length ? 'tool_calls' : 'stop'),
          ],
          'twinline.model.tool_calls': delta.message?.toolCalls?.length ?? 0,
        });
      } else if (delta.type === 'retry') {
        retries++;
      }
      yield delta;
    }
  } catch (err) {
    outcome = 'error';
    span?.fail(errorType(err));
    throw err;
  } finally {
    if (retries > 0) span?.set({ 'twinline.model.retries': retries });
    span?.end();
    try {
      metrics?.modelTurn({
        provider: provider.kind,
        model: provider.model,
        seconds: (performance.now() - started) / 1000,
        inputTokens,
        outputTokens,
        outcome,
      });
    } catch {
      // A metric that cannot be recorded is dropped; the turn stands.
    }
  }
}

function errorType(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code) return code;
  return err instanceof Error ? err.name : 'error';
}
