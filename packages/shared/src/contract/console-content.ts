/**
 * The console's content pages (/admin-api/content…): content operators (and admins) write Q&A,
 * rich-text pages, activities, news, notices and banners in the 19 languages; every change is in
 * the audit log. Rich texts are sanitised on save; images are re-encoded.
 */
import {
  contentDeleteBody,
  contentEntry,
  contentListQuery,
  contentSaveBody,
} from '../schemas/content';
import { route } from './route';
import type { OperatorRole } from '../constants';

const CONTENT: readonly OperatorRole[] = ['content', 'admin'];

export const consoleContentApi = {
  contentList: route({
    method: 'GET',
    path: '/admin-api/content',
    auth: 'operator',
    roles: CONTENT,
    summary:
      'Entries of one kind in the order the app shows them, with their texts in every language.',
    query: contentListQuery,
    rows: contentEntry,
  }),
  saveContent: route({
    method: 'POST',
    path: '/admin-api/content/save',
    auth: 'operator',
    roles: CONTENT,
    summary:
      'Creates or changes an entry: texts per language (English required), rich texts sanitised, the image re-encoded; audited with before and after.',
    body: contentSaveBody,
    encoding: 'json',
    data: contentEntry,
    hints: [
      'hint_notFound',
      'hint_richTextTooLong',
      'hint_contentEnglishRequired',
      'hint_contentKeyTaken',
      'hint_contentTimeOrder',
      'hint_imageFormat',
      'hint_proofTooLarge',
      'hint_avatarDimensions',
    ],
  }),
  deleteContent: route({
    method: 'POST',
    path: '/admin-api/content/delete',
    auth: 'operator',
    roles: CONTENT,
    summary: 'Deletes an entry (a Q&A category only once it holds no question); audited.',
    body: contentDeleteBody,
    encoding: 'json',
    hints: ['hint_notFound', 'hint_contentCategoryInUse'],
  }),
};
