/**
 * Identity verification (`/api/userAuthRecord`, the platform's names): a user's request for a
 * level, its state, its document images (to their owner only), and what each level allows.
 */
import {
  authApplyBody,
  authDetailQuery,
  authDocumentQuery,
  authRecord,
  identityRequirements,
} from '../schemas/identity';
import { route } from './route';

export const identityApi = {
  authDetail: route({
    method: 'GET',
    path: '/api/userAuthRecord/detail',
    auth: 'user',
    summary:
      "The user's latest verification request of a level (status −1 and nothing else when there is none).",
    query: authDetailQuery,
    data: authRecord,
  }),
  authApply: route({
    method: 'POST',
    path: '/api/userAuthRecord/userAuthApply',
    auth: 'user',
    summary:
      'Asks for a verification level, left for review: basic with the real name and document; advanced (basic approved first, the same name) with the front, back and a photo holding the document. None while one is under review or once approved; again after a rejection. The same `requestId` answers the first request again.',
    body: authApplyBody,
    encoding: 'json',
    data: authRecord,
    hints: [
      'hint_idNumberInvalid',
      'hint_authUnderReview',
      'hint_authApproved',
      'hint_authBasicFirst',
      'hint_authNameMismatch',
      'hint_proofTooLarge',
      'hint_imageFormat',
      'hint_proofDimensions',
      'hint_requestIdReused',
    ],
  }),
  authDocument: route({
    method: 'GET',
    path: '/api/userAuthRecord/document',
    auth: 'user',
    summary: "One document image of the user's own advanced request.",
    query: authDocumentQuery,
    file: true,
    contentType: 'image/jpeg',
    hints: ['hint_notFound'],
  }),
  requirements: route({
    method: 'GET',
    path: '/api/userAuthRecord/requirements',
    auth: 'user',
    summary:
      'Which features need which verified level, and whether the user meets each (shown before they try).',
    data: identityRequirements,
  }),
};
