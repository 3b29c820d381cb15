import type { NextConfig } from 'next';
import { securityHeaders } from './lib/security-headers';

const nextConfig: NextConfig = {
  // Native and Node-only modules stay outside the server bundle.
  serverExternalPackages: ['better-sqlite3', '@node-rs/argon2', 'esbuild'],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
