/**
 * The console's identity reviews (/admin-api/identity…): support operators (and admins) read the
 * requests and their document images (each view audited), approve or reject them with a reason;
 * admins set which features need which level.
 */
import { reviewIdBody, reviewRejectBody } from '../schemas/operators';
import {
  authDocumentQuery,
  identityListQuery,
  identityRequirementRow,
  identityRequirementSaveBody,
  reviewedAuthRecord,
} from '../schemas/identity';
import { ROUTE_ROLES, route } from './route';

const { ADMIN, SUPPORT } = ROUTE_ROLES;

export const consoleIdentityApi = {
  identityRecords: route({
    method: 'GET',
    path: '/admin-api/identity',
    auth: 'operator',
    roles: SUPPORT,
    summary: 'Verification requests, newest first, of one status, level or user when given.',
    query: identityListQuery,
    rows: reviewedAuthRecord,
  }),
  identityDocument: route({
    method: 'GET',
    path: '/admin-api/identity/document',
    auth: 'operator',
    roles: SUPPORT,
    summary: 'One document image of an advanced request; every view is in the audit log.',
    query: authDocumentQuery,
    file: true,
    contentType: 'image/jpeg',
    hints: ['hint_notFound'],
  }),
  approveIdentity: route({
    method: 'POST',
    path: '/admin-api/identity/approve',
    auth: 'operator',
    roles: SUPPORT,
    summary: 'Approves a request: the user has that level (`hint_48` when it was already).',
    body: reviewIdBody,
    encoding: 'json',
    data: reviewedAuthRecord,
    hints: ['hint_authNotFound', 'hint_reviewClosed'],
  }),
  rejectIdentity: route({
    method: 'POST',
    path: '/admin-api/identity/reject',
    auth: 'operator',
    roles: SUPPORT,
    summary: 'Rejects a request with the reason the user reads; they may ask again.',
    body: reviewRejectBody,
    encoding: 'json',
    data: reviewedAuthRecord,
    hints: ['hint_authNotFound', 'hint_reviewClosed'],
  }),
  identityRequirements: route({
    method: 'GET',
    path: '/admin-api/identity/requirements',
    auth: 'operator',
    roles: SUPPORT,
    summary: 'Which features need which verified level (−1: none).',
    rows: identityRequirementRow,
  }),
  saveIdentityRequirement: route({
    method: 'POST',
    path: '/admin-api/identity/requirements/save',
    auth: 'operator',
    roles: ADMIN,
    summary: 'Sets the level a feature needs; users read it before they try.',
    body: identityRequirementSaveBody,
    encoding: 'json',
    data: identityRequirementRow,
  }),
};
