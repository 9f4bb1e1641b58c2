// Plots as inline SVG, drawn from numbers the server computed: no chart library, no canvas.
const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function frame(width, height, label) {
  return svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'plot' });
}

/** A nice upper bound for an axis: 1, 2 or 5 times a power of ten. */
function niceMax(v) {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((m) => m >= v);
}

export const OUTCOME_COLORS = { allowed: '#2f855a', denied: '#c53030', review: '#b7791f', error: '#6b46c1' };

/** Stacked columns over time: `buckets[i].counts[series]`, with a legend. */
export function stackedColumns(buckets, series, colors, label) {
  const W = 1100;
  const H = 220;
  const left = 34;
  const bottom = 22;
  const top = 22;
  const root = frame(W, H, label);
  const totals = buckets.map((b) => series.reduce((s, k) => s + (b.counts[k] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotH = H - bottom - top;
  const step = (W - left - 4) / Math.max(1, buckets.length);
  root.append(svg('line', { x1: left, y1: H - bottom, x2: W - 2, y2: H - bottom, class: 'axis' }));
  for (const f of [0, 0.5, 1]) {
    const y = H - bottom - f * plotH;
    root.append(
      svg(
        'text',
        { x: left - 4, y: y + 4, 'text-anchor': 'end', class: 'tick' },
        String(Math.round(max * f)),
      ),
    );
    if (f > 0) root.append(svg('line', { x1: left, y1: y, x2: W - 2, y2: y, class: 'grid' }));
  }
  buckets.forEach((b, i) => {
    let y = H - bottom;
    for (const k of series) {
      const n = b.counts[k] ?? 0;
      if (n === 0) continue;
      const h = (n / max) * plotH;
      y -= h;
      const bar = svg('rect', {
        x: left + i * step + 1,
        y,
        width: Math.max(1, step - 2),
        height: h,
        fill: colors[k],
      });
      bar.append(svg('title', {}, `${b.start.slice(11, 16)} ${k}: ${n}`));
      root.append(bar);
    }
    if (i % Math.ceil(buckets.length / 6) === 0)
      root.append(svg('text', { x: left + i * step, y: H - 6, class: 'tick' }, b.start.slice(11, 16)));
  });
  series.forEach((k, i) => {
    const x = left + i * 80;
    root.append(svg('rect', { x, y: 4, width: 10, height: 10, fill: colors[k] }));
    root.append(svg('text', { x: x + 14, y: 13, class: 'tick' }, k));
  });
  return root;
}

/** Horizontal bars: `items[i] = { label, value, color? }`. */
export function horizontalBars(items, label, format = String) {
  const W = 520;
  const row = 22;
  const H = Math.max(row, items.length * row) + 4;
  const root = frame(W, H, label);
  const max = niceMax(Math.max(0, ...items.map((x) => x.value)));
  const labelW = 250;
  items.forEach((x, i) => {
    const y = i * row + 2;
    root.append(
      svg(
        'text',
        { x: 0, y: y + 14, class: 'tick' },
        x.label.length > 40 ? `${x.label.slice(0, 39)}…` : x.label,
      ),
    );
    const w = ((W - labelW - 40) * x.value) / max;
    root.append(
      svg('rect', {
        x: labelW,
        y: y + 3,
        width: Math.max(1, w),
        height: row - 8,
        fill: x.color ?? '#2b6cb0',
      }),
    );
    root.append(svg('text', { x: labelW + w + 4, y: y + 14, class: 'tick' }, format(x.value)));
  });
  return root;
}

/** Paired bars per group: `groups[i] = { label, a, b }` with two named series. */
export function pairedBars(groups, names, colors, label, format = String) {
  const W = 520;
  const row = 30;
  const H = Math.max(row, groups.length * row) + 18;
  const root = frame(W, H, label);
  const max = niceMax(Math.max(0, ...groups.flatMap((g) => [g.a, g.b])));
  const labelW = 70;
  groups.forEach((g, i) => {
    const y = i * row + 18;
    root.append(svg('text', { x: 0, y: y + 14, class: 'tick' }, g.label));
    [g.a, g.b].forEach((v, j) => {
      const w = ((W - labelW - 60) * v) / max;
      root.append(
        svg('rect', { x: labelW, y: y + j * 11, width: Math.max(1, w), height: 9, fill: colors[j] }),
      );
      root.append(svg('text', { x: labelW + w + 4, y: y + j * 11 + 9, class: 'tick small' }, format(v)));
    });
  });
  names.forEach((n, j) => {
    root.append(svg('rect', { x: labelW + j * 80, y: 2, width: 10, height: 10, fill: colors[j] }));
    root.append(svg('text', { x: labelW + j * 80 + 14, y: 11, class: 'tick' }, n));
  });
  return root;
}
