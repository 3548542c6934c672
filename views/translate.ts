/** Translation function handed to views: a key (namespace.key) and optional interpolation values. */
export type Translate = (key: string, args?: Record<string, string | number>) => string;
