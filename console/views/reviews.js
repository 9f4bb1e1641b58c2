import { api } from '../api.js';
import { $, badge, code, el, labelCells, pathList, say, span, td, utc } from '../dom.js';

/**
 * The review queue: each call with the request and task it came from, who asked (roles, data
 * level), why it waits, its age and time left, and who decided it and when. Approve and deny are
 * shown only to reviewers, and only while a review is pending; a denial needs a note.
 */
export async function showReviews(ctx) {
  const { reviews, now } = await api('/v1/reviews?limit=100');
  const clock = Date.parse(now);
  const body = $('#reviews-table tbody');
  body.replaceChildren();
  $('#reviews-empty').hidden = reviews.length > 0;
  for (const r of reviews) {
    const age = (clock - Date.parse(r.createdAt)) / 1000;
    const left = (Date.parse(r.expiresAt) - clock) / 1000;
    const tr = el('tr', { 'data-review-id': r.id });
    tr.append(
      td(
        el('strong', {}, r.tool),
        el('div', { class: 'muted' }, r.id.slice(0, 8)),
        el('div', { class: 'muted' }, r.domain),
      ),
      td(
        `${r.user}`,
        r.requester
          ? el('div', { class: 'muted' }, `${r.requester.roles.join(', ')} · ${r.requester.dataLevel}`)
          : null,
      ),
      td(
        r.request ? el('div', { class: 'request' }, r.request) : el('span', { class: 'muted' }, '—'),
        r.taskId
          ? el(
              'button',
              {
                type: 'button',
                class: 'link',
                'data-action': 'task',
                onclick: () => ctx.open('tasks', { taskId: r.taskId }),
              },
              `task ${r.taskId.slice(0, 8)}`,
            )
          : null,
      ),
      td(code(r.args)),
      td(pathList(r.decisionPath), el('div', { class: 'reason' }, r.reason)),
      td(
        el('div', {}, `${span(age)} old`),
        r.status === 'pending'
          ? el(
              'div',
              { class: left < 3600 ? 'warn' : 'muted' },
              left > 0 ? `expires in ${span(left)}` : 'expired',
            )
          : null,
      ),
      td(
        badge(r.status),
        r.decidedBy
          ? el(
              'div',
              { class: 'decider' },
              r.decidedByRule ? `rule ${r.decidedBy.replace(/^[^:]*:/, '')}` : `by ${r.decidedBy}`,
              r.decidedAt ? el('div', { class: 'muted' }, utc(r.decidedAt)) : null,
            )
          : null,
        r.decisionNote ? el('div', { class: 'note' }, `“${r.decisionNote}”`) : null,
        r.resultSummary ? el('div', { class: 'muted' }, r.resultSummary) : null,
      ),
      actions(ctx, r),
    );
    body.append(tr);
  }
  labelCells($('#reviews-table'));
}

function actions(ctx, r) {
  const cell = td();
  if (ctx.me.reviewer && r.status === 'pending') {
    const approve = el('button', { type: 'button', class: 'approve', 'data-action': 'approve' }, 'Approve');
    approve.addEventListener('click', () => decide(ctx, r, 'approve', {}, approve));
    const deny = el('button', { type: 'button', class: 'deny', 'data-action': 'deny' }, 'Deny');
    deny.addEventListener('click', () => denyForm(ctx, r, cell));
    cell.append(approve, deny);
  }
  cell.append(
    el(
      'button',
      {
        type: 'button',
        class: 'link',
        'data-action': 'audit',
        onclick: () => ctx.open('audit', { reviewId: r.id }),
      },
      'Audit',
    ),
  );
  return cell;
}

function denyForm(ctx, r, cell) {
  const note = el('textarea', {
    'aria-label': 'Why is this call denied?',
    placeholder: 'Why is it denied? (required)',
    rows: 2,
    'data-field': 'note',
  });
  const confirm = el(
    'button',
    { type: 'button', class: 'deny', 'data-action': 'confirm-deny', disabled: true },
    'Confirm deny',
  );
  const cancel = el('button', { type: 'button', class: 'secondary', 'data-action': 'cancel' }, 'Cancel');
  note.addEventListener('input', () => {
    confirm.disabled = note.value.trim() === '';
  });
  confirm.addEventListener('click', () => decide(ctx, r, 'deny', { note: note.value.trim() }, confirm));
  cancel.addEventListener('click', () => showReviews(ctx));
  cell.replaceChildren(el('div', { class: 'deny-form' }, note, confirm, cancel));
  note.focus();
}

async function decide(ctx, r, verb, body, button) {
  button.disabled = true;
  try {
    const out = await api(`/v1/reviews/${encodeURIComponent(r.id)}/${verb}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    say(`Review ${r.id.slice(0, 8)} ${verb === 'approve' ? 'approved' : 'denied'}: ${out.status}.`);
  } catch (err) {
    say(err.message, true);
  }
  await showReviews(ctx);
}
