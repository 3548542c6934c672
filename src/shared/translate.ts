/** Translation function handed to views: a key (namespace.key) and optional interpolation values. */
export type Translate = (key: string, args?: Record<string, string | number>) => string;

/**
 * A Translate over messages already loaded (namespace -> nested keys), with the same rules as the
 * server's nestjs-i18n: `namespace.path.to.key`, `{name}` placeholders, and the key itself when a
 * message is missing. Used by shell pages on both sides so that hydration sees identical text.
 */
export function createTranslate(messages: Readonly<Record<string, unknown>>): Translate {
  // One translator per messages object (the server keeps one per locale), and each key looked up once.
  const existing = translators.get(messages);
  if (existing) return existing;
  const resolved = new Map<string, string | undefined>();
  const lookup = (key: string): string | undefined => {
    if (resolved.has(key)) return resolved.get(key);
    let node: unknown = messages;
    for (const part of key.split('.')) {
      if (node === null || typeof node !== 'object') {
        node = undefined;
        break;
      }
      node = (node as Record<string, unknown>)[part];
    }
    const text = typeof node === 'string' ? node : undefined;
    resolved.set(key, text);
    return text;
  };
  const translate: Translate = (key, args) => {
    const text = lookup(key);
    if (text === undefined) return key;
    if (!args) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole,
    );
  };
  translators.set(messages, translate);
  return translate;
}

const translators = new WeakMap<object, Translate>();
