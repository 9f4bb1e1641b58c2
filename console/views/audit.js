import { api, download } from '../api.js';
import { $, badge, code, el, labelCells, ms, pathList, say, td, utc } from '../dom.js';

const FILTERS = ['user', 'tool', 'status', 'stage', 'rule', 'since', 'until', 'reviewId', 'taskId'];

/** The filters of the form as query parameters (times as UTC ISO). */
function query(form, extra = {}) {
  const params = new URLSearchParams(extra);
  const data = new FormData(form);
  for (const k of FILTERS) {
    const v = String(data.get(k) ?? '').trim();
    if (!v) continue;
    params.set(k, k === 'since' || k === 'until' ? new Date(`${v}Z`).toISOString() : v);
  }
  return params;
}

/** Sets the form from `params` (a link from a review, a task, or the defaults). */
export function setAuditFilters(params = {}) {
  const form = $('#audit-form');
  for (const k of FILTERS) {
    const input = form.elements.namedItem(k);
    if (input) input.value = params[k] ?? '';
  }
}

/**
 * The audit explorer: the tenant's records (an employee's own), filtered by user, tool, status,
 * deciding stage and rule, and time; a row opens to its whole decision path with every reason, the
 * logged arguments and links; "Why?" shows the record as `twinline check --explain` would.
 */
export async function showAudit(ctx) {
  const form = $('#audit-form');
  form.elements.namedItem('user').closest('label').hidden = !(ctx.me.reviewer || ctx.me.auditor);
  const params = query(form, { limit: '200' });
  const scope = [
    params.get('reviewId') ? `review ${params.get('reviewId').slice(0, 8)}` : '',
    params.get('taskId') ? `task ${params.get('taskId').slice(0, 8)}` : '',
  ].filter(Boolean);
  $('#audit-scope').textContent = scope.length ? `Records of ${scope.join(', ')}.` : '';
  const { records } = await api(`/v1/audit?${params}`);
  const body = $('#audit-table tbody');
  body.replaceChildren();
  if (records.length === 0)
    body.append(el('tr', {}, el('td', { colspan: 8, class: 'muted' }, 'No records match.')));
  for (const r of records) {
    const toggle = el(
      'button',
      {
        type: 'button',
        class: 'expand',
        'aria-expanded': 'false',
        'aria-label': `Details of ${r.tool} at ${utc(r.time)}`,
      },
      '▸',
    );
    const row = el(
      'tr',
      { 'data-audit-id': r.id },
      td(toggle),
      td(utc(r.time)),
      td(r.user),
      td(r.tool),
      td(badge(r.status)),
      td(
        r.decidedBy
          ? el('span', { class: 'decided-by' }, `${r.decidedBy.stage} · ${r.decidedBy.ruleId}`)
          : '',
      ),
      td(el('span', { class: 'summary' }, r.resultSummary)),
      el('td', { class: 'num' }, ms(r.durationMs)),
    );
    const detail = el('tr', { class: 'detail-row', hidden: true }, el('td', { colspan: 8 }, details(ctx, r)));
    toggle.addEventListener('click', () => {
      const open = detail.hidden;
      detail.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      toggle.textContent = open ? '▾' : '▸';
    });
    body.append(row, detail);
  }
  labelCells($('#audit-table'));
  // Which search the table shows (and how many rows), for whoever waits on a search to land.
  $('#audit-table').dataset.query = params.toString();
  $('#audit-table').dataset.rows = String(records.length);
}

function details(ctx, r) {
  return el(
    'div',
    { class: 'record' },
    el(
      'div',
      { class: 'record-head' },
      r.decidedBy
        ? el(
            'p',
            {},
            el('strong', {}, r.status === 'executed' ? 'Allowed by ' : 'Decided by '),
            `${r.decidedBy.stage} · ${r.decidedBy.ruleId}: ${r.decidedBy.reason}`,
          )
        : null,
      el(
        'p',
        { class: 'muted' },
        `${r.domain} line · agent ${r.agent} · session ${r.sessionId} · ${ms(r.durationMs)} ms`,
      ),
    ),
    el('h4', {}, 'Decision path'),
    pathList(r.decisionPath),
    el('h4', {}, r.argsLevel ? `Arguments (as level ${r.argsLevel} may see them)` : 'Arguments'),
    r.args !== undefined ? code(r.args) : el('p', { class: 'muted' }, 'Only the hash was kept.'),
    el('p', { class: 'muted' }, `hash ${r.argsHash}`),
    el(
      'div',
      { class: 'buttons' },
      el('button', { type: 'button', 'data-action': 'why', onclick: () => why(r) }, 'Why?'),
      r.reviewId
        ? el(
            'button',
            {
              type: 'button',
              class: 'secondary',
              onclick: () => ctx.open('audit', { reviewId: r.reviewId }),
            },
            'All records of its review',
          )
        : null,
      r.taskId
        ? el(
            'button',
            { type: 'button', class: 'secondary', onclick: () => ctx.open('tasks', { taskId: r.taskId }) },
            'Open its task',
          )
        : null,
    ),
  );
}

async function why(r) {
  const panel = $('#explain-panel');
  try {
    const out = await api(`/v1/audit/${encodeURIComponent(r.id)}/explain`);
    $('#explain-title').textContent = `Why? ${r.tool} · ${r.status}`;
    $('#explain-text').textContent = out.text.join('\n');
    panel.hidden = false;
    $('#explain-close').focus();
  } catch (err) {
    say(err.message, true);
  }
}

async function exportRecords(format) {
  const params = query($('#audit-form'), { format, limit: '10000' });
  try {
    const { blob, name } = await download(`/v1/audit/export?${params}`);
    const url = URL.createObjectURL(blob);
    const a = el('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    say(`Exported ${name}.`);
  } catch (err) {
    say(err.message, true);
  }
}

export function bindAudit(ctx) {
  $('#audit-form').addEventListener('submit', (e) => {
    e.preventDefault();
    showAudit(ctx).catch((err) => say(err.message, true));
  });
  $('#audit-reset').addEventListener('click', () => {
    setAuditFilters();
    showAudit(ctx).catch((err) => say(err.message, true));
  });
  $('#audit-export-csv').addEventListener('click', () => exportRecords('csv'));
  $('#audit-export-json').addEventListener('click', () => exportRecords('json'));
  $('#explain-close').addEventListener('click', () => {
    $('#explain-panel').hidden = true;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') $('#explain-panel').hidden = true;
  });
}
