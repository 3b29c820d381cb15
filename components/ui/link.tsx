'use client';
import NextLink from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps } from 'react';

/**
 * Next's link, prefetching its page when the pointer or the keyboard focus reaches it rather than whenever it is on
 * screen. Next's own default asked the server for every page linked from the screen, some 18 per view of the studies
 * or items page: about ten times the server's work for the pages themselves (bench/page-views.ts, decision 0054). A
 * lab's server serves many reviewers at once; a page someone reaches for is still fetched before the click.
 */
export function Link({ href, onMouseEnter, onFocus, onTouchStart, ...props }: Omit<ComponentProps<typeof NextLink>, 'prefetch'>) {
  const router = useRouter();
  const target = typeof href === 'string' && href.startsWith('/') ? href : null;
  const prefetch = () => {
    if (target) router.prefetch(target);
  };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(e) => {
        prefetch();
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        prefetch();
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        prefetch();
        onTouchStart?.(e);
      }}
    />
  );
}
