/**
 * The caller's country, where the deployment knows it: CloudFront in front of the API adds
 * `cloudfront-viewer-country`. Without it the country is unknown (null), never guessed.
 */
export function viewerCountry(headers: Record<string, string | undefined>): string | null {
  const code = headers['cloudfront-viewer-country']?.trim().toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
}
