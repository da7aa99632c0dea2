/** The calls of the operator API (/admin-api). */
import { route } from './route';

export const operatorsApi = {};
void route;
