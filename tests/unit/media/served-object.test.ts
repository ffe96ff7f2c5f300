import { describe, expect, it } from 'vitest';
import { servedObject } from '../../../shared/media/served-object.ts';

describe('servedObject', () => {
  it('names the object inline with its type', () => {
    expect(servedObject('01JD5Q.jpg', 'image/jpeg')).toEqual({
      ContentType: 'image/jpeg',
      ContentDisposition: 'inline; filename="01JD5Q.jpg"',
    });
  });

  it('keeps quotes, separators, control and non-ASCII characters out of the header, and bounds its length', () => {
    const { ContentDisposition } = servedObject(`a"b;\r\nc/\\d é🐶${'x'.repeat(300)}.png`, 'image/png');
    expect(ContentDisposition).toMatch(/^inline; filename="[A-Za-z0-9._-]{1,100}"$/);
    expect(ContentDisposition.startsWith('inline; filename="a_b___c__d_')).toBe(true);
  });
});
