import type { Criterion } from '@/lib/validation/pairwise';

/**
 * The catalog a new pairwise study starts with: four general criteria and three
 * for each of the six default principles (22 in all, the shape KMP-Bench used),
 * written for comparing two replies of a maths tutor to the same dialogue.
 * Every criterion is judged from reply a's side: which reply does this better?
 * 'overall' is not listed; it is always implied.
 */
export const DEFAULT_CRITERIA: readonly Criterion[] = [
  /* ----- general ----- */
  {
    id: 'coherence',
    name: 'Fit with the conversation',
    level: 'general',
    description: 'Which reply follows on more naturally from what the student just said and from the dialogue so far?',
    aspects: [
      "Responds to the student's last message rather than to an imagined one",
      'Does not repeat or contradict what was already settled',
      'Keeps the session moving toward the learning objective',
    ],
  },
  {
    id: 'math_correctness',
    name: 'Mathematical correctness',
    level: 'general',
    description: 'Which reply is free of mathematical errors in what it states, computes or implies?',
    aspects: [
      'Numbers, operations and results are right',
      'Terms and notation are used correctly',
      "Does not endorse a wrong step in the student's work",
    ],
  },
  {
    id: 'clarity',
    name: 'Clarity for this student',
    level: 'general',
    description: 'Which reply would this student find easier to read and act on, given their grade and profile?',
    aspects: [
      "Vocabulary and sentence length suit the student's level",
      'One main idea per message, without padding',
      'It is clear what the student should do next',
    ],
  },
  {
    id: 'instruction_following',
    name: 'Following the tutoring brief',
    level: 'general',
    description: 'Which reply better respects the tutor persona, the student profile and the goal set for this turn?',
    aspects: [
      'Tone matches the described persona',
      'Takes the student profile into account',
      'Does what the turn was meant to do (for example, pose a practice task)',
    ],
  },

  /* ----- Challenge ----- */
  {
    id: 'challenge_level',
    name: 'Right amount of stretch',
    level: 'principle',
    principle: 'Challenge',
    description: 'Which reply asks for a step that is just beyond what the student has already shown they can do?',
    aspects: ['Neither trivial nor out of reach for this student', 'Builds on the skill just practised'],
  },
  {
    id: 'challenge_extension',
    name: 'Extending the idea',
    level: 'principle',
    principle: 'Challenge',
    description: 'Which reply pushes the student to apply or generalise the idea in a new situation?',
    aspects: ['Changes a condition, quantity or context in a meaningful way', 'Invites the student to predict, compare or justify'],
  },
  {
    id: 'challenge_ownership',
    name: 'Leaving the thinking to the student',
    level: 'principle',
    principle: 'Challenge',
    description: 'Which reply keeps the hard part of the work with the student instead of solving it for them?',
    aspects: ['Does not give away the answer to the new task', 'Offers support only as much as needed to get started'],
  },

  /* ----- Explanation ----- */
  {
    id: 'explanation_reasoning',
    name: 'Explaining why',
    level: 'principle',
    principle: 'Explanation',
    description: 'Which reply makes the reason behind the method clear, not only the steps?',
    aspects: [
      'States why an operation or rule applies here',
      'Connects the method to what the quantities mean',
      'Avoids unexplained shortcuts or tricks',
    ],
  },
  {
    id: 'explanation_sequence',
    name: 'Well-ordered explanation',
    level: 'principle',
    principle: 'Explanation',
    description: 'Which reply presents its explanation in small steps that follow from one another?',
    aspects: ['Each step depends only on earlier ones', 'Step size suits the student', 'Ends where the student can continue'],
  },
  {
    id: 'explanation_connection',
    name: "Linking to the student's thinking",
    level: 'principle',
    principle: 'Explanation',
    description: 'Which reply ties the explanation to what the student already said, knows or got wrong?',
    aspects: ["Starts from the student's own attempt or words", 'Relates the new idea to something familiar'],
  },

  /* ----- Modelling ----- */
  {
    id: 'modelling_demonstration',
    name: 'Worked demonstration',
    level: 'principle',
    principle: 'Modelling',
    description: 'Which reply shows the process on a concrete example that the student can follow and imitate?',
    aspects: ['Uses an example close to, but not identical with, the task', 'Shows every step needed to imitate it'],
  },
  {
    id: 'modelling_visible_thinking',
    name: 'Making the thinking visible',
    level: 'principle',
    principle: 'Modelling',
    description: 'Which reply says out loud the decisions an expert makes while solving, not just the actions?',
    aspects: ['Names how to choose the next step', 'Mentions checks an expert would make along the way'],
  },
  {
    id: 'modelling_representation',
    name: 'Useful representation',
    level: 'principle',
    principle: 'Modelling',
    description: 'Which reply uses a picture, diagram, table or model that actually helps with this problem?',
    aspects: [
      'The representation matches the structure of the problem',
      'It is described clearly enough to picture or draw',
      'The student is shown how to use it, not only shown it',
    ],
  },

  /* ----- Practice ----- */
  {
    id: 'practice_relevance',
    name: 'Practising the target skill',
    level: 'principle',
    principle: 'Practice',
    description: 'Which reply gives a task that exercises the same skill the student has just been working on?',
    aspects: ['Targets the skill or misconception from the dialogue', 'Differs from the original problem enough to need real work'],
  },
  {
    id: 'practice_difficulty',
    name: 'Difficulty of the practice task',
    level: 'principle',
    principle: 'Practice',
    description: 'Which reply sets a practice task of a suitable difficulty for where the student is now?',
    aspects: ['Easier first if the student just struggled', 'Not so easy that it repeats the solved problem'],
  },
  {
    id: 'practice_well_posed',
    name: 'A well-posed task',
    level: 'principle',
    principle: 'Practice',
    description: 'Which reply states a task that is complete, unambiguous and solvable as written?',
    aspects: ['All the needed numbers and conditions are given', 'The question asked is clear', 'The task has a sensible answer'],
  },

  /* ----- Questioning ----- */
  {
    id: 'questioning_purpose',
    name: 'Purposeful question',
    level: 'principle',
    principle: 'Questioning',
    description: 'Which reply asks a question that moves the student toward understanding the current step?',
    aspects: ['Aims at the key idea or the error', 'Has a clear reason to be asked now'],
  },
  {
    id: 'questioning_openness',
    name: 'Room to think',
    level: 'principle',
    principle: 'Questioning',
    description: 'Which reply asks in a way that makes the student reason, rather than guess or say yes?',
    aspects: [
      'Not a leading or yes/no question when reasoning is needed',
      'Does not contain its own answer',
      'Invites the student to explain how they know',
    ],
  },
  {
    id: 'questioning_answerability',
    name: 'Answerable question',
    level: 'principle',
    principle: 'Questioning',
    description: 'Which reply asks something this student can actually answer from where they are?',
    aspects: ['One question at a time', 'Uses words and quantities the student knows'],
  },

  /* ----- Feedback ----- */
  {
    id: 'feedback_accuracy',
    name: 'Accurate judgement of the work',
    level: 'principle',
    principle: 'Feedback',
    description: "Which reply correctly recognises what is right and what is wrong in the student's answer?",
    aspects: ['Does not praise a wrong answer or reject a right one', 'Locates the first step that went wrong, if any'],
  },
  {
    id: 'feedback_specificity',
    name: 'Specific and actionable',
    level: 'principle',
    principle: 'Feedback',
    description: 'Which reply tells the student precisely what to keep, what to change and how to go on?',
    aspects: ['Points to a particular step or quantity, not just "check again"', 'Gives a next action the student can take'],
  },
  {
    id: 'feedback_tone',
    name: 'Constructive tone',
    level: 'principle',
    principle: 'Feedback',
    description: 'Which reply keeps the student motivated while being honest about mistakes?',
    aspects: [
      'Acknowledges effort or a correct part where there is one',
      'Treats the mistake as something to learn from',
      'Avoids empty or excessive praise',
    ],
  },
];
