/**
 * Site messages to users, and notifications of their own events.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { messageConsoleRoutes, messageRoutes } from './routes';
export {
  MessageService,
  MessagesConsole,
  Notices,
  type NoticeEvent,
  type NoticeWriter,
} from './service';
export * as notices from './notices';
