import { api } from '../api.js';
import { horizontalBars, OUTCOME_COLORS, pairedBars, stackedColumns } from '../charts.js';
import { $, el, ms, span } from '../dom.js';

const BREAKER_COLORS = { closed: '#2f855a', half_open: '#b7791f', open: '#c53030' };

/** The overview: plots of the tenant's decisions, denials, latency, the queue and the breakers. */
export async function showOverview() {
  const o = await api('/v1/overview?hours=24&buckets=24');
  $('#overview-window').textContent = `last 24 h · ${o.records} calls`;
  $('#plot-decisions').replaceChildren(
    stackedColumns(
      o.buckets,
      ['allowed', 'denied', 'review', 'error'],
      OUTCOME_COLORS,
      'Decisions per hour by outcome',
    ),
  );
  $('#plot-denials').replaceChildren(
    o.topDenyingRules.length
      ? horizontalBars(
          o.topDenyingRules.map((r) => ({
            label: `${r.stage} · ${r.rule}`,
            value: r.count,
            color: OUTCOME_COLORS.denied,
          })),
          'Rules that denied most calls',
        )
      : el('p', { class: 'muted' }, 'No denials in this window.'),
  );
  $('#plot-latency').replaceChildren(
    o.latencyByLine.length
      ? pairedBars(
          o.latencyByLine.map((l) => ({ label: l.line, a: l.p50Ms, b: l.p95Ms })),
          ['p50', 'p95'],
          ['#2b6cb0', '#90cdf4'],
          'Gateway latency per line in ms',
          (v) => `${ms(v)} ms`,
        )
      : el('p', { class: 'muted' }, 'No calls in this window.'),
  );
  const states = Object.entries(o.queue.tasks).sort();
  $('#plot-queue').replaceChildren(
    el(
      'dl',
      { class: 'figures' },
      el('div', {}, el('dt', {}, 'running'), el('dd', { id: 'queue-running' }, String(o.queue.running))),
      el('div', {}, el('dt', {}, 'waiting'), el('dd', { id: 'queue-waiting' }, String(o.queue.waiting))),
      o.reviews
        ? [
            el('div', {}, el('dt', {}, 'reviews pending'), el('dd', {}, String(o.reviews.pending))),
            el(
              'div',
              {},
              el('dt', {}, 'oldest review'),
              el('dd', {}, o.reviews.pending ? span(o.reviews.oldestAgeS) : '—'),
            ),
          ]
        : [],
    ),
    states.length
      ? horizontalBars(
          states.map(([k, v]) => ({ label: k, value: v, color: '#4a5568' })),
          'Your tasks by status',
        )
      : el('p', { class: 'muted' }, 'No tasks.'),
  );
  $('#plot-breakers').replaceChildren(
    o.breakers.length
      ? el(
          'ul',
          { class: 'chips' },
          o.breakers.map((b) =>
            el(
              'li',
              {
                class: `chip state-${b.state}`,
                style: `border-color:${BREAKER_COLORS[b.state] ?? '#4a5568'}`,
              },
              `${b.tool}: ${b.state}`,
            ),
          ),
        )
      : el('p', { class: 'muted' }, 'No tool has been called yet.'),
  );
}
