/**
 * Site messages to users.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { messageRoutes } from './routes';
export { MessageService } from './service';
