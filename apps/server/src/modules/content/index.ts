/**
 * Authored content (issue 21): Q&A, rich-text pages, activities, news, the scrolling notice and
 * the home banners, written by content operators in the 19 languages. The module's only public face.
 */
export { contentConsoleRoutes, contentRoutes } from './routes';
export { ContentService, type ContentAudit } from './service';
