// The licences a public photo may carry and where each one's text is: Creative Commons CC0, BY and BY-SA (any version,
// as SPDX ids) and `public-domain` (a photo its author released to the public domain, linked to the Public Domain Mark).

const CC_BY = /^CC-BY(-SA)?-(1\.0|2\.0|2\.5|3\.0|4\.0)$/;

/** The URL of a licence given as an id (or already as a URL); null for a licence this service does not know. */
export function licenceUrl(licence: string): string | null {
  if (/^https:\/\/creativecommons\.org\//.test(licence)) return licence;
  if (licence === 'public-domain') return 'https://creativecommons.org/publicdomain/mark/1.0/';
  if (licence === 'CC0-1.0') return 'https://creativecommons.org/publicdomain/zero/1.0/';
  const m = CC_BY.exec(licence);
  return m ? `https://creativecommons.org/licenses/by${m[1] ? '-sa' : ''}/${m[2]}/` : null;
}
