/** The data lib/server/imports hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */

export type ImportReportDto = {
  records: number;
  inserted: number;
  unchanged: number;
  /** Prior annotations that came with the items (PandaLM's annotators, MRBench's gold labels). */
  annotations?: { records: number; inserted: number; unchanged: number };
};

export type JudgeImportReportDto = {
  run: string;
  records: number;
  labels: number;
  /** Records whose verdict could not be read: left out (never guessed), each listed with its item. */
  unparsed: { item: string; line: number; message: string }[];
};
