/**
 * Delivers verification codes: by SMTP (nodemailer) when SMTP_URL is set, otherwise into the
 * server log, where a self-hosting operator can read them. Phone codes always go to the log: no
 * SMS gateway is configured in this edition.
 */
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { VERIFICATION_CODE, type LanguageKey } from '@bourse/shared';
import { translate } from '../../lib/i18n';

export interface CodeMessage {
  channel: 'email' | 'phone';
  target: string;
  code: string;
  lang: LanguageKey;
}

export interface CodeSender {
  /** Whether this channel can really reach the user (not just the log). */
  delivers(channel: 'email' | 'phone'): boolean;
  send(message: CodeMessage): Promise<void>;
}

export function createCodeSender(options: {
  smtpUrl?: string;
  mailFrom: string;
  logger: FastifyBaseLogger;
}): CodeSender {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  const minutes = VERIFICATION_CODE.lifetimeSeconds / 60;
  return {
    delivers: (channel) => channel === 'email' && transport !== undefined,
    async send(message) {
      if (message.channel === 'email' && transport) {
        await transport.sendMail({
          from: options.mailFrom,
          to: message.target,
          subject: translate(message.lang, 'email_codeSubject'),
          text: translate(message.lang, 'email_codeBody', [message.code, minutes]),
        });
        return;
      }
      options.logger.warn(
        { channel: message.channel, target: message.target, code: message.code },
        `verification code for ${message.target}: ${message.code} (no delivery channel configured)`,
      );
    },
  };
}
