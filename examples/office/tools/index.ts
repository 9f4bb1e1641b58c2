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
  /** Folder holding `<tenant>.sqlite` files; relative paths resolve against the working directory. */
  readonly dataDir?: string;
}

/** Every office tool, bound to one set of tenant data files. */
export function createTools(options: OfficeToolOptions = {}): ToolSpec[] {
  const data = new OfficeData(options.dataDir ?? '.twinline/office');
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
