export { makeTinyGguf, TEST_CHAT_TEMPLATE } from './makeTinyGguf.js';
export { testVocabulary, SPACE_MARK } from './testVocabulary.js';
export { commonWords } from './commonWords.js';
export { writeGguf, floatToHalf, halfToFloat } from './ggufWriter.js';
export type { TinyGgufOptions } from './makeTinyGguf.js';
export type { TestVocabulary } from './testVocabulary.js';
export type { GgufTensor, GgufValue } from './ggufWriter.js';
