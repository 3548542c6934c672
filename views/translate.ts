/** Translation function handed to views: a key (namespace.key) and optional interpolation values. */
export type Translate = (key: string, args?: Record<string, string | number>) => string;

/**
 * A Translate over messages already loaded (namespace -> nested keys), with the same rules as the
 * server's nestjs-i18n: `namespace.path.to.key`, `{name}` placeholders, and the key itself when a
 * message is missing. Used by shell pages on both sides so that hydration sees identical text.
 */
export function createTranslate(messages: Readonly<Record<string, unknown>>): Translate {
  return (key, args) => {
    let node: unknown = messages;
    for (const part of key.split('.')) {
      if (node === null || typeof node !== 'object') return key;
      node = (node as Record<string, unknown>)[part];
    }
    if (typeof node !== 'string') return key;
    if (!args) return node;
    return node.replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole,
    );
  };
}
