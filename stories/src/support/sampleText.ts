/** Notes to translate in stories: short, everyday, mostly words the simulated dictionary knows. */
export const NOTES: readonly string[] = [
  'Good morning, team.',
  'The meeting is on Monday.',
  'Thank you for the notes.',
  'See you soon.',
  'Please send the draft.',
  'Our project is ready.',
  'The weekly shopping list: milk, bread, eggs.',
  'We will call you tomorrow.',
  'I have a question about the plan.',
  'Hello world, this is a new page.',
  'Good night and thank you.',
  'More ideas for the next week.',
];
