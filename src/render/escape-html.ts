/** For the few pages written as HTML text (dev tools, provider pages): escapes the five HTML metacharacters. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
