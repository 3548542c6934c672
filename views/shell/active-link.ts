/** Any base works: it only lets the WHATWG parser read a bare path; its host is never compared. */
const PARSE_BASE = 'http://active-link.invalid';
/** `scheme:` at the start: an absolute address (`https://…`, but also `mailto:` and `tel:`). */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export interface ActiveLinkOptions {
  /** Also active on every page below the link's path (`/vault` is active on `/vault/shipping`). */
  readonly prefix?: boolean;
}

/**
 * The path a link points at, normalised the way a browser would resolve it (dot segments removed,
 * percent-encoding canonical), without query, fragment or a trailing slash. An absolute address
 * keeps only its path (§2 Footer: "a link containing an absolute address is compared by its path
 * only"). Links that point at no page (empty, fragment-only, `mailto:`, `tel:`...) have no path.
 */
export function linkPath(href: string): string | undefined {
  // Every page renders some sixty links from a fixed set: parse each address once.
  if (pathCache.has(href)) return pathCache.get(href);
  const path = parseLinkPath(href);
  if (pathCache.size >= PATH_CACHE_LIMIT) pathCache.clear();
  pathCache.set(href, path);
  return path;
}

/** Bounds the cache: current paths (with their queries) are not a fixed set. */
const PATH_CACHE_LIMIT = 5000;
const pathCache = new Map<string, string | undefined>();

function parseLinkPath(href: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('?')) return undefined;
  if (HAS_SCHEME.test(trimmed) && !/^https?:/i.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed, PARSE_BASE);
  } catch {
    return undefined;
  }
  const path = url.pathname;
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * §2 (headers and footer): whether a link is the current page. Exact path match by default; with `prefix`, also
 * when the current path lies below the link's path on a segment boundary (`/vault` does not match
 * `/vaults`). The root link is active only on the root page even with `prefix`, or it would be active
 * everywhere. Queries and fragments never count: `currentPath` may carry the page's query.
 */
export function isActiveLink(
  href: string,
  currentPath: string,
  options: ActiveLinkOptions = {},
): boolean {
  const link = linkPath(href);
  const current = linkPath(currentPath);
  if (link === undefined || current === undefined) return false;
  if (link === current) return true;
  return options.prefix === true && link !== '/' && current.startsWith(`${link}/`);
}
