import { Link } from '@/components/ui/link';

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-xl font-semibold">Not found</h1>
        <p className="mt-2 text-sm text-slate-600">This page does not exist, or it is not part of your work.</p>
        <p className="mt-2 text-sm text-slate-600">
          Neither does a list&apos;s page whose address holds a page number that is not a whole number from 1 to 1,000,000, or a search
          longer than 200 characters.
        </p>
        <Link
          href="/"
          className="mt-4 inline-block rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
        >
          Back to my work
        </Link>
      </div>
    </main>
  );
}
