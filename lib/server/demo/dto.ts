/** The data lib/server/demo hands to pages: plain types, no server code. */

export type DemoAccountDto = { username: string; password: string; role: 'admin' | 'lead' | 'annotator'; sees: string };
