import { api, follow } from '../api.js';
import { $, badge, code, el, labelCells, say, td, utc } from '../dom.js';

let selected;
let stop;

/** The task list: who asked, on which line, how far it is. Opening a task follows it live. */
export async function showTasks(_ctx, params = {}) {
  if (params.taskId) selected = params.taskId;
  const { tasks } = await api('/v1/tasks?limit=50');
  const body = $('#tasks-table tbody');
  body.replaceChildren();
  for (const t of tasks) {
    body.append(
      el(
        'tr',
        { 'data-task-id': t.id, class: t.id === selected ? 'selected' : undefined },
        td(
          el(
            'button',
            { type: 'button', class: 'link', 'data-action': 'open', onclick: () => openTask(t.id) },
            t.id.slice(0, 8),
          ),
        ),
        td(t.user),
        td(t.line),
        td(badge(t.status)),
        td(el('span', { class: 'request' }, t.request)),
        td(utc(t.updatedAt)),
      ),
    );
  }
  labelCells($('#tasks-table'));
  if (selected && (params.taskId || !stop)) await openTask(selected);
}

/** Leaves the task view: its live stream stops. */
export function leaveTasks() {
  stop?.();
  stop = undefined;
}

async function openTask(id) {
  leaveTasks();
  selected = id;
  for (const tr of document.querySelectorAll('#tasks-table tbody tr'))
    tr.classList.toggle('selected', tr.dataset.taskId === id);
  const detail = await api(`/v1/tasks/${encodeURIComponent(id)}`);
  const box = $('#task-detail');
  const steps = new Map(detail.steps.map((s) => [s.stepNo, s]));
  // A raw output someone opened stays open while the live timeline redraws its steps.
  const raws = new Map();
  const timeline = el('ol', { class: 'timeline', id: 'task-timeline' });
  const status = el('span', { id: 'task-status' }, badge(detail.task.status));
  const answer = el('div', { id: 'task-answer' });
  const render = () => {
    timeline.replaceChildren(
      ...[...steps.values()].sort((a, b) => a.stepNo - b.stepNo).map((s) => stepItem(id, s, raws)),
    );
  };
  const showAnswer = (text) => {
    answer.replaceChildren(el('h4', {}, 'Answer'), el('div', { class: 'answer' }, text));
  };
  box.replaceChildren(
    el('h3', {}, `Task ${id.slice(0, 8)} `, status),
    el(
      'p',
      {},
      el('strong', {}, detail.task.user),
      ` on the ${detail.task.line} line · ${utc(detail.task.createdAt)}`,
    ),
    el('p', { class: 'request' }, detail.task.request),
    detail.plan?.goal ? el('p', { class: 'muted' }, `Goal: ${detail.plan.goal}`) : null,
    el('h4', {}, 'Steps'),
    timeline,
    answer,
    el(
      'button',
      { type: 'button', class: 'secondary', onclick: () => window.twinline.open('audit', { taskId: id }) },
      'Audit of this task',
    ),
  );
  render();
  if (detail.result !== undefined) showAnswer(detail.result);
  stop = follow(
    `/v1/tasks/${encodeURIComponent(id)}/events`,
    (name, data) => {
      if (name === 'task') status.replaceChildren(badge(data.status));
      if (name === 'step') {
        steps.set(data.stepNo, data);
        render();
      }
      if (name === 'final') {
        status.replaceChildren(badge(data.status));
        if (data.result !== undefined) showAnswer(data.result);
      }
    },
    (err) => {
      if (err) say(`Live steps stopped: ${err.message}`, true);
    },
  );
}

function stepItem(taskId, s, raws) {
  let raw = raws.get(s.stepNo);
  if (!raw) {
    raw = el('div', { class: 'raw' });
    raws.set(s.stepNo, raw);
  }
  return el(
    'li',
    { 'data-step': s.stepNo, class: `step step-${s.status}` },
    el('div', {}, el('strong', {}, `#${s.stepNo} ${s.tool ?? ''}`), ' ', badge(s.status), ' ', s.goal),
    s.outputSummary || s.error ? el('div', { class: 'summary' }, s.outputSummary ?? s.error) : null,
    s.rawOutputRef
      ? el(
          'button',
          {
            type: 'button',
            class: 'link',
            'data-action': 'raw',
            onclick: async () => {
              try {
                const out = await api(`/v1/tasks/${encodeURIComponent(taskId)}/steps/${s.stepNo}/raw`);
                raw.replaceChildren(
                  el('p', { class: 'muted' }, `Raw output at level ${out.viewerLevel}`),
                  code(out.output),
                );
              } catch (err) {
                say(err.message, true);
              }
            },
          },
          'Raw output',
        )
      : null,
    raw,
  );
}
