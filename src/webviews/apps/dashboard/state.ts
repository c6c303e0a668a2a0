/**
 * The dashboard page's UI state (filters and list pages) and its round trip through the URL hash,
 * so a filtered view can be bookmarked or linked. Pure.
 */
import type { DashboardFilter } from '../../../core/dashboard/aggregate';
import type { DashboardData } from '../../../core/dashboard/dashboardData';

export interface DashboardUi {
  filter: DashboardFilter;
  commitPage: number;
  rangePage: number;
}

export const commitPageSize = 50;
export const rangePageSize = 20;

export const initialUi: DashboardUi = { filter: {}, commitPage: 1, rangePage: 1 };

const day = /^\d{4}-\d{2}-\d{2}$/;

/** The UI state of a `#branch=0&agent=claude…` hash; unknown or invalid values are dropped. */
export function parseHash(hash: string, data: Pick<DashboardData, 'branches'>): DashboardUi {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const filter: DashboardFilter = {};
  const branch = p.get('branch');
  if (branch !== null && /^\d+$/.test(branch) && Number(branch) < data.branches.length) filter.branch = Number(branch);
  const agent = p.get('agent');
  if (agent !== null) filter.agent = agent.slice(0, 200);
  const model = p.get('model');
  if (model !== null) filter.model = model.slice(0, 200);
  const from = p.get('from');
  if (from && day.test(from)) filter.from = from;
  const to = p.get('to');
  if (to && day.test(to)) filter.to = to;
  const path = p.get('path');
  if (path) filter.path = path.slice(0, 1000);
  const page = (k: string) => {
    const v = Number(p.get(k));
    return Number.isInteger(v) && v >= 1 ? v : 1;
  };
  return { filter, commitPage: page('page'), rangePage: page('rpage') };
}

/** The hash of a UI state (empty when nothing is set). */
export function toHash(ui: DashboardUi): string {
  const p = new URLSearchParams();
  const f = ui.filter;
  if (f.branch !== undefined) p.set('branch', String(f.branch));
  if (f.agent !== undefined) p.set('agent', f.agent);
  if (f.model !== undefined) p.set('model', f.model);
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  if (f.path) p.set('path', f.path);
  if (ui.commitPage > 1) p.set('page', String(ui.commitPage));
  if (ui.rangePage > 1) p.set('rpage', String(ui.rangePage));
  const s = p.toString();
  return s ? `#${s}` : '';
}

export function hasFilter(f: DashboardFilter): boolean {
  return f.branch !== undefined || f.agent !== undefined || f.model !== undefined || !!f.from || !!f.to || !!f.path;
}

/** A filter control changed: `name` is the control's `data-filter`, `value` its value (`''` = all). */
export function applyFilterChange(ui: DashboardUi, name: string, value: string): DashboardUi {
  const filter: DashboardFilter = { ...ui.filter };
  switch (name) {
    case 'branch':
      if (value === '' || !/^\d+$/.test(value)) delete filter.branch;
      else filter.branch = Number(value);
      break;
    case 'agent':
    case 'model':
      // the select's values are `*` (all) or `=` + the name, so an agent named '' stays selectable
      if (value.startsWith('=')) filter[name] = value.slice(1);
      else delete filter[name];
      break;
    case 'from':
    case 'to':
      if (day.test(value)) filter[name] = value;
      else delete filter[name];
      break;
    case 'path':
      if (value.trim()) filter.path = value.trim();
      else delete filter.path;
      break;
    default:
      return ui;
  }
  return { filter, commitPage: 1, rangePage: 1 };
}
