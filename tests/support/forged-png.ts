// A PNG whose header claims another size: a few dozen bytes that would decode to gigabytes (a decompression bomb as
// the header check sees it). The IHDR checksum is recomputed, so only the claim is false.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
