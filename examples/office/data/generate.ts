import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_DOCUMENTS } from './documents.js';
import { SAMPLE_PAGES } from './pages.js';
import { pick, seededRandom } from './prng.js';
import { type Database, openDatabase } from './sqlite.js';
import { DEPARTMENTS, isOfficeTenant, type OfficeTenant, REGIONS, TENANT_PROFILES } from './tenants.js';

/** Bumped whenever the generated schema or content changes; files of another version are regenerated. */
export const OFFICE_DATA_VERSION = '2';

/**
 * The random stream every version draws from. Version 2 (event organisers, customers in their
 * owner's region) added no draws and kept version 1's seed, so all other data stayed as it was.
 */
const DATA_SEED_VERSION = '1';

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (id TEXT PRIMARY KEY, title TEXT NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL,
  attendees TEXT NOT NULL, organizer TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'scheduled');
CREATE TABLE attendance (user TEXT NOT NULL, date TEXT NOT NULL, status TEXT NOT NULL, department TEXT NOT NULL,
  PRIMARY KEY (user, date));
CREATE TABLE sales (id TEXT PRIMARY KEY, region TEXT NOT NULL, rep TEXT NOT NULL, amount REAL NOT NULL,
  date TEXT NOT NULL, customer TEXT NOT NULL);
CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, phone TEXT NOT NULL, email TEXT NOT NULL,
  owner TEXT NOT NULL, region TEXT NOT NULL);
