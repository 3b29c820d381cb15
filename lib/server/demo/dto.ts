/** The data lib/server/demo hands to pages: plain types, no server code. */

export type DemoAccountDto = {
  username: string;
  password: string;
  role: 'admin' | 'lead' | 'annotator';
  sees: string;
  /** The demo studies in this database this account reviews or adjudicates (empty for admin and lead). */
  studies: string[];
};

/** What the sign-in page of a demo database tells people: the accounts, and which demo studies are here or not. */
export type DemoDto = {
  accounts: DemoAccountDto[];
  studies: string[];
  /** Demo studies this database lacks because their public data was not found, with how to add them. */
  missing: string[];
};
