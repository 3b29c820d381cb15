/** Bounds of what a reviewer may write beside their labels, shared by the screens (no zod here) and the schemas. */
export const FLAG_REASON_MAX = 500;
export const COMMENT_MAX = 5000;