CREATE TABLE billing (project TEXT NOT NULL, amount REAL NOT NULL, period TEXT NOT NULL, PRIMARY KEY (project, period));
CREATE TABLE salaries (user TEXT PRIMARY KEY, department TEXT NOT NULL, amount REAL NOT NULL);
CREATE TABLE project_configs (project TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (project, key));
CREATE TABLE documents (id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE pages (url TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE tickets (id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, priority TEXT NOT NULL,
  created_by TEXT NOT NULL, created_at TEXT NOT NULL);
`;

/** Path of a tenant's data file under `dataDir`. Only ever built from a known tenant name. */
export function tenantDataFile(dataDir: string, tenant: OfficeTenant): string {
  return join(dataDir, `${tenant}.sqlite`);
}

/**
 * Creates the tenant's data file if it is missing. Writes to a temporary file and renames it, so
 * concurrent first uses (parallel tests, several CLI processes) never see a half-written file.
 */
export function ensureTenantData(dataDir: string, tenant: string): string {
  if (!isOfficeTenant(tenant)) throw new Error(`unknown office tenant ${JSON.stringify(tenant)}`);
  const file = tenantDataFile(dataDir, tenant);
  if (existsSync(file) && generatedVersion(file) === OFFICE_DATA_VERSION) return file;
  mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const db = openDatabase(tmp);
    try {
      fillTenant(db, tenant);
    } finally {
      db.close();
    }
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
  return file;
}

/** The data version a file was generated with, or undefined when it is not an office data file. */
function generatedVersion(file: string): string | undefined {
  try {
    const db = openDatabase(file, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as
        | { value: string }
        | undefined;
      return row?.value;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function fillTenant(db: Database, tenant: OfficeTenant): void {
  const profile = TENANT_PROFILES[tenant];
  const rand = seededRandom(`office:${tenant}:${DATA_SEED_VERSION}`);
  const users = profile.staff.map((s) => s.user);
  db.exec(SCHEMA);
  const tx = db.transaction(() => {
    const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    meta.run('tenant', tenant);
    meta.run('version', OFFICE_DATA_VERSION);

    // Calendar: two months of meetings from 2026-11-02.
    const ev = db.prepare(
      'INSERT INTO events (id, title, start, end, attendees, organizer) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const topics = [
      'Weekly sync',
      'Customer call',
      'Budget review',
      'Design review',
      'One-on-one',
      'Planning',
    ];
    for (let i = 1; i <= 60; i++) {
      const day = new Date(Date.UTC(2026, 10, 2 + Math.floor(rand() * 60)));
      const hour = 9 + Math.floor(rand() * 8);
      const start = new Date(day.getTime() + hour * 3600_000);
      const end = new Date(start.getTime() + (1 + Math.floor(rand() * 2)) * 1800_000);
      const attendees = [...new Set([pick(rand, users), pick(rand, users), pick(rand, users)])];
      ev.run(
        `evt-${String(i).padStart(4, '0')}`,
        `${pick(rand, topics)} (${tenant})`,
        start.toISOString(),
        end.toISOString(),
        JSON.stringify(attendees),
        // The first person invited organised it.
        attendees[0]!,
      );
    }

    // Attendance: every working day of November 2026 for every staff member.
    const att = db.prepare('INSERT INTO attendance (user, date, status, department) VALUES (?, ?, ?, ?)');
    for (let d = 1; d <= 30; d++) {
      const date = new Date(Date.UTC(2026, 10, d));
      const wd = date.getUTCDay();
      if (wd === 0 || wd === 6) continue;
      for (const s of profile.staff) {
        const r = rand();
        const status = r < 0.85 ? 'present' : r < 0.92 ? 'late' : r < 0.97 ? 'leave' : 'absent';
        att.run(s.user, isoDate(date), status, s.department);
      }
    }

    // Customers, with Chinese mobile numbers.
    const cust = db.prepare(
      'INSERT INTO customers (id, name, phone, email, owner, region) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const reps = profile.staff.filter((s) => s.department === 'sales').map((s) => s.user);
    const ownerRegion = new Map(profile.staff.filter((s) => s.region).map((s) => [s.user, s.region!]));
    profile.customers.forEach((name, i) => {
      const phone = `1${pick(rand, ['3', '5', '7', '8', '9'])}${String(Math.floor(rand() * 1e9)).padStart(9, '0')}`;
      const slug = name.toLowerCase().split(' ').slice(-2).join('.');
      const owner = pick(rand, reps);
      const drawnRegion = pick(rand, REGIONS);
      cust.run(
        `${tenant}-c-${String(i + 1).padStart(3, '0')}`,
        name,
        phone,
        `${slug}@${tenant}-clients.example.com`,
        owner,
        // A customer belongs to its owner's sales region (the draw is kept so later data is unchanged).
        ownerRegion.get(owner) ?? drawnRegion,
      );
    });

    // Sales: 150 deals, July–December 2026.
    const sale = db.prepare(
      'INSERT INTO sales (id, region, rep, amount, date, customer) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (let i = 1; i <= 150; i++) {
      const date = new Date(Date.UTC(2026, 6 + Math.floor(rand() * 6), 1 + Math.floor(rand() * 28)));
      sale.run(
        `${tenant}-s-${String(i).padStart(4, '0')}`,
        pick(rand, REGIONS),
        pick(rand, reps),
        Math.round(5_000 + rand() * 95_000),
        isoDate(date),
        pick(rand, profile.customers),
      );
    }

    // Billing per project and month.
    const bill = db.prepare('INSERT INTO billing (project, amount, period) VALUES (?, ?, ?)');
    for (const project of profile.projects) {
      for (let m = 7; m <= 12; m++) {
        bill.run(project, Math.round(20_000 + rand() * 180_000), `2026-${String(m).padStart(2, '0')}`);
      }
    }

    // Salaries.
    const sal = db.prepare('INSERT INTO salaries (user, department, amount) VALUES (?, ?, ?)');
    for (const s of profile.staff) sal.run(s.user, s.department, Math.round(12_000 + rand() * 38_000));

    // Project configuration.
    const cfg = db.prepare('INSERT INTO project_configs (project, key, value) VALUES (?, ?, ?)');
    for (const project of profile.projects) {
      cfg.run(project, 'billing.enabled', 'true');
      cfg.run(project, 'deploy.region', pick(rand, ['cn-east-1', 'cn-north-2']));
      cfg.run(project, 'max_seats', String(10 + Math.floor(rand() * 90)));
    }

    const doc = db.prepare('INSERT INTO documents (id, title, body) VALUES (?, ?, ?)');
    SAMPLE_DOCUMENTS.forEach((d, i) => {
      doc.run(`${tenant}-doc-${String(i + 1).padStart(3, '0')}`, d.title, d.body);
    });
    const page = db.prepare('INSERT INTO pages (url, title, body) VALUES (?, ?, ?)');
    for (const p of SAMPLE_PAGES) page.run(p.url, p.title, p.body);
  });
  tx();
}

/** Departments that exist in the sample data, for `salary_analysis`. */
export const OFFICE_DEPARTMENTS = DEPARTMENTS;
