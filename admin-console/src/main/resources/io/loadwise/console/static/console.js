// Loadwise console script: served from /static (the CSP allows no inline script).
'use strict';

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : '';
}

// Pages that ask for it reload themselves while visible (the overview).
function setUpAutoReload() {
  const marker = document.querySelector('[data-autoreload]');
  if (!marker) return;
  const seconds = Number(marker.dataset.autoreload) || 10;
  setInterval(() => { if (document.visibilityState === 'visible') location.reload(); }, seconds * 1000);
}

// Deleting a cluster is the one irreversible action: ask first.
function setUpConfirmations() {
  document.querySelectorAll('button.danger').forEach((button) => {
    button.addEventListener('click', (event) => {
      if (!confirm('Delete this cluster? Its listener stops at once.')) event.preventDefault();
    });
  });
}

// Group keys of the graph listing, in the order of the seed's figures, with headings.
const GROUPS = [
  ['dispatcher', 'Dispatcher (Table 2)'], ['os', 'Operating system'], ['os-network', 'OS network'],
  ['jvm', 'JVM'], ['appserver', 'Application server'], ['policy', 'Policy']
];

// The listing is {groups: {dispatcher: [{metric, unit, description, png, csv}], ...}}; plain name lists work too.
function groupsOf(listing) {
  let groups = listing && listing.groups ? listing.groups : listing;
  if (Array.isArray(groups)) {
    const byKey = {};
    groups.forEach((g) => { byKey[g.group || g.name || g.key] = g.metrics || g.series || []; });
    groups = byKey;
  }
  const result = {};
  Object.keys(groups || {}).forEach((key) => {
    const list = Array.isArray(groups[key]) ? groups[key] : [];
    result[key] = list.map((m) => (typeof m === 'string' ? { metric: m } : m));
  });
  return result;
}

// view: 'this' (this replica's store), 'sum' or 'each' (every replica's, through the replica graph API).
// A series that does not add up (a mean, a ratio) is shown one line per replica in the 'sum' view.
function graphFigure(base, series, window, view, additive) {
  const metric = series.metric;
  const encoded = encodeURIComponent(metric);
  const figure = document.createElement('figure');
  figure.className = 'graph';
  const img = document.createElement('img');
  const caption = document.createElement('figcaption');
  const download = document.createElement('a');
  if (view === 'sum' || view === 'each') {
    const shown = view === 'sum' && !additive.includes(metric) ? 'each' : view;
    const query = '?window=' + window + '&view=' + shown;
    img.src = base + '/replicas/graphs/' + encoded + '.png' + query;
    img.alt = metric + ' over ' + window + (shown === 'sum' ? ', sum over replicas' : ', each replica');
    figure.dataset.view = shown;
    caption.textContent = metric + (series.unit ? ' (' + series.unit + ')' : '')
      + (shown !== view ? ' · one line per replica: a mean does not add up' : '') + ' · ';
    download.href = base + '/replicas/series/' + encoded + '.json' + query;
    download.textContent = 'JSON';
    download.className = 'json-link';
  } else {
    img.src = (series.png || base + '/graphs/' + encoded + '.png') + '?window=' + window;
    img.alt = metric + ' over ' + window;
    caption.textContent = metric + (series.unit ? ' (' + series.unit + ')' : '') + ' · ';
    download.href = (series.csv || base + '/series/' + encoded + '.csv') + '?window=' + window;
    download.textContent = 'CSV';
    download.className = 'csv-link';
  }
  if (series.description) img.title = series.description;
  img.dataset.src = img.src;
  img.className = 'graph-image';
  caption.appendChild(download);
  figure.appendChild(img);
  figure.appendChild(caption);
  return figure;
}

