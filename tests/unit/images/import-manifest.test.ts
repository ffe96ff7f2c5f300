import { describe, expect, it } from 'vitest';
import { readManifest } from '../../../scripts/images/manifest.ts';

const row = {
  file: 'photos/rex.jpg',
  author: 'Ana Ruiz',
  licence: 'CC-BY-4.0',
  source_url: 'https://commons.example.org/wiki/File:Rex.jpg',
  species_id: 'dog',
  breed_ids: ['beagle'],
  colour_ids: ['dog-tricolor'],
};

describe('import manifests', () => {
  it('reads JSON rows, numbering them from 1, with tag lists defaulting to empty', () => {
    const { rows, refused } = readManifest(JSON.stringify([row, { ...row, breed_ids: undefined }]), 'json');

    expect(refused).toEqual([]);
    expect(rows.map((r) => r.line)).toEqual([1, 2]);
    expect(rows[1]!.row).toMatchObject({ breed_ids: [], colour_ids: ['dog-tricolor'], category_ids: [] });
  });

  it('reads CSV with quoted fields, doubled quotes, CRLF line ends and ;-separated lists', () => {
    const csv = [
      'file,url,author,licence,source_url,species_id,breed_ids,colour_ids,category_ids',
      'a.jpg,,"Ruiz, Ana ""Photo""",CC0-1.0,https://example.org/a,dog,beagle;pug,dog-black,1;2',
      ',https://example.org/b.jpg,Bo,https://creativecommons.org/licenses/by-sa/4.0/,https://example.org/b,cat,,,',
      '',
    ].join('\r\n');

    const { rows, refused } = readManifest(csv, 'csv');

    expect(refused).toEqual([]);
    expect(rows).toEqual([
      {
        line: 2,
        row: {
          file: 'a.jpg',
          author: 'Ruiz, Ana "Photo"',
          licence: 'CC0-1.0',
          source_url: 'https://example.org/a',
          species_id: 'dog',
          breed_ids: ['beagle', 'pug'],
          colour_ids: ['dog-black'],
          category_ids: [1, 2],
        },
      },
      {
        line: 3,
        row: {
          url: 'https://example.org/b.jpg',
          author: 'Bo',
          licence: 'https://creativecommons.org/licenses/by-sa/4.0/',
          source_url: 'https://example.org/b',
          species_id: 'cat',
          breed_ids: [],
          colour_ids: [],
          category_ids: [],
        },
      },
    ]);
  });

  it.each([
    [{ licence: undefined }, 'licence'],
    [{ licence: 'All rights reserved' }, 'licence must be'],
    [{ licence: 'CC-BY-NC-4.0' }, 'NC and ND licences'],
    [{ licence: 'https://creativecommons.org/licenses/by-nc/4.0/' }, 'licence must be'],
    [{ author: '  ' }, 'author must not be empty'],
    [{ source_url: 'ftp://example.org/x' }, 'source_url must be an http(s) URL'],
    [{ url: 'https://example.org/x.jpg' }, 'give exactly one of file and url'],
    [{ file: undefined }, 'give exactly one of file and url'],
    [{ breed_ids: ['a', 'b', 'c', 'd'] }, 'breed_ids'],
    [{ species_id: 'horse' }, 'species_id'],
    [{ extra: 1 }, 'extra'],
  ])('refuses a row with %o, saying why', (change, problem) => {
    const { rows, refused } = readManifest(JSON.stringify([row, { ...row, ...change }]), 'json');

    expect(rows.map((r) => r.line)).toEqual([1]);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.line).toBe(2);
    expect(refused[0]!.problems.join('\n')).toContain(problem);
  });

  it('names a refused licence once, as every other message names its field', () => {
    const { refused } = readManifest(JSON.stringify([{ ...row, licence: 'CC-BY-NC-4.0' }]), 'json');

    expect(refused[0]!.problems).toEqual([
      'licence must be CC0-1.0, CC-BY-x or CC-BY-SA-x (SPDX) or such a licence URL at creativecommons.org; NC and ND licences and unlicensed photos are refused',
    ]);
  });

  it('refuses a manifest that is not an array, or too large, before reading a row', () => {
    expect(() => readManifest('{"file":"a.jpg"}', 'json')).toThrow('array of rows');
    expect(() => readManifest(JSON.stringify(Array.from({ length: 10_001 }, () => row)), 'json')).toThrow('10000');
  });
});
