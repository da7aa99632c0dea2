/**
 * Delivers verification codes and security notices: by SMTP (nodemailer) when SMTP_URL is set,
 * otherwise into the server log, where a self-hosting operator can read them. Phone codes always
 * go to the log: no SMS gateway is configured in this edition.
 *
 * Every email is written by `emailText`: when the recipient's account has an anti-phishing code,
 * the text starts with it, so a message claiming to be ours without it is not. An address with no
 * account (a registration code) has none.
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
  /** The recipient account's anti-phishing code (emails only; absent: none, or no account). */
  antiPhishingCode?: string;
}

/** An email to an account's address that carries no code (a security change was made). */
export interface NoticeMessage {
  target: string;
  lang: LanguageKey;
  subjectKey: string;
  bodyKey: string;
  params?: (string | number)[];
  antiPhishingCode?: string;
}

export interface CodeSender {
  /** Whether this channel can really reach the user (not just the log). */
  delivers(channel: 'email' | 'phone'): boolean;
  send(message: CodeMessage): Promise<void>;
  /** Sends a notice email (to the log when no SMTP server is configured). */
  notify(message: NoticeMessage): Promise<void>;
}

/** The text of an email: the anti-phishing line first when the recipient has a code. */
export function emailText(lang: LanguageKey, body: string, antiPhishingCode?: string): string {
  if (!antiPhishingCode) return body;
  return `${translate(lang, 'email_antiPhishingLine', [antiPhishingCode])}\n\n${body}`;
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
          text: emailText(
            message.lang,
            translate(message.lang, 'email_codeBody', [message.code, minutes]),
            message.antiPhishingCode,
          ),
        });
        return;
      }
      options.logger.warn(
        {
          channel: message.channel,
          target: message.target,
          code: message.code,
          ...(message.antiPhishingCode ? { antiPhishingCode: message.antiPhishingCode } : {}),
        },
        `verification code for ${message.target}: ${message.code} (no delivery channel configured)`,
      );
    },
    async notify(message) {
      const subject = translate(message.lang, message.subjectKey);
      const text = emailText(
        message.lang,
        translate(message.lang, message.bodyKey, message.params ?? []),
        message.antiPhishingCode,
      );
      if (transport) {
        await transport.sendMail({ from: options.mailFrom, to: message.target, subject, text });
        return;
      }
      options.logger.info(
        { target: message.target, subject },
        `notice for ${message.target} (no delivery channel configured): ${subject}`,
      );
    },
  };
}
