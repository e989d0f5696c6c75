/**
 * Where the browser loads a stored file from. The server answers URLs (`/files/…` for the local driver, a
 * bucket URL for S3); a bare storage path is served under /files/ (a stored file's URL is the host plus the
 * path the upload returned).
 */
export function mediaUrl(pathOrUrl: string | null | undefined): string {
  if (!pathOrUrl) return '';
  if (/^(https?:|blob:|data:|\/)/i.test(pathOrUrl)) return pathOrUrl;
  return `/files/${pathOrUrl.replace(/^\/+/, '')}`;
}
