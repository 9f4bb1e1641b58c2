import { api } from '../api.js';
import { $, el, td, utc } from '../dom.js';

export async function showRouting() {
  const { decisions } = await api('/v1/routing?limit=50');
  $('#routing-table tbody').replaceChildren(
    ...decisions.map((d) =>
      el(
        'tr',
        {},
        td(utc(d.time)),
        td(d.query),
        td(d.target),
        td(d.scores.deep.toFixed(3)),
        td(d.scores.quick.toFixed(3)),
        td(d.rule ?? ''),
      ),
    ),
  );
}

export function bindRouting() {
  $('#route-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const query = new FormData(e.target).get('query');
    const decision = await api('/v1/route', { method: 'POST', body: JSON.stringify({ query }) });
    $('#route-result').textContent = JSON.stringify(decision, null, 2);
    await showRouting();
  });
}
