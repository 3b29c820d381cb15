// Empty on purpose: lets service tests import modules marked 'server-only'.
export {};
