/** The calls of site settings and launch data (/api/siteInfo, /api/platformCurrency …). */
import { route } from './route';

export const settingsApi = {};
void route;
