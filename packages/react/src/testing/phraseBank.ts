/**
 * The simulated engine's phrases, grouped by the part of a sentence they
 * fill: what the text needs next (a noun after "the", a verb after "we", a
 * new sentence after a full stop) picks the group, the text picks one phrase
 * in it, so different text gets a different continuation and the same text
 * always the same one.
 */
export const SLOTS = {
  /** After a determiner that starts a clause ("The", "Hello team, our"): a noun, then the clause's verb. */
  nounSubject: [
    'meeting went well and everyone agreed on the plan.',
    'next step is to share the draft with the team.',
    'draft is ready for a first review.',
    'new editor feels much faster.',
    'update is in the shared folder.',
    'idea we discussed could work.',
  ],
  /** The same, plural ("The notes …"); never after "a", "an" or "this". */
  nounSubjectPlural: ['results look promising so far.', 'notes from the meeting are below.', 'tests pass on every browser now.'],
  /** After a determiner inside a clause ("thanks for the"): a noun that ends the clause. */
  nounObject: [
    'quick reply.',
    'draft we shared on Monday.',
    'next release.',
    'whole team.',
    'update on the project.',
    'idea we talked about.',
  ],
  /** The same, plural. */
  nounObjectPlural: ['notes from the last call.', 'slides for the demo.', 'open questions from the call.'],
  /** After a preposition ("about", "before"): a whole noun phrase. */
  nounPhrase: [
    'the end of the month.',
    'the whole team.',
    'Monday morning at ten.',
    'our plan for next week.',
    'a few small changes.',
    'the next release.',
    'everyone on the team.',
  ],
  /** After a modal or an infinitive's "to" ("will", "want to"): a verb's base form. */
  baseVerb: [
    'send the slides this afternoon.',
    'be ready by the end of the week.',
    'share the draft with the team.',
    'check the numbers first.',
    'follow up on the open questions.',
    'review it together on Monday.',
  ],
  /** After a modal that opens a sentence ("Can"): the rest of a question. */
  question: ['we move the meeting to Thursday?', 'you take a look at the draft?', 'you be free for a call tomorrow?'],
  /** After "I". */
  verbFirstPerson: [
    'think we should move the deadline by a week.',
    'will send the slides this afternoon.',
    'am looking forward to hearing from you.',
    'talked with Maria about the launch.',
  ],
  /** After "we", "you", "they" or a plural noun. */
  verbPlural: [
    'should meet again next Tuesday.',
    'can ship the first version this month.',
    'need a little more time for testing.',
    'are almost done with the review.',
  ],
  /** After a plural noun that is the subject ("The notes"). */
  verbPluralThing: ['are in the shared folder.', 'look good to me.', 'need one more round of review.'],
  /** After "it" or a singular noun. */
  verbSingular: ['is almost ready for review.', 'will be ready by Friday.', 'looks good to me.', 'needs one more round of testing.'],
  /** After "he" or "she". */
  verbPerson: ['will join the call on Monday.', 'sent the notes this morning.', 'is out of the office until Friday.'],
  /** After "am". */
  afterAm: ['happy to help with that.', 'looking forward to it.', 'almost done with the review.'],
  /** After "is" or "was". */
  afterIs: ['ready for review whenever you are.', 'a good time to plan the next step.', 'still a little slow on older laptops.'],
  /** After "are", "were", "be" or "been". */
  afterAre: ['ready in time for the demo.', 'happy to take a look.', 'almost done with the review.'],
  /** After a conjunction ("and", "because"): a whole clause, subject first. */
  clause: [
    'we can review it together on Monday.',
    'I will send the notes afterwards.',
    'the rest can wait until tomorrow.',
    'everyone agreed on the plan.',
  ],
  /** After a clause that is whole but not ended ("We agreed on the plan"): what may close it. */
  clauseEnd: [
    'before the end of the month.',
    'as soon as we have the numbers.',
    'so we can talk it over on Monday.',
    'for now, and more later this week.',
    'and the rest can wait until next week.',
  ],
  /** After a full stop, a question mark or a new line: a new sentence. */
  sentence: [
    'Let me know if you have any questions.',
    'We can talk about it at the next meeting.',
    'The rest of the plan stays the same.',
    'Thanks again for your help with this.',
    'More details will follow later this week.',
    'I will keep you posted on the progress.',
  ],
} as const satisfies Record<string, readonly string[]>;

/** What a sentence may need next. */
export type Slot = keyof typeof SLOTS;

