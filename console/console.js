// Twinline web console: a thin client of the same HTTP API everyone uses. It holds no authority:
// every action is checked by the server against the logged-in identity.
const KEY = 'twinline.apiKey';
const $ = (sel, root = document) => root.querySelector(sel);

function apiKey() {
  return sessionStorage.getItem(KEY);
}

async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: {
      authorization: `Bearer ${apiKey()}`,
      'content-type': 'application/json',
      ...(options.headers ?? {}),
    },
  });
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body?.message ?? `HTTP ${res.status}`);
  return body;
}

function cell(text, className) {
  const td = document.createElement('td');
  if (className) td.className = className;
  td.textContent = text ?? '';
  return td;
}

function codeCell(value) {
  const td = document.createElement('td');
  const pre = document.createElement('pre');
  pre.textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  td.append(pre);
  return td;
}

function pathText(path) {
  return (path ?? []).map((d) => `${d.stage}:${d.verdict} (${d.ruleId})`).join('\n');
}

async function showReviews() {
  const { reviews } = await api('/v1/reviews?limit=100');
  const body = $('#reviews-table tbody');
  body.replaceChildren();
  $('#reviews-empty').hidden = reviews.length > 0;
  for (const r of reviews) {
    const tr = document.createElement('tr');
    tr.dataset.reviewId = r.id;
    tr.append(
      cell(r.id),
      cell(r.tool),
      cell(`${r.tenant}/${r.user} · ${r.agent}`),
      codeCell(r.args),
      codeCell(`${pathText(r.decisionPath)}\n${r.reason ?? ''}`),
      cell(r.status, `status-${r.status}`),
    );
    const actions = document.createElement('td');
    if (r.status === 'pending') {
      for (const [label, verb] of [
        ['Approve', 'approve'],
        ['Deny', 'deny'],
      ]) {
        const b = document.createElement('button');
        b.textContent = label;
        b.className = verb;
        b.dataset.action = verb;
        b.addEventListener('click', async () => {
          b.disabled = true;
          try {
            await api(`/v1/reviews/${encodeURIComponent(r.id)}/${verb}`, { method: 'POST', body: '{}' });
          } catch (err) {
            alert(err.message);
          }
          await showReviews();
        });
        actions.append(b);
      }
    }
    tr.append(actions);
    body.append(tr);
  }
}

let selectedTask;
async function showTasks() {
  const { tasks } = await api('/v1/tasks?limit=50');
  const body = $('#tasks-table tbody');
  body.replaceChildren();
  for (const t of tasks) {
    const tr = document.createElement('tr');
    tr.dataset.taskId = t.id;
    tr.style.cursor = 'pointer';
    tr.append(
      cell(t.id),
      cell(t.line),
      cell(t.status, `status-${t.status}`),
      cell(t.request),
      cell(t.updatedAt),
    );
    tr.addEventListener('click', () => {
      selectedTask = t.id;
      showTaskDetail();
    });
    body.append(tr);
  }
  if (selectedTask) await showTaskDetail();
}

async function showTaskDetail() {
  if (!selectedTask) return;
  const { task, steps } = await api(`/v1/tasks/${encodeURIComponent(selectedTask)}`);
  const box = $('#task-detail');
  box.replaceChildren();
  const h = document.createElement('h3');
  h.textContent = `${task.id} — ${task.status}`;
  const table = document.createElement('table');
  table.id = 'steps-table';
  const head = document.createElement('tr');
  for (const t of ['#', 'Status', 'Tool', 'Goal', 'Summary']) {
    const th = document.createElement('th');
    th.textContent = t;
    head.append(th);
  }
  table.append(head);
  for (const s of steps) {
    const tr = document.createElement('tr');
    tr.append(
      cell(String(s.stepNo)),
      cell(s.status, `status-${s.status}`),
      cell(s.tool),
      cell(s.goal),
      cell(s.outputSummary ?? s.error ?? ''),
    );
    table.append(tr);
  }
  box.append(h, table);
}

async function showAudit(form) {
  const params = new URLSearchParams({ limit: '200' });
  if (form) {
    for (const [k, v] of new FormData(form))
      if (v) params.set(k, k === 'since' ? new Date(v).toISOString() : v);
  }
  const { records } = await api(`/v1/audit?${params}`);
  const body = $('#audit-table tbody');
  body.replaceChildren();
  for (const r of records) {
    const tr = document.createElement('tr');
    tr.dataset.auditId = r.id;
    const last = r.decisionPath[r.decisionPath.length - 1];
    tr.append(
      cell(r.time),
      cell(r.user),
      cell(r.agent),
      cell(r.tool),
      cell(r.status, `status-${r.status}`),
      cell(last ? `${last.stage} · ${last.ruleId}` : ''),
      cell(r.resultSummary),
      cell(String(r.durationMs)),
    );
    body.append(tr);
  }
}

async function showRouting() {
  const { decisions } = await api('/v1/routing?limit=50');
  const body = $('#routing-table tbody');
  body.replaceChildren();
  for (const d of decisions) {
    const tr = document.createElement('tr');
    tr.append(
      cell(d.time),
      cell(d.query),
      cell(d.target),
      cell(d.scores.deep.toFixed(3)),
      cell(d.scores.quick.toFixed(3)),
      cell(d.rule ?? ''),
    );
    body.append(tr);
  }
}

async function showBreakers() {
  const { breakers } = await api('/v1/breakers');
  const body = $('#breakers-table tbody');
  body.replaceChildren();
  for (const b of breakers) {
    const tr = document.createElement('tr');
    tr.append(
      cell(b.tool),
      cell(b.state, `state-${b.state}`),
      cell(String(b.failures)),
      cell(String(b.successes)),
    );
    body.append(tr);
  }
}

const views = {
  reviews: showReviews,
  tasks: showTasks,
  audit: () => showAudit(),
  routing: showRouting,
  breakers: showBreakers,
};
let current = 'reviews';
let poll;

async function open(view) {
  current = view;
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.view === view);
  for (const s of document.querySelectorAll('.view')) s.hidden = s.id !== `view-${view}`;
  await views[view]();
}

async function start() {
  try {
    const me = await api('/v1/whoami');
    $('#who').textContent = `${me.tenant}/${me.user} (${me.roles.join(', ')})`;
  } catch (err) {
    sessionStorage.removeItem(KEY);
    $('#login-error').textContent = err.message;
    return;
  }
  $('#login-view').hidden = true;
  $('#app').hidden = false;
  $('#logout').hidden = false;
  await open('reviews');
  // Live views: the task step view and the queue refresh themselves.
  poll = setInterval(() => {
    if (current === 'tasks' || current === 'reviews' || current === 'breakers')
      views[current]().catch(() => {});
  }, 1500);
}

$('#login-form').addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem(KEY, $('#api-key').value.trim());
  start();
});
$('#logout').addEventListener('click', () => {
  clearInterval(poll);
  sessionStorage.removeItem(KEY);
  location.reload();
});
for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => open(b.dataset.view));
$('#reviews-refresh').addEventListener('click', showReviews);
$('#tasks-refresh').addEventListener('click', showTasks);
$('#breakers-refresh').addEventListener('click', showBreakers);
$('#audit-form').addEventListener('submit', (e) => {
  e.preventDefault();
  showAudit(e.target);
});
$('#route-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const query = new FormData(e.target).get('query');
  const decision = await api('/v1/route', { method: 'POST', body: JSON.stringify({ query }) });
  $('#route-result').textContent = JSON.stringify(decision, null, 2);
  await showRouting();
});
if (apiKey()) start();
