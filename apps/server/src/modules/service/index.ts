/**
 * Customer service: the live chat of users and visitors with the support desk, the console's
 * inbox, canned replies and external lines. The module's only public face.
 */
export { serviceConsoleRoutes, serviceRoutes } from './routes';
export { ServiceDesk, type DeskEvent, type PersonEvent, type ServiceDeps } from './service';
export type { Person } from './repo';
