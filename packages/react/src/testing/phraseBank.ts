/**
 * Continuations the simulated engine offers after a word: several per word,
 * one picked by the text so far, so different text gets a different
 * continuation and the same text always the same one. None starts with the
 * word it follows (the ghost-text clean-up would strip an echo).
 */
export const PHRASES: Readonly<Record<string, readonly string[]>> = {
  the: ['meeting went well and everyone agreed on the plan.', 'results look promising so far.', 'next step is to share the draft with the team.'],
  a: ['quick note to say thank you for your help.', 'short summary of what we decided today.', 'few ideas worth trying next week.'],
  an: ['update on the project and what comes next.', 'idea we could test before Friday.'],
  to: ['the team before the end of the week.', 'make sure everyone has what they need.', 'follow up on the open questions.'],
  and: ['then we can review it together on Monday.', 'I will send the notes afterwards.', 'the rest can wait until tomorrow.'],
  i: ['think we should move the deadline by a week.', 'will send the slides this afternoon.', 'am looking forward to hearing from you.'],
  we: ['should meet again next Tuesday.', 'can ship the first version this month.', 'need a little more time for testing.'],
  you: ['for taking the time to review this.', 'can find the draft in the shared folder.', 'might want to check the numbers first.'],
  it: ['would be great to get your feedback.', 'should be ready by the end of the day.', 'works well on most devices.'],
  is: ['ready for review whenever you are.', 'a good time to plan the next step.', 'still a little slow on older laptops.'],
  of: ['the week, we will know more.', 'all the options, this one is the simplest.', 'course, happy to help.'],
  in: ['the meantime, let me know if anything changes.', 'short, the plan still holds.', 'the next release.'],
  for: ['your help with the launch.', 'the next few days.', 'everyone on the team.'],
  on: ['the call we agreed to try the new layout.', 'Monday morning at ten.', 'top of that, the tests are green.'],
  with: ['the whole team on Thursday.', 'a few small changes.', 'best wishes from all of us.'],
  thanks: ['for the quick reply.', 'again for your patience.', 'for sharing the notes.'],
  thank: ['you for the quick reply.', 'you for your patience.', 'everyone who joined the call.'],
  hello: ['everyone, here is the weekly update.', 'and welcome to the team.'],
  hi: ['all, a quick update on the launch.', 'there, thanks for reaching out.'],
  dear: ['team, here is a short update.', 'colleagues, thank you for your help.'],
  please: ['let me know if you have any questions.', 'review the draft before Friday.', 'share this with the rest of the team.'],
  today: ['we shipped the new editor.', 'was a good day for the project.', 'I will finish the review.'],
  tomorrow: ['we will start on the next milestone.', 'morning works best for me.'],
  will: ['be ready by the end of the week.', 'send an update after the call.', 'take a little longer than planned.'],
  can: ['we move the meeting to Thursday?', 'you take a look at the draft?', 'help with the translation.'],
  our: ['next meeting is on Tuesday.', 'users seem to like the new design.', 'plan for the coming weeks.'],
  this: ['week we focused on performance.', 'looks good to me.', 'is a first draft, comments welcome.'],
  my: ['notes from the meeting are below.', 'main concern is the timeline.'],
  project: ['is on track for the release.', 'needs one more round of testing.'],
  team: ['did a great job this week.', 'will meet again on Friday.'],
  meeting: ['notes are in the shared folder.', 'is moved to three o’clock.'],
  next: ['week we will focus on the docs.', 'steps are listed below.'],
  week: ['we will finish the first version.', 'has been busy but productive.'],
  would: ['you be free for a call tomorrow?', 'be happy to help with that.'],
  be: ['ready in time for the demo.', 'happy to take a look.'],
  have: ['a great weekend!', 'a look at the attached notes.', 'any questions, just ask.'],
  let: ['me know what you think.', 'us know by Friday.'],
  best: ['regards, and see you soon.', 'wishes for the new year.'],
  once: ['upon a time, in a quiet village, there lived a baker.', 'the tests pass, we can release.'],
  quick: ['brown fox jumps over the lazy dog.', 'update on where things stand.'],
  hope: ['you are doing well.', 'this helps.', 'to hear from you soon.'],
  see: ['you on Monday.', 'the notes below for details.'],
  looking: ['forward to working with you.', 'into it now.'],
};

/** For a new sentence, or a last word with no phrases of its own. */
export const OPENERS: readonly string[] = [
  'Let me know if you have any questions.',
  'We can talk about it at the next meeting.',
  'The rest of the plan stays the same.',
  'Thanks again for your help with this.',
  'More details will follow later this week.',
  'I will keep you posted on the progress.',
];

/** For a last word with no phrases of its own, mid-sentence: they start in lower case. */
export const MIDDLES: readonly string[] = [
  'and the rest can wait until next week.',
  'as soon as we have the numbers.',
  'before the end of the month.',
  'so we can talk it over on Monday.',
  'with a few small changes.',
  'for now, and more later this week.',
];

/**
 * Whole words the simulated engine never treats as half-typed ("to" is not
 * the start of "today", "I" not the start of "in").
 */
export const WHOLE_WORDS: ReadonlySet<string> = new Set([
  ...Object.keys(PHRASES),
  ...'as at by do go he me no or so up us am if my ok want need know new note notes plan ship send share work what when where who why how'.split(' '),
]);

/** Words the simulated engine completes when the text ends halfway through one. */
export const VOCABULARY: readonly string[] = [...Object.keys(PHRASES), 'meeting', 'tomorrow', 'thanks', 'question', 'schedule', 'together', 'everyone', 'because', 'possible', 'document', 'translation', 'suggestion', 'wonderful', 'important'];
