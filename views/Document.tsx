import type { ReactNode } from 'react';

export interface DocumentProps {
  readonly lang: string;
  readonly title: string;
  readonly faviconHref: string;
  readonly stylesheets: readonly string[];
  readonly children: ReactNode;
}

/** The HTML document around every server-rendered page. */
export function Document({ lang, title, faviconHref, stylesheets, children }: DocumentProps) {
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="icon" href={faviconHref} type="image/svg+xml" />
        {stylesheets.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
      </head>
      <body>{children}</body>
    </html>
  );
}
