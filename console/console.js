// Twinline web console: a thin client of the same HTTP API everyone uses. It holds no authority:
// every action is checked by the server against the logged-in identity, and every text it shows
// was gated by the server for that identity (docs/operations.md, "Console").
import { api, apiKey, setApiKey } from './api.js';
import { $, say } from './dom.js';
import { bindAudit, setAuditFilters, showAudit } from './views/audit.js';
import { showOverview } from './views/overview.js';
import { showReviews } from './views/reviews.js';
import { bindRouting, showRouting } from './views/routing.js';
import { leaveTasks, showTasks } from './views/tasks.js';

const ctx = { me: undefined, open };
const views = {
  overview: () => showOverview(),
  reviews: () => showReviews(ctx),
  tasks: (params) => showTasks(ctx, params),
  audit: (params) => {
    if (params) setAuditFilters(params);
    return showAudit(ctx);
  },
  routing: () => showRouting(),
};
let current;
let poll;

/** Opens a view (with parameters: a review's audit, a task), as the tabs and links do. */
async function open(view, params) {
  if (current === 'tasks' && view !== 'tasks') leaveTasks();
  current = view;
  for (const b of document.querySelectorAll('.tab')) {
    const active = b.dataset.view === view;
    b.classList.toggle('active', active);
    if (active) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  for (const s of document.querySelectorAll('.view')) s.hidden = s.id !== `view-${view}`;
  $('#explain-panel').hidden = true;
  say('');
  try {
    await views[view](params);
  } catch (err) {
    say(err.message, true);
  }
}
window.twinline = { open };

async function start() {
  try {
    ctx.me = await api('/v1/whoami');
  } catch (err) {
    setApiKey(undefined);
    $('#login-error').textContent = err.message;
    return;
  }
  const me = ctx.me;
  $('#who').textContent = `${me.tenant}/${me.user} (${me.roles.join(', ')} · ${me.dataLevel})`;
  document.body.dataset.role = me.reviewer ? 'reviewer' : 'employee';
  $('#login-view').hidden = true;
  $('#app').hidden = false;
  $('#logout').hidden = false;
  await open(me.reviewer ? 'reviews' : 'overview');
  // The queue refreshes itself; tasks follow their own live stream.
  poll = setInterval(() => {
    if (current === 'reviews' && !document.querySelector('.deny-form')) showReviews(ctx).catch(() => {});
  }, 5000);
}

$('#login-form').addEventListener('submit', (e) => {
  e.preventDefault();
  setApiKey($('#api-key').value.trim());
  start();
});
$('#logout').addEventListener('click', () => {
  clearInterval(poll);
  leaveTasks();
  setApiKey(undefined);
  location.reload();
});
for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => open(b.dataset.view));
$('#reviews-refresh').addEventListener('click', () => open('reviews'));
$('#tasks-refresh').addEventListener('click', () => open('tasks'));
$('#overview-refresh').addEventListener('click', () => open('overview'));
bindAudit(ctx);
bindRouting();
if (apiKey()) start();
