import { describe, expect, it } from 'vitest';
import { PAYMENT_PROOF } from '@bourse/shared';
import {
  CompressionError,
  compressImage,
  dataUrlBytes,
  isAcceptedImage,
  compressedSize,
} from './compress-image';

describe('image compression: sizes', () => {
  it('draws wide images at width 800, keeping the aspect ratio', () => {
    expect(compressedSize(4000, 3000)).toEqual({ width: 800, height: 600 });
    expect(compressedSize(1600, 900)).toEqual({ width: 800, height: 450 });
    expect(compressedSize(1080, 2400)).toEqual({ width: 800, height: 1778 });
    expect(compressedSize(801, 1)).toEqual({ width: 800, height: 1 });
  });

  it('never makes an image larger', () => {
    expect(compressedSize(800, 600)).toEqual({ width: 800, height: 600 });
    expect(compressedSize(640, 480)).toEqual({ width: 640, height: 480 });
    expect(compressedSize(1, 1)).toEqual({ width: 1, height: 1 });
  });

  it('scales a long side over 3264 by 0.8 repeatedly until it is within', () => {
    // 1000 x 10000 -> 800 x 8000 -> x0.8 four times: 327.68 x 3276.8 is still over, a fifth: 262.14 x 2621.44.
    expect(compressedSize(1000, 10000)).toEqual({ width: 262, height: 2621 });
    // 800 x 3265: one step is enough.
    expect(compressedSize(800, 3265)).toEqual({ width: 640, height: 2612 });
    // Exactly the limit stays.
    expect(compressedSize(800, 3264)).toEqual({ width: 800, height: 3264 });
    // A narrow image under width 800 is scaled by the same steps.
    expect(compressedSize(100, 5000)).toEqual({ width: 64, height: 3200 });
  });

  it('applies the short-side limit of 2448 together with the long side', () => {
    // Only reachable in principle after the width rule; the loop's rule is checked directly.
    const limit = (w: number, h: number) =>
      Math.max(w, h) <= PAYMENT_PROOF.longSide && Math.min(w, h) <= PAYMENT_PROOF.shortSide;
    for (const [w, h] of [
      [6000, 4000],
      [4000, 6000],
      [12_000, 300],
      [300, 12_000],
      [799, 99_999],
    ] as const) {
      const size = compressedSize(w, h);
      expect(limit(size.width, size.height)).toBe(true);
      expect(size.width).toBeLessThanOrEqual(PAYMENT_PROOF.compressWidth);
    }
  });

  it('refuses sizes that are not an image', () => {
    expect(() => compressedSize(0, 10)).toThrow(CompressionError);
    expect(() => compressedSize(10, Number.NaN)).toThrow(CompressionError);
    expect(() => compressedSize(-1, 10)).toThrow(CompressionError);
  });
});

describe('image compression: files', () => {
  it('accepts JPEG and PNG only', () => {
    expect(isAcceptedImage({ type: 'image/jpeg', name: 'a.jpg' })).toBe(true);
    expect(isAcceptedImage({ type: 'image/png', name: 'a.png' })).toBe(true);
    expect(isAcceptedImage({ type: 'image/gif', name: 'a.gif' })).toBe(false);
    expect(isAcceptedImage({ type: 'image/webp', name: 'a.png' })).toBe(false);
    expect(isAcceptedImage({ type: '', name: 'IMG_0001.JPG' })).toBe(true);
    expect(isAcceptedImage({ type: '', name: 'notes.txt' })).toBe(false);
  });

  it('counts the bytes of a base64 data URL', () => {
    expect(dataUrlBytes('data:image/jpeg;base64,QUJD')).toBe(3);
    expect(dataUrlBytes('data:image/jpeg;base64,QUI=')).toBe(2);
    expect(dataUrlBytes('data:image/jpeg;base64,QQ==')).toBe(1);
  });

  it('fails with a CompressionError when the file is not an image', async () => {
    // jsdom has no image decoder: whatever it does with the bytes, the outcome is this error.
    const file = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    await expect(compressImage(file)).rejects.toBeInstanceOf(CompressionError);
  });
});
