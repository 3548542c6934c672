// Next's production defaults, but for two settings. The app sits inside our repository, whose own
// package-lock.json Next would otherwise take as the workspace root (it warns and traces files from
// there): the root is this folder. And no `x-powered-by: Next.js`: every answer carries the same
// headers as the service's, which sends none.
/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  outputFileTracingRoot: import.meta.dirname,
  turbopack: { root: import.meta.dirname },
};

export default nextConfig;
