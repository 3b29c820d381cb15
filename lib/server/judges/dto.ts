/** The types of lib/server/judges that leave the server. */

export type CombineRule = 'all' | 'any' | 'majority';

/** How a combined judge run was made (stored with the run, shown where runs are listed). */
export type JudgeRunRecipeDto = {
  rule: CombineRule;
  /** The source runs, by name, in the order given. */
  runs: string[];
  /** `unjudged`: a pair some source run did not judge is left unjudged; `ignore`: the verdicts there are are combined. */
  missing: 'unjudged' | 'ignore';
  counts: {
    /** (item, criterion) pairs at least one source run judged. */
    pairs: number;
    /** Pairs given a combined verdict (the verdicts of the new run). */
    combined: number;
    /** Pairs left unjudged because the majority was tied. */
    tie: number;
    /** Pairs left unjudged because a source run gave no verdict. */
    missing: number;
  };
};

/** The answer of `combineJudgeRuns`: the new run and its recipe. */
export type CombinedRunDto = { studyId: number; run: string; recipe: JudgeRunRecipeDto };
