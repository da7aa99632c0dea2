import { describe, expect, it } from 'vitest';
import { isServiceLineUrl, serviceSendBody, visitorToken } from './service';

describe('customer service schemas', () => {
  it('takes only https lines on the hosts of their kind', () => {
    expect(isServiceLineUrl('web', 'https://help.example.com/chat')).toBe(true);
    expect(isServiceLineUrl('telegram', 'https://t.me/bourse')).toBe(true);
    expect(isServiceLineUrl('whatsapp', 'https://wa.me/15551234567')).toBe(true);
    expect(isServiceLineUrl('whatsapp', 'https://api.whatsapp.com/send?phone=1555')).toBe(true);
    for (const [kind, url] of [
      ['web', 'http://help.example.com'],
      ['web', 'javascript:alert(1)'],
      ['web', 'https://user:secret@example.com'],
      ['web', 'https://localhost'],
      ['telegram', 'https://t.me.evil.example/bourse'],
      ['whatsapp', 'https://example.com/wa.me'],
      ['web', 'not a url'],
    ] as const)
      expect(isServiceLineUrl(kind, url), url).toBe(false);
  });

  it('wants a text or an image, not both, and a visitor token as issued', () => {
    const requestId = 'abcdefgh12';
    expect(serviceSendBody.safeParse({ content: '  hi  ', requestId }).data?.content).toBe('hi');
    expect(serviceSendBody.safeParse({ content: '  ', requestId }).error?.issues[0]?.message).toBe(
      'hint_serviceMessageEmpty',
    );
    expect(
      serviceSendBody.safeParse({ content: 'hi', image: 'abcd', requestId }).error?.issues[0]
        ?.message,
    ).toBe('hint_paramInvalid');
    expect(serviceSendBody.safeParse({ content: 'line 1\nline 2', requestId }).success).toBe(true);
    expect(visitorToken.safeParse('a'.repeat(43)).success).toBe(true);
    expect(visitorToken.safeParse('short').success).toBe(false);
    expect(visitorToken.safeParse(`${'a'.repeat(40)}<>"`).success).toBe(false);
  });
});
