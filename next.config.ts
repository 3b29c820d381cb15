import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native and Node-only modules stay outside the server bundle.
  serverExternalPackages: ['better-sqlite3', '@node-rs/argon2'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
