/**
 * lib/images: an upload is decoded in full, bounded, and stored as a fresh JPEG without metadata;
 * anything else (hostile variants made here with sharp) is refused with its reason.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import {
  ImageRefused,
  MAX_CONCURRENT_DECODES,
  storeableImage,
  type ImageRules,
} from '../src/lib/images';
import {
  flatJpeg,
  flatPng,
  hasGps,
  hostileImages,
  HTML,
  jpegWithGps,
  pngWithGps,
} from './support/test-images';

/** The payment proof's rules (the first user). */
const RULES: ImageRules = { maxBytes: 2 * 1024 * 1024, longSide: 3264, shortSide: 2448 };

async function refusal(data: Buffer, rules = RULES): Promise<string> {
  try {
    await storeableImage(data, rules);
  } catch (error) {
    if (error instanceof ImageRefused) return error.reason;
    throw error;
  }
  return 'accepted';
}

describe('storeableImage', () => {
  it('stores a PNG with EXIF GPS and transparency as a JPEG without metadata, on white', async () => {
    const input = await pngWithGps();
    const before = await sharp(input).metadata();
    expect(before).toMatchObject({ format: 'png', hasAlpha: true });
    expect(hasGps(before.exif)).toBe(true);

    const stored = await storeableImage(input, RULES);
    expect(stored).toMatchObject({ mime: 'image/jpeg', width: 64, height: 48 });
    expect(stored.sha256).toBe(createHash('sha256').update(stored.data).digest('hex'));
    const after = await sharp(stored.data).metadata();
    expect(after).toMatchObject({ format: 'jpeg', width: 64, height: 48, hasAlpha: false });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(stored.data.includes('Exif')).toBe(false);
    expect(stored.data.includes('BourseTestCamera')).toBe(false);
    // Half-transparent red (200, 0, 0) on white is about (228, 128, 128); on black, (100, 0, 0).
    const pixel = await sharp(stored.data)
      .extract({ left: 32, top: 24, width: 1, height: 1 })
      .raw()
      .toBuffer();
    for (const [channel, value] of [228, 128, 128].entries())
      expect(Math.abs(pixel[channel]! - value)).toBeLessThan(12);
  });

  it('turns a JPEG upright by its EXIF orientation and drops the EXIF', async () => {
    const input = await jpegWithGps();
    const before = await sharp(input).metadata();
    expect(before).toMatchObject({ format: 'jpeg', width: 40, height: 30, orientation: 6 });
    expect(hasGps(before.exif)).toBe(true);

    const stored = await storeableImage(input, RULES);
    expect(stored).toMatchObject({ mime: 'image/jpeg', width: 30, height: 40 });
    const after = await sharp(stored.data).metadata();
    expect(after).toMatchObject({ format: 'jpeg', width: 30, height: 40 });
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
  });

  it('keeps a JPEG with bytes after its EOI, dropping them', async () => {
    const input = Buffer.concat([await flatJpeg(50, 20), HTML]);
    const stored = await storeableImage(input, RULES);
    expect(stored).toMatchObject({ mime: 'image/jpeg', width: 50, height: 20 });
    expect(stored.data.includes(HTML)).toBe(false);
    expect(stored.data.includes('<html')).toBe(false);
    // The stored JPEG ends at its EOI.
    expect(stored.data.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  });

  it('takes the largest image the rules allow, either way round', async () => {
    const landscape = await storeableImage(await flatPng(3264, 2448), RULES);
    expect(landscape).toMatchObject({ width: 3264, height: 2448 });
    const portrait = await storeableImage(await flatJpeg(2448, 3264), RULES);
    expect(portrait).toMatchObject({ width: 2448, height: 3264 });
  });

  it('takes grayscale, palette, 16-bit and CMYK images as sRGB or gray JPEGs', async () => {
    const base = () =>
      sharp({ create: { width: 20, height: 10, channels: 3, background: '#808040' } });
    const inputs = [
      await base().grayscale().png().toBuffer(),
      await base().png({ palette: true }).toBuffer(),
      await base().png().toColourspace('rgb16').toBuffer(),
      await base().jpeg().toColourspace('cmyk').toBuffer(),
    ];
    for (const input of inputs) {
      const stored = await storeableImage(input, RULES);
      const after = await sharp(stored.data).metadata();
      expect(after.format).toBe('jpeg');
      expect(['srgb', 'b-w']).toContain(after.space);
      expect(after).toMatchObject({ width: 20, height: 10 });
    }
  });

  it('refuses every hostile upload with its reason', async () => {
    const results: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const { name, data, reason } of await hostileImages()) {
      results[name] = await refusal(data);
      expected[name] = reason;
    }
    expect(results).toEqual(expected);
  });

  it('refuses a decompression bomb in the decoder itself, by its pixel count', async () => {
    // Sides allowed, pixels not: only limitInputPixels (long x short) stands in the way.
    const bomb = (await hostileImages()).find((image) => image.name.includes('bomb'))!.data;
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(
      sharp(bomb, { limitInputPixels: 3264 * 2448 })
        .jpeg()
        .toBuffer(),
    ).rejects.toThrow(/pixel limit/);
    expect(await refusal(bomb)).toBe('dimensions');
  });

  it('refuses more bytes than the rules allow before decoding', async () => {
    const png = await flatPng(10, 10);
    expect(await refusal(png, { ...RULES, maxBytes: png.length - 1 })).toBe('tooLarge');
    expect(await refusal(png, { ...RULES, maxBytes: png.length })).toBe('accepted');
  });

  it('processes many images at once, at most two at a time', async () => {
    const inputs = await Promise.all(Array.from({ length: 8 }, (_, i) => flatPng(1000 + i, 800)));
    const jpeg = await sharp(Buffer.alloc(200 * 150 * 3, 7), {
      raw: { width: 200, height: 150, channels: 3 },
    })
      .jpeg()
      .toBuffer();
    // Every sharp call that runs in libuv's pool (header reads and pipelines), counted while it
    // is under way. (sharp.counters() lags: it drops a task only after its result reached JS.)
    let running = 0;
    let busiest = 0;
    const proto = sharp.prototype as any;
    const original = { toBuffer: proto.toBuffer, metadata: proto.metadata };
    const counted = (name: 'toBuffer' | 'metadata') =>
      vi.spyOn(proto, name).mockImplementation(function (this: unknown, ...args: unknown[]) {
        running += 1;
        busiest = Math.max(busiest, running);
        return (original[name].apply(this, args) as Promise<unknown>).finally(() => {
          running -= 1;
        });
      });
    const spies = [counted('toBuffer'), counted('metadata')];
    try {
      const stored = await Promise.all(inputs.map((input) => storeableImage(input, RULES)));
      expect(stored.map((image) => image.width)).toEqual(inputs.map((_, i) => 1000 + i));
      expect(busiest).toBe(MAX_CONCURRENT_DECODES);
      expect(MAX_CONCURRENT_DECODES).toBe(2);

      // Refusals by the header and by the decoder give their slot back too.
      busiest = 0;
      const mixed = await Promise.allSettled([
        storeableImage(await flatPng(3300, 10), RULES),
        storeableImage(jpeg.subarray(0, jpeg.length - 100), RULES),
        ...inputs.map((input) => storeableImage(input, RULES)),
      ]);
      expect(mixed.map((result) => result.status)).toEqual([
        'rejected',
        'rejected',
        ...inputs.map(() => 'fulfilled'),
      ]);
      expect(busiest).toBe(2);
      expect(running).toBe(0);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
