/**
 * §3 "Analytics event: action, category, label, value, user", e.g. the Logout event of §4 Sign-out
 * step 4. Events go to the page's data layer (the tag manager a deployment adds reads it) and only
 * when the collector has allowed analytics in the consent manager; otherwise they are dropped.
 */
export interface AnalyticsEvent {
  readonly action: string;
  readonly category: string;
  readonly label?: string;
  readonly value?: number;
  /** The collector's public id (CollectorsId), never a token or an e-mail address. */
  readonly user?: string | number;
}

const MAX_TEXT = 100;

/** Checks an event's shape; returns why it is refused, or undefined. */
export function invalidEvent(event: AnalyticsEvent): string | undefined {
  for (const field of ['action', 'category'] as const) {
    const v = event[field];
    if (typeof v !== 'string' || v.length === 0 || v.length > MAX_TEXT)
      return `${field} must be 1-${MAX_TEXT} characters`;
  }
  if (
    event.label !== undefined &&
    (typeof event.label !== 'string' || event.label.length > MAX_TEXT)
  )
    return `label must be at most ${MAX_TEXT} characters`;
  if (event.value !== undefined && !Number.isFinite(event.value)) return 'value must be a number';
  if (event.user !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(String(event.user)))
    return 'user must be a public collector id';
  return undefined;
}

export interface AnalyticsDeps {
  readonly consented: () => boolean;
  readonly dataLayer: () => unknown[];
}

export function createAnalytics(deps: AnalyticsDeps) {
  return {
    /** Records the event; returns true when it was recorded. */
    track(event: AnalyticsEvent): boolean {
      if (invalidEvent(event) !== undefined || !deps.consented()) return false;
      deps.dataLayer().push({ event: 'collectors_event', ...event });
      return true;
    },
  };
}
