/** Dashboard page entry: DOM wiring only. Figures are in src/core/dashboard/aggregate.ts, HTML in render.ts. */
import './dashboard.css';
import { parseDashboardData, type DashboardData } from '../../../core/dashboard/dashboardData';
import { applyBarWidths } from '../shared/charts/dom';
import { renderContent, renderFilters, renderHeader, renderMessage, type RenderContext } from './render';
import { applyFilterChange, initialUi, parseHash, toHash, type DashboardUi } from './state';

const app = document.getElementById('app') ?? document.body;
const raw: unknown = (globalThis as { agentNoteDashboardData?: unknown }).agentNoteDashboardData;
const locale = document.documentElement.lang || undefined;

function start(data: DashboardData): void {
  let ui: DashboardUi = parseHash(location.hash, data);
  const ctx = (): RenderContext => ({ data, ui, locale });
  document.title = `${data.strings.title || document.title.split(' — ')[0]} — ${data.repository}`;
  app.innerHTML = `${renderHeader(ctx())}<div id="filters"></div><div id="content"></div>`;
  const filtersEl = document.getElementById('filters') as HTMLElement;
  const contentEl = document.getElementById('content') as HTMLElement;
  const paintFilters = () => (filtersEl.innerHTML = renderFilters(ctx()));
  const paint = () => {
    contentEl.innerHTML = renderContent(ctx());
    applyBarWidths(contentEl);
    const clear = filtersEl.querySelector<HTMLButtonElement>('[data-action="clear"]');
    if (clear) clear.disabled = toHash({ ...ui, commitPage: 1, rangePage: 1 }) === '';
    const hash = toHash(ui);
    if (hash !== location.hash && !(hash === '' && location.hash === '')) history.replaceState(null, '', hash || location.pathname);
  };
  paintFilters();
  paint();

  let pathTimer: ReturnType<typeof setTimeout> | undefined;
  const onControl = (e: Event) => {
    const el = e.target as HTMLInputElement | HTMLSelectElement;
    const name = el.dataset?.filter;
    if (!name) return;
    const apply = () => {
      ui = applyFilterChange(ui, name, el.value);
      paint();
    };
    if (name === 'path' && e.type === 'input') {
      clearTimeout(pathTimer);
      pathTimer = setTimeout(apply, 200);
    } else apply();
  };
  filtersEl.addEventListener('change', onControl);
  filtersEl.addEventListener('input', onControl);
  filtersEl.addEventListener('submit', (e) => e.preventDefault());
  filtersEl.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('[data-action="clear"]')) {
      ui = initialUi;
      paintFilters();
      paint();
    }
  });
  contentEl.addEventListener('click', (e) => {
    const b = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-page]');
    if (!b) return;
    const to = Number(b.dataset.to);
    ui = b.dataset.page === 'ranges' ? { ...ui, rangePage: to } : { ...ui, commitPage: to };
    paint();
    (b.dataset.page === 'ranges' ? document.getElementById('ranges') : document.getElementById('commits'))?.scrollIntoView({
      block: 'start',
    });
  });
  window.addEventListener('hashchange', () => {
    if (location.hash === toHash(ui)) return;
    ui = parseHash(location.hash, data);
    paintFilters();
    paint();
  });
}

if (raw === undefined) app.innerHTML = renderMessage({}, 'noData');
else {
  const r = parseDashboardData(raw);
  if (r.ok) start(r.data);
  else app.innerHTML = renderMessage({}, 'invalidData', r.reason);
}