/** Words with phrases of their own, each fitting right after the word, where the word opens its clause. */
export const OWN_PHRASES: Readonly<Record<string, readonly string[]>> = {
  hello: ['everyone, here is the weekly update.', 'and welcome to the team.'],
  hi: ['all, a quick update on the launch.', 'there, thanks for reaching out.'],
  dear: ['team, here is a short update.', 'colleagues, thank you for your help.'],
  thanks: ['for the quick reply.', 'again for your patience.', 'for sharing the notes.'],
  thank: ['you for the quick reply.', 'you for your patience.', 'everyone who joined the call.'],
  please: ['let me know if you have any questions.', 'review the draft before Friday.', 'share this with the rest of the team.'],
  let: ['me know what you think.', 'us know by Friday.'],
  hope: ['you are doing well.', 'this helps.', 'to hear from you soon.'],
  see: ['you on Monday.', 'the notes below for details.'],
  looking: ['forward to working with you.', 'into it now.'],
  once: ['upon a time, in a quiet village, there lived a baker.', 'the tests pass, we can release.'],
  quick: ['update on where things stand.', 'note to say thank you for your help.'],
  best: ['regards, and see you soon.', 'wishes for the new year.'],
  today: ['we shipped the new editor.', 'was a good day for the project.', 'I will finish the review.'],
  tomorrow: ['we will start on the next milestone.', 'morning works best for me.'],
  next: ['week we will focus on the docs.', 'steps are listed below.'],
  of: ['the week, we will know more.', 'all the options, this one is the simplest.', 'course, happy to help.'],
  in: ['the meantime, let me know if anything changes.', 'short, the plan still holds.', 'the next release.'],
  on: ['Monday morning at ten.', 'the shared drive.', 'top of that, the tests are green.'],
  want: ['to send the slides today.', 'to talk it over on Monday.', 'a little more time for this.'],
  need: ['to send the slides today.', 'a little more time for testing.', 'to check the numbers first.'],
  have: ['a look at the attached notes.', 'a few ideas for the launch.', 'any questions about the plan.'],
  it: ['would be great to get your feedback.', 'should be ready by the end of the day.', 'works well on most devices.'],
};

const words = (list: string): string[] => list.split(' ');

/** Words that start a noun phrase, each with the number of noun it takes. */
export const DETERMINERS: Readonly<Record<string, 'singular' | 'plural' | 'either'>> = {
  ...Object.fromEntries(words('the my our your their his her').map((w) => [w, 'either'])),
  ...Object.fromEntries(words('a an this every each').map((w) => [w, 'singular'])),
  ...Object.fromEntries(words('these those').map((w) => [w, 'plural'])),
};
/** Words after which a noun phrase comes (for "to", only where no infinitive is due). */
export const PREPOSITIONS: ReadonlySet<string> = new Set(
  words('of in on for with about before after from at by into over under without during until across through between to'),
);
/** Words after which "to" starts an infinitive ("want to send"). */
export const INFINITIVE_BEFORE_TO: ReadonlySet<string> = new Set(
  words('want wants need needs have has going like try able used plan hope'),
);
/** Modal verbs: a verb's base form comes after them. */
export const MODALS: ReadonlySet<string> = new Set(words('will can would should could might must shall may'));
/** Conjunctions: a whole clause comes after them. */
export const CONJUNCTIONS: ReadonlySet<string> = new Set(words('and but or so because if when while then that though unless'));
/** Subject pronouns, each with the verbs that agree with it. */
export const SUBJECTS: Readonly<Record<string, Slot>> = {
  i: 'verbFirstPerson',
  we: 'verbPlural',
  you: 'verbPlural',
  they: 'verbPlural',
  he: 'verbPerson',
  she: 'verbPerson',
  everyone: 'verbSingular',
};
/** Forms of "be", each with what may follow it. */
export const BE_FORMS: Readonly<Record<string, Slot>> = {
  am: 'afterAm',
  is: 'afterIs',
  was: 'afterIs',
  are: 'afterAre',
  were: 'afterAre',
  be: 'afterAre',
  been: 'afterAre',
};
/** Adjectives: inside a noun phrase a noun follows, after "is" the clause is whole. */
export const ADJECTIVES: ReadonlySet<string> = new Set(words('new good great important possible wonderful short whole first last small'));
/** Nouns that are plural though a naive rule would not say so, or singular though they end in "s". */
export const PLURAL_NOUNS: ReadonlySet<string> = new Set(words('notes results people tests slides questions news'));
/** Words, other than determiners, that leave a noun in its clause's subject ("Hello team", "Quick update"). */
export const GREETINGS: ReadonlySet<string> = new Set(words('hello hi dear quick'));

/**
 * Whole words the simulated engine never treats as half-typed ("to" is not
 * the start of "today", "I" not the start of "in").
 */
export const WHOLE_WORDS: ReadonlySet<string> = new Set([
  ...words(
    'the a an to and i we you it is of in for on with thanks thank hello hi dear please today tomorrow will can our this my project team meeting next week would be have let best once quick hope see looking',
  ),
  ...Object.keys(OWN_PHRASES),
  ...Object.keys(DETERMINERS),
  ...PREPOSITIONS,
  ...MODALS,
  ...CONJUNCTIONS,
  ...Object.keys(SUBJECTS),
  ...Object.keys(BE_FORMS),
  ...words(
    'as at by do go he me no or so up us am if my ok want need know new note notes plan ship send share work what when where who why how',
  ),
]);

/** Words the simulated engine completes when the text ends halfway through one. */
export const VOCABULARY: readonly string[] = [
  ...words(
    'the a an to and i we you it is of in for on with thanks thank hello hi dear please today tomorrow will can our this my project team meeting next week would be have let best once quick hope see looking',
  ),
  ...words(
    'meeting tomorrow thanks question schedule together everyone because possible document translation suggestion wonderful important',
  ),
];
