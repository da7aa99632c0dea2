/**
 * Customer service (`/api/service`, PRODUCT section 3): a user's or a visitor's chat with the
 * support desk. Signed-in users are known by their session; visitors by the token
 * `visitor` issued them, sent as `visitorToken` (a signed-in call carrying one links that
 * visitor's conversation to the user). Real time over `/ws`, topic `service`.
 */
import {
  serviceImageQuery,
  serviceLine,
  serviceMessage,
  serviceMessagesQuery,
  serviceReadBody,
  serviceReadState,
  serviceSendBody,
  serviceTypingBody,
  serviceVisitor,
} from '../schemas/service';
import { route } from './route';

export const serviceApi = {
  visitor: route({
    method: 'POST',
    path: '/api/service/visitor',
    auth: 'public',
    summary:
      'Issues a visitor identity for a signed-out chat: a token the app keeps on the device and sends as `visitorToken` (also `{op:"auth", visitor}` on /ws).',
    data: serviceVisitor,
  }),
  messages: route({
    method: 'GET',
    path: '/api/service/messages',
    auth: 'optional',
    summary:
      'The conversation, paged back by id: the `pageSize` messages before `beforeId` (the newest without it), oldest first; `total` counts them all.',
    query: serviceMessagesQuery,
    rows: serviceMessage,
    hints: ['hint_visitorUnknown'],
  }),
  send: route({
    method: 'POST',
    path: '/api/service/send',
    auth: 'optional',
    summary:
      'Sends a text or one image (JPEG or PNG, base64; re-encoded by the server) to the support desk. The same `requestId` answers the first message again.',
    body: serviceSendBody,
    encoding: 'json',
    data: serviceMessage,
    hints: [
      'hint_visitorUnknown',
      'hint_serviceMessageEmpty',
      'hint_imageFormat',
      'hint_proofTooLarge',
      'hint_proofDimensions',
      'hint_requestIdReused',
    ],
  }),
  read: route({
    method: 'POST',
    path: '/api/service/read',
    auth: 'optional',
    summary: "Marks the desk's messages up to `upToId` read (the desk sees the receipt).",
    body: serviceReadBody,
    data: serviceReadState,
    hints: ['hint_visitorUnknown'],
  }),
  typing: route({
    method: 'POST',
    path: '/api/service/typing',
    auth: 'optional',
    summary: 'Tells the desk the person is typing (sent at most every few seconds while typing).',
    body: serviceTypingBody,
    hints: ['hint_visitorUnknown'],
  }),
  image: route({
    method: 'GET',
    path: '/api/service/image',
    auth: 'optional',
    summary: "An image of the caller's own conversation.",
    query: serviceImageQuery,
    file: true,
    contentType: 'image/jpeg',
    hints: ['hint_notFound', 'hint_visitorUnknown'],
  }),
  lines: route({
    method: 'GET',
    path: '/api/service/lines',
    auth: 'public',
    summary: 'The external lines of the support desk (a web page, Telegram, WhatsApp).',
    rows: serviceLine,
  }),
};
