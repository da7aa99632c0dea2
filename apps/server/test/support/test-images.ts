/**
 * Real images made with sharp at test time, and the hostile variants an upload must refuse:
 * bytes after a PNG's end, a PNG cut inside its pixel data, a JPEG header followed by HTML, a
 * decompression bomb, images larger than the spec's sides, and formats other than JPEG and PNG.
 */
import sharp from 'sharp';

export const HTML = Buffer.from('<html><script>alert(1)</script></html>');

/** A PNG of `width` x `height` pixels, a flat colour (so even large ones are small files). */
export function flatPng(width: number, height: number, channels: 3 | 4 = 3): Promise<Buffer> {
  return sharp({
    create: { width, height, channels, background: { r: 40, g: 90, b: 160, alpha: 0.5 } },
  })
    .png()
    .toBuffer();
}

export function flatJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2a5aa0' } })
    .jpeg()
    .toBuffer();
}

/** Pixels that do not compress, so the image data is large enough to cut in the middle. */
function noisy(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (Math.imul(i + 1, 2654435761) >>> 24) & 255;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/** EXIF with a camera make and a GPS position (the GPS IFD, tag 0x8825). */
const EXIF = {
  IFD0: { Make: 'BourseTestCamera', Model: 'Proof 1' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100' },
};

/** A 64 x 48 PNG with a half-transparent background, carrying EXIF with GPS. */
export function pngWithGps(): Promise<Buffer> {
  return sharp({
    create: { width: 64, height: 48, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.5 } },
  })
    .png()
    .withExif(EXIF)
    .toBuffer();
}

/** A 40 x 30 JPEG with EXIF GPS and orientation 6 (shown turned a quarter: 30 x 40). */
export function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif(EXIF)
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Whether an EXIF block holds a GPS IFD pointer (tag 0x8825, either byte order). */
export function hasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}

/** The hostile uploads, each with why it must be refused. */
export async function hostileImages(): Promise<
  { name: string; data: Buffer; reason: 'format' | 'dimensions' }[]
> {
  const png = await flatPng(64, 48);
  const noisyPng = await noisy(120, 90).png().toBuffer();
  const idat = noisyPng.indexOf('IDAT');
  const idatLength = noisyPng.readUInt32BE(idat - 4);
  const noisyJpeg = await noisy(200, 150).jpeg().toBuffer();
  // 3000 x 3000 zeros: about 9 MB of pixels in a file of some 10 KB.
  const bomb = await sharp(Buffer.alloc(3000 * 3000), {
    raw: { width: 3000, height: 3000, channels: 1 },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
  const badCrc = Buffer.from(png);
  badCrc[29] = badCrc[29]! ^ 0xff; // the IHDR chunk's CRC
  return [
    { name: 'PNG with HTML after IEND', data: Buffer.concat([png, HTML]), reason: 'format' },
    {
      name: 'PNG cut in the middle of IDAT',
      data: noisyPng.subarray(0, idat + 4 + Math.floor(idatLength / 2)),
      reason: 'format',
    },
    { name: 'PNG without its IEND', data: png.subarray(0, png.length - 12), reason: 'format' },
    { name: 'PNG with a bad CRC', data: badCrc, reason: 'format' },
    {
      name: 'JPEG SOI followed by HTML',
      data: Buffer.concat([Buffer.from([0xff, 0xd8]), HTML]),
      reason: 'format',
    },
    {
      name: 'JPEG SOI and APP0 marker followed by HTML',
      data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), HTML]),
      reason: 'format',
    },
    {
      name: 'JPEG cut in its scan',
      data: noisyJpeg.subarray(0, Math.floor(noisyJpeg.length * 0.6)),
      reason: 'format',
    },
    { name: '3000 x 3000 decompression bomb', data: bomb, reason: 'dimensions' },
    { name: 'PNG 3300 pixels long', data: await flatPng(3300, 100), reason: 'dimensions' },
    { name: 'JPEG 3300 pixels high', data: await flatJpeg(100, 3300), reason: 'dimensions' },
    { name: 'PNG 2449 x 2449 (short side)', data: await flatPng(2449, 2449), reason: 'dimensions' },
    {
      name: 'GIF',
      data: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .gif()
        .toBuffer(),
      reason: 'format',
    },
    {
      name: 'WebP',
      data: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .webp()
        .toBuffer(),
      reason: 'format',
    },
    {
      name: 'SVG',
      data: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>',
      ),
      reason: 'format',
    },
    { name: 'HTML', data: HTML, reason: 'format' },
  ];
}
