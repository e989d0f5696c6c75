/**
 * Where the browser loads a stored file from. The server answers URLs (`/files/…` for the local driver, a
 * bucket URL for S3); a bare storage path is served under /files/ (spec §7: files are referenced under the
 * host plus the returned path).
 */
export function mediaUrl(pathOrUrl: string | null | undefined): string {
  if (!pathOrUrl) return '';
  if (/^(https?:|blob:|data:|\/)/i.test(pathOrUrl)) return pathOrUrl;
  return `/files/${pathOrUrl.replace(/^\/+/, '')}`;
}
