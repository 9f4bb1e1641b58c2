import { join, resolve } from 'node:path';
import type { ToolSpec } from '../../../src/tools/index.js';
import { attendanceTools } from './attendance.js';
import { calendarTools } from './calendar.js';
import { crmTools } from './crm.js';
import { docTools } from './docs.js';
import { financeTools } from './finance.js';
import { hrTools } from './hr.js';
import { projectTools } from './projects.js';
import { recordTools } from './records.js';
import { salesTools } from './sales.js';
import { OfficeData } from './tenant-data.js';
import { ticketTools } from './tickets.js';
import { webTools } from './web.js';

export { OfficeData } from './tenant-data.js';

export interface OfficeToolOptions {
  /** Folder holding `<tenant>.sqlite` files, relative to the config file; default `office` in the data folder. */
  readonly dataDir?: string;
}

/** Where the tools run, as Twinline's config loader tells every `createTools`. */
export interface OfficeToolContext {
  readonly configDir: string;
  readonly dataDir: string;
}

/** Every office tool, bound to one set of tenant data files. */
export function createTools(options: OfficeToolOptions = {}, context?: OfficeToolContext): ToolSpec[] {
  const folder = options.dataDir
    ? resolve(context?.configDir ?? '.', options.dataDir)
    : join(context?.dataDir ?? '.twinline', 'office');
  const data = new OfficeData(folder);
  return [
    ...calendarTools(data),
    ...attendanceTools(data),
    ...salesTools(data),
    ...crmTools(data),
    ...ticketTools(data),
    ...docTools(data),
    ...webTools(data),
    ...financeTools(data),
    ...hrTools(data),
    ...projectTools(data),
    ...recordTools(data),
  ];
}
