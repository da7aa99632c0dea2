/** The calls of market quotes (/api/product …). */
import { route } from './route';

export const quotesApi = {};
void route;
