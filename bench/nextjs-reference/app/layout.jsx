// The service's critical stylesheet (client/dist/critical-*.css, copied here before each build by
// bench/nextjs-reference.js), imported the way a Next app imports its global CSS: Next serves it
// as a <link rel="stylesheet">.
import './shell.css';

export const metadata = {
  title: 'Your account',
  robots: { index: false },
  icons: { icon: { url: '/static/brand/favicon-psa.svg', type: 'image/svg+xml' } },
};

export default function RootLayout({ children }) {
  return (
    <html lang="en-US" className="theme-light">
      <body>{children}</body>
    </html>
  );
}
