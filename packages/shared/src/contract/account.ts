/** The calls of account and messages (/api/userInfo, /api/message …). */
import { route } from './route';

export const accountApi = {};
void route;