async function setUpGraphs() {
  const container = document.getElementById('graphs');
  if (!container) return;
  const base = container.dataset.base;
  const window = container.dataset.window;
  const view = container.dataset.view || 'this';
  const additive = (container.dataset.additive || '').split(' ').filter((m) => m);
  let listing;
  try {
    const response = await fetch(base + '/graphs', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error('HTTP ' + response.status);
    listing = groupsOf(await response.json());
  } catch (e) {
    container.textContent = 'The list of graphs could not be loaded (' + e.message + ').';
    return;
  }
  container.textContent = '';
  const known = GROUPS.map((g) => g[0]);
  const order = GROUPS.concat(Object.keys(listing).filter((k) => !known.includes(k)).map((k) => [k, k]));
  let shown = 0;
  order.forEach(([key, title]) => {
    const metrics = listing[key] || [];
    if (metrics.length === 0) return;
    const section = document.createElement('section');
    section.className = 'graph-group';
    section.id = 'group-' + key;
    const heading = document.createElement('h3');
    heading.textContent = title;
    const grid = document.createElement('div');
    grid.className = 'graph-grid';
    metrics.forEach((m) => grid.appendChild(graphFigure(base, m, window, view, additive)));
    section.appendChild(heading);
    section.appendChild(grid);
    container.appendChild(section);
    shown += metrics.length;
  });
  if (shown === 0) {
    container.textContent = 'No series recorded yet: graphs appear once the dispatcher has sampled this cluster or node.';
  }
  const refresh = Number(container.dataset.refresh) || 60;
  setInterval(() => {
    if (document.visibilityState !== 'visible') return;
    container.querySelectorAll('img.graph-image').forEach((img) => {
      img.src = img.dataset.src + '&t=' + Date.now();
    });
  }, refresh * 1000);
}

// The live request page: fills the table from /api/requests and again every few seconds. Every value the client
// sent goes in as text (textContent), never as markup.
const LIVE_COLUMNS = [
  ['time', (r) => (r.time || '').replace('T', ' ').replace('Z', '')], ['client', (r) => r.client],
  ['method', (r) => r.method], ['target', (r) => r.target], ['status', (r) => r.status],
  ['termination', (r) => r.termination], ['cluster', (r) => r.cluster], ['node', (r) => r.node],
  ['route', (r) => r.route], ['num', (r) => r.totalMs], ['num', (r) => r.bytesOut], ['request-id', (r) => r.requestId]
];

function liveRow(r) {
  const tr = document.createElement('tr');
  if (r.status) tr.className = 's' + String(r.status).charAt(0);
  LIVE_COLUMNS.forEach(([cls, value]) => {
    const td = document.createElement('td');
    td.className = cls;
    const v = value(r);
    td.textContent = v === null || v === undefined ? '-' : String(v);
    tr.appendChild(td);
  });
  return tr;
}

async function refreshLiveRequests(table, status) {
  try {
    const response = await fetch(table.dataset.source, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    const body = await response.json();
    if (!response.ok) {
      status.textContent = body && body.error ? body.error : 'HTTP ' + response.status;
      status.className = 'error';
      return false;
    }
    const tbody = document.createElement('tbody');
    body.requests.forEach((r) => tbody.appendChild(liveRow(r)));
    table.replaceChild(tbody, table.tBodies[0]);
    status.className = 'hint';
    status.textContent = body.count + (body.count === 1 ? ' request' : ' requests') + ', updated '
      + new Date().toLocaleTimeString();
    table.dataset.updates = String(Number(table.dataset.updates || 0) + 1);
    return true;
  } catch (e) {
    status.textContent = 'The requests could not be loaded (' + e.message + ').';
    status.className = 'error';
    return true;
  }
}

async function setUpLiveRequests() {
  const table = document.getElementById('live-requests');
  if (!table) return;
  const status = document.getElementById('live-status');
  if (!(await refreshLiveRequests(table, status))) return; // a bad filter: fix the form, nothing to poll
  const seconds = Number(table.dataset.refresh) || 2;
  setInterval(() => { if (document.visibilityState === 'visible') refreshLiveRequests(table, status); }, seconds * 1000);
}

document.addEventListener('DOMContentLoaded', () => {
  setUpAutoReload();
  setUpConfirmations();
  setUpGraphs();
  setUpLiveRequests();
});
window.loadwise = { csrfToken };
