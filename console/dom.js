// Small DOM builders. Every value is set as text, never as HTML: what the server sends is data.
export const $ = (sel, root = document) => root.querySelector(sel);

/** An element with attributes (`class`, `data-*`, `aria-*`, …) and children (strings are text). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'onclick') node.addEventListener('click', v);
    else if (k === 'hidden') node.hidden = true;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
  }
  return node;
}

export function td(...children) {
  return el('td', {}, ...children);
}

/** A value as readable JSON (strings as they are). */
export function pretty(value) {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
}

export function code(value) {
  return el('pre', {}, pretty(value ?? ''));
}

/** An ISO time as `YYYY-MM-DD HH:MM:SS` in UTC: the same on every viewer's machine. */
export function utc(iso) {
  return iso ? iso.slice(0, 19).replace('T', ' ') : '';
}

/** Milliseconds rounded for a person: two decimals under 10 ms, one under 100, none above. */
export function ms(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return '';
  return n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : String(Math.round(n));
}

/** A duration in seconds as `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`. */
export function span(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function badge(text, kind = text) {
  return el('span', { class: `badge status-${kind}` }, text);
}

/** A decision path as lines: `stage verdict rule — reason`. */
export function pathList(path) {
  return el(
    'ol',
    { class: 'path' },
    (path ?? []).map((d) =>
      el(
        'li',
        {},
        el('strong', {}, d.stage),
        ' ',
        badge(d.verdict),
        ' ',
        el('code', {}, d.ruleId),
        ' — ',
        d.reason,
      ),
    ),
  );
}

/**
 * Gives every cell of `table` its column's name (`data-label`), so that on a narrow screen, where
 * rows become cards, each value still says what it is.
 */
export function labelCells(table) {
  const names = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  for (const tr of table.querySelectorAll('tbody tr')) {
    if (tr.classList.contains('detail-row')) continue;
    [...tr.children].forEach((cell, i) => {
      if (names[i]) cell.dataset.label = names[i];
    });
  }
}

/** Shows a short message in the page's status line (errors in red). */
export function say(text, isError = false) {
  const status = $('#status');
  status.textContent = text;
  status.classList.toggle('error', isError);
}
